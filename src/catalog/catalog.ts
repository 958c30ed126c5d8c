// The catalog: which hooks exist in which versions, where they are served, how versions convert.
import { codedError } from '../errors/index.js'
import type { HookConversion, HookDefinition, HookGroupVersion } from '../api/hooks/define.js'
import { apiVersionOf, compareVersions, type GroupVersionHook, groupHookString, gvhString, hookPath, isKubeVersion } from './identity.js'
import { goDecoder } from './decoder/hook-checkers.js'
import { type HookChecks, hookCheck, hookChecks, type ReceivedRequest, type ValidationResult } from './validate.js'
import { DNS1123_SUBDOMAIN_PATTERN } from '../api/extension-config/rules.js'
import { GROUP } from '../api/hooks/v1alpha1/constants.js'
import { schemaProperties } from '../api/schema/builders.js'

/** A catalog cannot be built as asked (an invalid or conflicting hook definition), or a hook it is asked for is not in it. */
export class CatalogError extends codedError('ERR_RUNTIME_SDK_CATALOG') {}

export type { HookChecks, ReceivedRequest, ValidationResult } from './validate.js'

/** One version of one hook, as the catalog knows it. */
export interface CatalogHook {
  /** gvh is the hook's group, version and name. */
  gvh: GroupVersionHook
  /** definition is the hook definition it was registered with. */
  definition: HookDefinition
  /** blocking hooks answer with retryAfterSeconds and can hold back the operation they guard. */
  blocking: boolean
  /** requestKind is the kind of the hook's requests, `<hook>Request`. */
  requestKind: string
  /** responseKind is the kind of the hook's responses, `<hook>Response`. */
  responseKind: string
  /** apiVersion is the apiVersion of the hook's requests and responses, `<group>/<version>`. */
  apiVersion: string
  /**
   * goDecoded: the hook is Cluster API's, checked as Go's decoder reads its types (a refused request is "error
   * unmarshalling request", as Cluster API's server says); a hook of your own is checked against its JSON Schemas.
   */
  goDecoded: boolean
  /** conversion converts this version to and from a newer one; every version but the latest has one. */
  conversion?: HookConversion
}

const HOOK_NAME = /^[A-Z][A-Za-z0-9]*$/
const GROUP_NAME = new RegExp(DNS1123_SUBDOMAIN_PATTERN)

const keyOf = (gvh: GroupVersionHook) => `${gvh.group}/${gvh.version}/${gvh.hook}`
const groupHookKey = (group: string, hook: string) => `${group}/${hook}`

/**
 * A hook catalog: which hooks exist in which group versions, the paths they are served at, how their requests and
 * responses are checked and how older versions convert to newer ones. {@link createCatalog} makes one holding Cluster
 * API's hooks; add your own hook groups to it.
 *
 * @example
 * ```ts
 * import { createCatalog, v1alpha1 } from 'runtime-sdk'
 *
 * const catalog = createCatalog()
 * const hook = catalog.latest(v1alpha1.GROUP, 'BeforeClusterCreate')
 * catalog.path(hook.gvh, 'my-handler') // '/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/my-handler'
 * ```
 */
export class Catalog {
  readonly #hooks = new Map<string, CatalogHook>()
  readonly #versions = new Map<string, string[]>() // group/hook -> versions, newest first

  /** @param name names the catalog in error messages. */
  constructor (readonly name = 'runtime-sdk') {}

