// Second versions nobody chose: a seeded generator of changes to the reference extension's GeneratePatches answers,
// one change per Cluster, for the differential corpus that holds `rollout-impact`'s predictions to what Cluster API
// does (test/capi/second-versions.test.ts records Cluster API, test/impact/second-versions.test.ts replays it).
//
// The Cluster `sv-<n>` gets change n: the extension's version 1 answer, then that change made to one template (role)
// of its class, chosen from the template kind's schema (hooks/v1alpha1/crds.json) and the template as it is:
// declared fields added, removed or replaced at any depth, a field the schema does not declare, a value of the wrong
// type, a list reordered, metadata only, a value the API server or a webhook defaults anyway, KubeadmControlPlane
// paths Cluster API ignores or updates in place. Every template and holder of both classes is covered
// (PLAN). `runtime-sdk serve --handlers` and `rollout-impact --handlers` take this module (its default export).
import { createHash } from 'node:crypto'
import { applyPatch, type Operation } from 'rfc6902'
import crds from '../../hooks/v1alpha1/crds.json' with { type: 'json' }
import { GeneratePatches } from '../../src/api/hooks/v1alpha1/index.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { defineHandler, type ExtensionHandler } from '../../src/server/types.js'
import { createJsonPatch } from '../../src/topology/json-patch.js'
import { applyMergePatch } from '../../src/topology/merge-patch.js'
import { templateRole, type TemplateRole } from '../../src/topology/holders.js'

/** What one change does. */
export type ChangeKind = 'add-declared' | 'remove' | 'replace' | 'undeclared' | 'wrong-type' | 'reorder' | 'metadata' | 'default-value' | 'ignored-by-kcp' | 'kcp-in-place'

/** The classes the corpus runs: examples/simulate's and Cluster API's quick-start-runtimesdk. */
export type CorpusClass = 'loop' | 'quick-start-runtimesdk'

/** One change: which Cluster gets it, which template of its class, and what kind of change. */
export interface SecondVersionChange {
  /** cluster is the Cluster's name, `sv-<index>`. */
  cluster: string
  clusterClass: CorpusClass
  role: TemplateRole
  kind: ChangeKind
}

/** The kinds of change made to each template of a class: every template, and every kind somewhere. */
const PLAN: Array<[TemplateRole, ChangeKind[]]> = [
  ['MachineDeploymentBootstrap', ['add-declared', 'remove', 'replace', 'undeclared', 'wrong-type', 'default-value', 'metadata']],
  ['MachineDeploymentInfrastructure', ['add-declared', 'replace', 'undeclared', 'metadata']],
  ['ControlPlane', ['add-declared', 'ignored-by-kcp', 'kcp-in-place', 'undeclared', 'wrong-type', 'reorder']],
  ['ControlPlaneMachineInfrastructure', ['replace', 'wrong-type']],
  ['InfrastructureCluster', ['add-declared', 'undeclared', 'replace']]
]

/** Every change of the corpus, in Cluster order: the plan for each class. */
export function secondVersionChanges (): SecondVersionChange[] {
  const classes: CorpusClass[] = ['loop', 'quick-start-runtimesdk']
  return classes.flatMap(clusterClass => PLAN.flatMap(([role, kinds]) => kinds.map(kind => ({ clusterClass, role, kind }))))
    .map((c, i) => ({ cluster: `sv-${String(i).padStart(2, '0')}`, ...c }))
}

type Json = Record<string, any>
type Schema = Json

const SCHEMAS = new Map((crds as { crds: Array<{ kind: string, schema: Schema }> }).crds.map(c => [c.kind, c.schema]))

/** A repeatable random source for one change: the same choices for the same Cluster and template. */
function randomOf (key: string): (n: number) => number {
  let counter = 0
  return (n: number) => n <= 0 ? 0 : createHash('sha256').update(`${key}\0${counter++}`).digest().readUInt32BE(0) % n
}

/** A place in a template: its path from the template's root, the schema there, the value there (undefined when absent). */
interface Site { path: string[], schema: Schema, value: unknown }

/** The declared places under `value` (present ones, and absent properties of present objects), to `depth`. */
function sites (schema: Schema, value: unknown, path: string[], out: Site[] = []): Site[] {
  out.push({ path, schema, value })
  if (value === undefined || value === null) return out
  if (schema['type'] === 'object' && schema['properties'] && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(schema['properties'] as Record<string, Schema>)) sites(child, (value as Json)[key], [...path, key], out)
  } else if (schema['type'] === 'array' && Array.isArray(value)) {
    value.forEach((item, i) => sites(schema['items'] ?? {}, item, [...path, String(i)], out))
  }
  return out
}

