// A RuntimeClient over an extension's handlers called in process (createInProcessExtension): the `--handlers`
// entrance of `runtime-sdk simulate`, and the `handlers` option of simulate(). Handlers are registered as Cluster API
// registers a discovered ExtensionConfig (`<handler>.<extension>`, timeout 10 s and policy Fail unless announced),
// matched in name order, called one at a time, and their answers aggregated and checked as the HTTPS client does
// (outcomes.ts); a call the serving core answers is never a calling error, so failurePolicy only matters for HTTP.
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import type { CatalogHook } from '../catalog/catalog.js'
import { validateDiscoveredHandlers } from '../catalog/handlers.js'
import { groupHookString, parseApiVersion } from '../catalog/identity.js'
import { RuntimeCallError } from '../client/errors.js'
import { aggregateResponses, answeredOutcome, catalogHook } from '../client/outcomes.js'
import type { CallResult, HandlerOutcome, KubeObject, RuntimeClient } from '../client/runtime-client.js'
import { nameForHandler } from '../registry/registry.js'
import type { InProcessExtension } from '../server/in-process.js'

interface Registration {
  name: string
  handlerName: string
  hook: CatalogHook
  timeoutSeconds: number
  failurePolicy: 'Fail' | 'Ignore'
}

/** The RuntimeClient of one extension called in process, registered as the ExtensionConfig `name`. */
export class InProcessRuntimeClient implements RuntimeClient {
  readonly #extension: InProcessExtension
  readonly #registrations: Registration[]
  readonly name: string

  constructor (extension: InProcessExtension, name: string) {
    this.#extension = extension
    this.name = name
    const validated = validateDiscoveredHandlers(extension.catalog, extension.discovery.handlers)
    // The serving core checked the handlers when it prepared the extension.
    const handlers = 'handlers' in validated ? validated.handlers : []
    this.#registrations = handlers.map(h => ({
      name: nameForHandler(h.name, name),
      handlerName: h.name,
      hook: extension.catalog.get({ ...parseApiVersion(h.requestHook.apiVersion), hook: h.requestHook.hook }),
      timeoutSeconds: h.timeoutSeconds || 10,
      failurePolicy: h.failurePolicy === 'Ignore' ? 'Ignore' as const : 'Fail' as const
    })).sort((a, b) => a.name.localeCompare(b.name))
  }

  warmUp (): void {}
  isReady (): boolean { return true }
  register (): void {}
  unregister (): void {}

  /** The ExtensionConfig with the extension's handlers as discovered. */
  async discover (extensionConfig: ExtensionConfig): Promise<ExtensionConfig> {
    return {
      ...extensionConfig,
      status: {
        ...extensionConfig.status,
        handlers: this.#registrations.map(r => ({ name: r.name, requestHook: { apiVersion: r.hook.apiVersion, hook: r.hook.gvh.hook }, timeoutSeconds: r.timeoutSeconds, failurePolicy: r.failurePolicy }))
      }
    }
  }

  async getAllExtensions (hook: HookDefinition): Promise<string[]> {
    return this.#matching(catalogHook(this.#extension.catalog, hook)).map(r => r.name)
  }

  async callAllExtensions<H extends HookDefinition> (hook: H, _forObject: KubeObject, request: RequestOf<H>): Promise<CallResult<ResponseOf<H>>> {
    const entry = catalogHook(this.#extension.catalog, hook)
    const fail = (message: string, handlers: HandlerOutcome[] = []) => new RuntimeCallError(`failed to call extension handlers for hook "${groupHookString(entry.gvh)}": ${message}`, handlers)
    const invalid = this.#extension.catalog.validateRequest(entry.gvh, request)
    if (!invalid.valid) throw fail(`request object is invalid for hook: ${invalid.message}`)
    const outcomes: HandlerOutcome[] = []
    for (const registration of this.#matching(entry)) {
      const outcome = await this.#call(registration, request)
      outcomes.push(outcome)
      if (outcome.error) throw fail(`failed to call extension handler "${outcome.name}": ${outcome.error}`, outcomes)
    }
    return { response: aggregateResponses(entry, outcomes) as ResponseOf<H>, handlers: outcomes }
  }

  async callExtension<H extends HookDefinition> (hook: H, _forObject: KubeObject, name: string, request: RequestOf<H>): Promise<CallResult<ResponseOf<H>>> {
    const entry = catalogHook(this.#extension.catalog, hook)
    const fail = (message: string, handlers: HandlerOutcome[] = []) => new RuntimeCallError(`failed to call extension handler "${name}": ${message}`, handlers)
    const invalid = this.#extension.catalog.validateRequest(entry.gvh, request)
    if (!invalid.valid) throw fail(`request object is invalid for hook "${groupHookString(entry.gvh)}": ${invalid.message}`)
    const registration = this.#registrations.find(r => r.name === name)
    if (!registration) throw fail(`failed to get extension handler "${name}" from registry: handler with name "${name}" has not been registered`)
    if (registration.hook.gvh.group !== entry.gvh.group || registration.hook.gvh.hook !== entry.gvh.hook) throw fail(`handler does not match GroupHook "${groupHookString(entry.gvh)}"`)
    const outcome = await this.#call(registration, request)
    if (outcome.error) throw fail(outcome.error, [outcome])
    return { response: outcome.response as ResponseOf<H>, handlers: [outcome] }
  }

  #matching (entry: CatalogHook): Registration[] {
    return this.#registrations.filter(r => r.hook.gvh.group === entry.gvh.group && r.hook.gvh.hook === entry.gvh.hook)
  }

  async #call (registration: Registration, request: unknown): Promise<HandlerOutcome> {
    const { hook } = registration
    const started = performance.now()
    const { kind: _k, apiVersion: _a, ...rest } = request as Record<string, unknown>
    const body = { kind: hook.requestKind, apiVersion: hook.apiVersion, ...rest }
    const path = this.#extension.catalog.path(hook.gvh, registration.handlerName)
    const answer = await this.#extension.callPath(path, body, { timeout: `${registration.timeoutSeconds}s` })
    const durationMs = performance.now() - started
    return answeredOutcome({ name: registration.name, gvh: hook.gvh }, { kind: hook.responseKind, apiVersion: hook.apiVersion, ...answer }, durationMs)
  }
}