  /**
   * Registers group versions atomically: either all of them are added or none. Every version of a hook
   * older than its latest must convert to a newer one (requests down, responses up), so that a caller using
   * the latest version can reach handlers of any version.
   */
  add (...groupVersions: HookGroupVersion[]): this {
    const hooks = new Map(this.#hooks)
    const versions = new Map([...this.#versions].map(([k, v]) => [k, [...v]]))
    for (const gv of groupVersions) {
      checkGroupVersion(gv)
      for (const def of gv.hooks) {
        const gvh = { group: gv.group, version: gv.version, hook: def.hook }
        const existing = hooks.get(keyOf(gvh))
        if (existing && existing.definition !== def) throw new CatalogError(`hook ${gvhString(gvh)} is already registered in catalog "${this.name}" with a different definition`)
        if (existing) continue
        hooks.set(keyOf(gvh), describeHook(gvh, def, gv.conversions?.[def.hook]))
        const list = versions.get(groupHookKey(gv.group, def.hook)) ?? []
        list.push(gv.version)
        versions.set(groupHookKey(gv.group, def.hook), list.sort(compareVersions))
      }
      for (const hook of Object.keys(gv.conversions ?? {})) {
        if (!gv.hooks.some(h => h.hook === hook)) throw new CatalogError(`${apiVersionOf(gv)} has a conversion for hook ${hook}, which it does not define`)
      }
    }
    for (const [key, list] of versions) checkConversions(key, list, hooks)
    this.#hooks.clear()
    for (const [k, v] of hooks) this.#hooks.set(k, v)
    this.#versions.clear()
    for (const [k, v] of versions) this.#versions.set(k, v)
    return this
  }

  /** Whether the hook version is registered. */
  has (gvh: GroupVersionHook): boolean {
    return this.#hooks.has(keyOf(gvh))
  }

  /** The hook version, or undefined when it is not registered. */
  find (gvh: GroupVersionHook): CatalogHook | undefined {
    return this.#hooks.get(keyOf(gvh))
  }

  /** The hook version; throws CatalogError when it is not registered. */
  get (gvh: GroupVersionHook): CatalogHook {
    const hook = this.find(gvh)
    if (!hook) throw new CatalogError(`hook ${gvhString(gvh)} is not registered in catalog "${this.name}"`)
    return hook
  }

  /**
   * The catalog entry of a hook definition: the definition object identifies its group, version and hook. The same
   * definition loaded through another copy of the module (src and dist, two installs) is found by equal schemas.
   */
  of (definition: unknown): CatalogHook | undefined {
    const all = this.all()
    const same = all.find(h => h.definition === definition)
    if (same || typeof definition !== 'object' || definition === null) return same
    const { hook, request, response } = definition as { hook?: unknown, request?: unknown, response?: unknown }
    const candidates = all.filter(h => h.gvh.hook === hook &&
      JSON.stringify(h.definition.request) === JSON.stringify(request) && JSON.stringify(h.definition.response) === JSON.stringify(response))
    return candidates.length === 1 ? candidates[0] : undefined
  }

  /**
   * The Discovery hook every extension serves and every client calls: the latest version of
   * hooks.runtime.cluster.x-k8s.io's Discovery in this catalog.
   */
  discoveryHook (): CatalogHook {
    return this.latest(GROUP, 'Discovery')
  }

  /** Every registered hook version, grouped by group and version in registration order. */
  all (): CatalogHook[] {
    return [...this.#hooks.values()]
  }

  /** The versions of a hook, newest first. */
  versions (group: string, hook: string): string[] {
    return [...(this.#versions.get(groupHookKey(group, hook)) ?? [])]
  }

  /** The newest registered version of a hook; throws CatalogError when the hook is not registered. */
  latest (group: string, hook: string): CatalogHook {
    const version = this.versions(group, hook)[0]
    if (!version) throw new CatalogError(`hook ${groupHookString({ group, hook })} is not registered in catalog "${this.name}"`)
    return this.get({ group, version, hook })
  }

  /**
   * The path a handler of the hook version is served at, `/<group>/<version>/<hook>/<name>` lowercased; a singleton
   * (Discovery) has no name segment.
   */
  path (gvh: GroupVersionHook, name?: string): string {
    const hook = this.get(gvh)
    return hookPath(gvh, hook.definition.meta.singleton ? undefined : name)
  }

  /**
   * Checks a request: one of Cluster API's as its Go server decodes it (JSON types, integer ranges, timestamps,
   * nesting); one of your own against its schema (markers, the fields always sent).
   */
  validateRequest (gvh: GroupVersionHook, body: unknown): ValidationResult {
    return hookCheck(this.get(gvh), 'request')(body)
  }

  /**
   * Checks a request an extension received, as validateRequest does, and returns what its handler gets: for one of
   * Cluster API's hooks, what Go's handler reads (JSON null is an empty request; a field left out or null that Go
   * always sends gets its zero value, another one sent as null is left out), so that a handler typed with Cluster
   * API's types gets values of those types; a request of your own hooks as it is.
   */
  receiveRequest (gvh: GroupVersionHook, body: unknown): ReceivedRequest {
    return this.hookChecks(gvh).receive(body)
  }

  /**
   * The two checks of an extension's calls of a hook, bound to it once: `receive` is receiveRequest and `answer` is
   * validateResponse (strict), without looking the hook up on every call.
   */
  hookChecks (gvh: GroupVersionHook): HookChecks {
    return hookChecks(this.get(gvh))
  }

  /**
   * Checks a response: `strict` (a handler's answer) as Cluster API's client must read it (for your own hooks: the
   * markers and the fields the API requires); `decode` (an extension's answer to a client) only as far as Cluster
   * API's client decodes it.
   */
  validateResponse (gvh: GroupVersionHook, body: unknown, mode: 'strict' | 'decode' = 'strict'): ValidationResult {
    return hookCheck(this.get(gvh), mode === 'strict' ? 'response' : 'decode')(body)
  }

  /** Converts a request of version `from` down to the older version `to`, through every version between. */
  convertRequest (group: string, hook: string, request: unknown, from: string, to: string): unknown {
    return this.#chain(group, hook, to, from).reverse().reduce((value, step) => step.request(value), request)
  }

  /** Converts a response of the older version `from` up to version `to`, through every version between. */
  convertResponse (group: string, hook: string, response: unknown, from: string, to: string): unknown {
    return this.#chain(group, hook, from, to).reduce((value, step) => step.response(value), response)
  }

  /** The conversions leading from an older version up to a newer one, oldest first. */
  #chain (group: string, hook: string, older: string, newer: string): HookConversion[] {
    this.get({ group, version: older, hook })
    this.get({ group, version: newer, hook })
    const steps: HookConversion[] = []
    let version = older
    while (version !== newer) {
      const conversion = this.get({ group, version, hook }).conversion
      if (!conversion) throw new CatalogError(`cannot convert hook ${groupHookString({ group, hook })} between ${older} and ${newer}: ${older} is not older than ${newer}`)
      steps.push(conversion)
      version = conversion.to
    }
    return steps
  }
}

function checkGroupVersion (gv: HookGroupVersion): void {
  if (!GROUP_NAME.test(gv.group) || gv.group.length > 253) throw new CatalogError(`hook group "${gv.group}" must be a lowercase DNS subdomain`)
  if (!isKubeVersion(gv.version)) throw new CatalogError(`hook version "${gv.version}" of group ${gv.group} must look like v1, v1beta1 or v1alpha1`)
  const seen = new Set<string>()
  for (const def of gv.hooks) {
    if (!HOOK_NAME.test(def.hook)) throw new CatalogError(`hook name "${def.hook}" in ${apiVersionOf(gv)} must be UpperCamelCase`)
    if (seen.has(def.hook)) throw new CatalogError(`hook ${def.hook} is defined twice in ${apiVersionOf(gv)}`)
    seen.add(def.hook)
    if ((def.request as { type?: unknown }).type !== 'object' || (def.response as { type?: unknown }).type !== 'object') throw new CatalogError(`hook ${def.hook} in ${apiVersionOf(gv)} must have object request and response schemas`)
    if (!schemaProperties(def.response).includes('status')) throw new CatalogError(`hook ${def.hook} in ${apiVersionOf(gv)} must have a status field in its response`)
  }
}

function describeHook (gvh: GroupVersionHook, definition: HookDefinition, conversion: HookConversion | undefined): CatalogHook {
  return {
    gvh,
    definition,
    blocking: schemaProperties(definition.response).includes('retryAfterSeconds'),
    requestKind: `${gvh.hook}Request`,
    responseKind: `${gvh.hook}Response`,
    apiVersion: apiVersionOf(gvh),
    goDecoded: goDecoder(definition.request) !== undefined,
    ...(conversion ? { conversion } : {})
  }
}

function checkConversions (key: string, versions: string[], hooks: Map<string, CatalogHook>): void {
  const [group, hook] = key.split('/') as [string, string]
  const [latest, ...older] = versions
  const hookOf = (version: string) => hooks.get(keyOf({ group, version, hook }))
  const latestConversion = latest ? hookOf(latest)?.conversion : undefined
  if (latest && latestConversion) throw new CatalogError(`hook ${groupHookString({ group, hook })} ${latest} is its latest version but converts to ${latestConversion.to}, which is not registered`)
  for (const version of older) {
    const conversion = hookOf(version)?.conversion
    if (!conversion) {
      throw new CatalogError(`hook ${groupHookString({ group, hook })} ${version} is older than the latest version ${latest} and has no conversion: ` +
        'an older version must convert requests down and responses up (Runtime SDK rule #2)')
    }
    if (compareVersions(conversion.to, version) >= 0) throw new CatalogError(`hook ${groupHookString({ group, hook })} ${version} converts to ${conversion.to}, which is not a newer version`)
    if (!hookOf(conversion.to)) throw new CatalogError(`hook ${groupHookString({ group, hook })} ${version} converts to ${conversion.to}, which is not registered`)
  }
}