/** A value the schema takes, as an author might write it. */
function sample (schema: Schema, random: (n: number) => number, depth = 0): unknown {
  if (schema['x-kubernetes-int-or-string']) return [1, '25%'][random(2)]
  if (Array.isArray(schema['enum'])) return schema['enum'][random(schema['enum'].length)]
  switch (schema['type']) {
    case 'string': return schema['format'] === 'duration' ? '2s' : `v2-${random(100)}`
    case 'integer': return (schema['minimum'] ?? 0) + 1 + random(5)
    case 'number': return 1.5
    case 'boolean': return random(2) === 0
    case 'array': return depth > 4 ? [] : [sample(schema['items'] ?? {}, random, depth + 1)]
    case 'object': {
      const props = (schema['properties'] ?? {}) as Record<string, Schema>
      const required = (schema['required'] ?? []) as string[]
      const keys = [...required, ...Object.keys(props).filter(k => !required.includes(k)).slice(random(3), random(3) + 1)]
      if (keys.length === 0 && schema['additionalProperties']) return { v2: sample(schema['additionalProperties'], random, depth + 1) }
      return Object.fromEntries(depth > 4 ? [] : [...new Set(keys)].filter(k => props[k]).map(k => [k, sample(props[k] as Schema, random, depth + 1)]))
    }
    default: return 'v2'
  }
}

/** A value of the wrong JSON type for the schema. */
function wrongType (schema: Schema): unknown {
  if (schema['x-kubernetes-int-or-string']) return [1]
  return ({ string: 7, integer: 'seven', number: 'seven', boolean: 'yes', array: 'v2', object: 'v2' } as Record<string, unknown>)[String(schema['type'])] ?? { v2: true }
}

const setAt = (root: Json, path: readonly string[], value: unknown) => {
  let at: any = root
  for (const key of path.slice(0, -1)) at = at[key] ??= {}
  at[path.at(-1) as string] = value
}
const removeAt = (root: Json, path: readonly string[]) => {
  const parent = path.slice(0, -1).reduce<any>((v, k) => v?.[k], root)
  if (Array.isArray(parent)) parent.splice(Number(path.at(-1)), 1)
  else if (parent) delete parent[path.at(-1) as string]
}

const SPEC = ['spec', 'template', 'spec']
const pick = <T>(list: readonly T[], random: (n: number) => number): T | undefined => list[random(list.length)]

/** Makes the change to the template (after version 1's patch), in place; what it did, for the log. */
export function makeChange (change: SecondVersionChange, template: Json): string {
  const random = randomOf(`${change.cluster}/${change.kind}`)
  const schema = SCHEMAS.get(String(template['kind'])) as Schema
  const specSchema = SPEC.reduce<Schema>((s, k) => s['properties']?.[k] ?? {}, schema)
  template['spec'] ??= {}
  template['spec']['template'] ??= {}
  template['spec']['template']['spec'] ??= {}
  const all = sites(specSchema, template['spec']['template']['spec'], SPEC).filter(s => s.path.length > SPEC.length)
  const present = all.filter(s => s.value !== undefined)
  const absent = all.filter(s => s.value === undefined && !/^\d+$/.test(s.path.at(-1) as string))
  const leaves = present.filter(s => s.schema['type'] !== 'object' && s.schema['type'] !== 'array')
  const done = (what: string, path: readonly string[]) => `${what} ${path.join('.')}`
  switch (change.kind) {
    case 'add-declared': {
      const site = pick(absent, random)
      if (!site) break
      setAt(template, site.path, sample(site.schema, random))
      return done('added', site.path)
    }
    case 'remove': {
      const site = pick(present, random)
      if (!site) break
      removeAt(template, site.path)
      return done('removed', site.path)
    }
    case 'replace': {
      const site = pick(leaves, random) ?? pick(present, random)
      if (!site) break
      let value = sample(site.schema, random)
      for (let i = 0; i < 5 && JSON.stringify(value) === JSON.stringify(site.value); i++) value = sample(site.schema, random)
      setAt(template, site.path, value)
      return done('replaced', site.path)
    }
    case 'undeclared': {
      const objects = [{ path: SPEC, schema: specSchema, value: {} }, ...present].filter(s => s.schema['type'] === 'object' && !s.schema['additionalProperties'] && !s.schema['x-kubernetes-preserve-unknown-fields'])
      const site = pick(objects, random) as Site
      setAt(template, [...site.path, 'notDeclaredByV2'], 'v2')
      return done('undeclared field under', site.path)
    }
    case 'wrong-type': {
      const site = pick(present, random)
      if (!site) break
      setAt(template, site.path, wrongType(site.schema))
      return done('wrong type at', site.path)
    }
    case 'reorder': {
      const lists = present.filter(s => Array.isArray(s.value) && s.value.length > 1)
      const site = pick(lists, random)
      if (!site) break
      setAt(template, site.path, [...site.value as unknown[]].reverse())
      return done('reordered', site.path)
    }
    case 'metadata':
      template['metadata'] = { ...template['metadata'], labels: { ...template['metadata']?.labels, 'example.com/second-version': `v2-${random(100)}` } }
      return 'labelled the template'
    case 'default-value':
      // What the KubeadmConfigTemplate webhook defaults on the topology controller's dry runs (ApplyPreviousKubeadmConfigDefaults).
      setAt(template, [...SPEC, 'format'], 'cloud-config')
      setAt(template, [...SPEC, 'joinConfiguration', 'nodeRegistration', 'imagePullPolicy'], 'IfNotPresent')
      return 'set format and imagePullPolicy to their defaults'
    case 'ignored-by-kcp':
      setAt(template, [...SPEC, 'kubeadmConfigSpec', 'clusterConfiguration', 'dns', 'imageRepository'], `registry.example/v2-${random(100)}`)
      return 'set clusterConfiguration.dns.imageRepository'
    case 'kcp-in-place':
      setAt(template, [...SPEC, 'machineTemplate', 'spec', 'deletion', 'nodeDrainTimeoutSeconds'], 30 + random(60))
      return 'set machineTemplate.spec.deletion.nodeDrainTimeoutSeconds'
  }
  template['metadata'] = { ...template['metadata'], annotations: { ...template['metadata']?.annotations, 'example.com/second-version': 'nothing else to change' } }
  return 'annotated the template (nothing else to change)'
}

type Item = { uid: string, holderReference: { kind: string, fieldPath: string }, object: Json }
type Answer = { status: string, items?: Array<{ uid: string, patchType: string, patch: string }> }
const decode = (patch: string) => JSON.parse(Buffer.from(patch, 'base64').toString('utf8')) as unknown
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64')

/** The Cluster a GeneratePatches request is about (its builtin variable). */
const clusterOf = (request: { variables?: Array<{ name: string, value: unknown }> }) => (request.variables?.find(v => v.name === 'builtin')?.value as { cluster?: { name?: string } } | undefined)?.cluster?.name

/** The reference extension, its GeneratePatches answering each Cluster of the corpus with that Cluster's change. */
export function secondVersionHandlers (): ExtensionHandler[] {
  const changes = new Map(secondVersionChanges().map(c => [c.cluster, c]))
  const v1 = referenceHandlers()
  const generate = v1.find(h => h.hook.hook === 'GeneratePatches') as ExtensionHandler
  const changed = defineHandler({
    hook: GeneratePatches,
    name: generate.name,
    handler: async (request, ctx) => {
      const answer = await (generate.handler as (r: unknown, c: unknown) => Promise<Answer> | Answer)(request, ctx)
      const change = changes.get(clusterOf(request as never) ?? '')
      if (answer.status !== 'Success' || !change) return answer as never
      const items = (request.items ?? []) as unknown as Item[]
      return {
        ...answer,
        items: items.map(item => {
          const own = (answer.items ?? []).find(a => a.uid === item.uid)
          let after: Json = structuredClone(item.object)
          if (own?.patchType === 'JSONMergePatch') after = applyMergePatch(after, decode(own.patch)) as Json
          else if (own) applyPatch(after, decode(own.patch) as Operation[])
          if (templateRole(item.holderReference) === change.role) makeChange(change, after)
          return { uid: item.uid, patchType: 'JSONPatch', patch: encode(createJsonPatch(item.object, after)) }
        })
      } as never
    }
  })
  return v1.map(h => h.hook.hook === 'GeneratePatches' ? changed : h)
}

export default secondVersionHandlers()
