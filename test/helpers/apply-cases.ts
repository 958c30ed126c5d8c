// The applied objects of the server-side apply proof: hand-written ones for every rule of the typed conversion, and
// objects mutated from a seed at sites drawn from each CRD's schema (undeclared fields at every depth, wrong types,
// nulls, list-map and set items, metadata), sometimes several at once.
import type { JSONSchemaProps } from '../../src/apiserver/index.js'
import { mulberry32 } from '../../tools/harness/seeded-random.js'
import { type ApplyCRD, APPLY_CRDS, applyCRD } from './apply-crds.js'

/** One applied object (or, with from, an apply over an object applied before). */
export interface ApplyCase {
  name: string
  crd: ApplyCRD
  /** body is the object but apiVersion and kind; metadata's name and namespace are added unless it sets them. */
  body: Record<string, unknown>
  from?: Record<string, unknown>
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The applied object of a case (or of its from). */
export function applyObject (k: ApplyCase, body: Record<string, unknown> = k.body): Record<string, unknown> {
  const meta = body.metadata
  const metadata = meta === undefined ? { name: k.name, namespace: 'default' } : isRecord(meta) ? { name: k.name, namespace: 'default', ...meta } : meta
  return { apiVersion: `${k.crd.group}/${k.crd.version}`, kind: k.crd.kind, ...body, metadata }
}

const c = (kind: string, name: string, body: Record<string, unknown>, from?: Record<string, unknown>): ApplyCase =>
  ({ name, crd: applyCRD(kind), body, ...(from ? { from } : {}) })
const kct = (spec: Record<string, unknown>) => ({ spec: { template: { spec } } })
const kctArgs = (extraArgs: unknown) => kct({ clusterConfiguration: { apiServer: { extraArgs } } })
const applier = (spec: Record<string, unknown>) => ({ spec })

export const HAND_WRITTEN: ApplyCase[] = [
  // Undeclared fields: the first one of a map stops it.
  c('KubeadmConfigTemplate', 'kct-undeclared', kct({ notAKubeadmField: true })),
  c('KubeadmConfigTemplate', 'kct-two-undeclared', kct({ notA: 1, notB: 2 })),
  c('KubeadmConfigTemplate', 'kct-undeclared-and-wrong', kct({ notA: 1, preKubeadmCommands: 'echo' })),
  c('KubeadmConfigTemplate', 'kct-undeclared-two-maps', { spec: { template: { spec: { notA: 1 }, notB: 2 } } }),
  c('Cluster', 'cluster-root-undeclared', { extra: 1, spec: {} }),
  c('Widget', 'widget-status-undeclared', { spec: {}, status: { nope: 1 } }),
  c('Applier', 'applier-closed', applier({ closed: { a: 1 } })),
  c('Applier', 'applier-granular', applier({ granular: { a: 'x', b: 1 } })),
  c('Applier', 'applier-atomic-object', applier({ atomicObject: { a: 'x', c: 1 } })),
  c('Applier', 'applier-deep-undeclared', applier({ nested: { deeper: { deepest: { leaf: 'x', twig: 1 } } } })),
  // Unknown fields taken: free objects, preserve-unknown-fields (inherited below), the root preserving them.
  c('Applier', 'applier-free', applier({ free: { a: { b: [1, { c: null }] } } })),
  c('Applier', 'applier-open', applier({ open: { a: { b: [1, { c: null }] } }, closed: {} })),
  c('Applier', 'applier-keep', applier({ keep: { unknown: { x: 1 }, typed: { n: 'x', other: 1 }, items: [{ x: 1, y: 2 }] } })),
  c('Loose', 'loose-root', { spec: { zzz: 1, a: 5, inner: { b: 'x', c: 1 } }, extra: { any: true } }),
  c('Loose', 'loose-metadata', { metadata: { foo: 1 }, spec: {} }),
  c('Cluster', 'cluster-variable-value', { spec: { topology: { classRef: { name: 'c' }, version: 'v1.35.0', variables: [{ name: 'a', value: { any: [1, { b: 'c' }] } }] } } }),
  // Wrong types, each scalar kind and maps and lists.
  c('KubeadmConfigTemplate', 'kct-commands-string', kct({ preKubeadmCommands: 'echo' })),
  c('KubeadmConfigTemplate', 'kct-files-types', kct({ files: [{ path: '/a', content: 5, append: 'yes' }] })),
  c('Cluster', 'cluster-port-string', { spec: { clusterNetwork: { apiServerPort: 'x' } } }),
  c('Cluster', 'cluster-port-map', { spec: { clusterNetwork: { apiServerPort: { a: 1 } } } }),
  c('Cluster', 'cluster-port-list', { spec: { clusterNetwork: { apiServerPort: [1] } } }),
  c('Cluster', 'cluster-port-bool', { spec: { clusterNetwork: { apiServerPort: true } } }),
  c('Cluster', 'cluster-paused-string', { spec: { paused: 'no' } }),
  c('Cluster', 'cluster-paused-float', { spec: { paused: 2.5 } }),
  c('Cluster', 'cluster-paused-map', { spec: { paused: { a: [1, null, 'x y'] } } }),
  c('Cluster', 'cluster-domain-numbers', { spec: { clusterNetwork: { serviceDomain: 1.5, pods: { cidrBlocks: [1e21, 2 ** 64, -0.5, 7] } } } }),
  c('Cluster', 'cluster-domain-list', { spec: { clusterNetwork: { serviceDomain: ['é', 'tab\t', 'q"uote', null, { k: 'v' }] } } }),
  c('Cluster', 'cluster-spec-string', { spec: 'x' }),
  c('Cluster', 'cluster-spec-list', { spec: [] }),
  c('Cluster', 'cluster-gates-map', { spec: { availabilityGates: { conditionType: 'A' } } }),
  c('Cluster', 'cluster-many-errors', { spec: { clusterNetwork: { apiServerPort: 'x' }, paused: 'no', topology: { classRef: { name: 5 } } } }),
  c('MachineDeployment', 'md-rollout-after-map', { spec: { clusterName: 'c', rollout: { after: { a: 1 } } } }),
  c('MachineDeployment', 'md-rollout-after-number', { spec: { clusterName: 'c', rollout: { after: 5 } } }),
  c('MachineDeployment', 'md-max-surge-map', { spec: { clusterName: 'c', rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: { a: 1 } } } } } }),
  c('Applier', 'applier-formats', applier({ formats: { when: ['x'], mail: 5, blob: 5, count: 'x', ratio: false } })),
  c('Applier', 'applier-formats-scalars', applier({ formats: { when: 5, mail: true } })),
  c('Applier', 'applier-matrix', applier({ matrix: [[1, 'x'], 'y', [true]] })),
  c('Applier', 'applier-mixed', applier({ mixed: [{ a: 1 }, [1], 'x', 2] })),
  c('Widget', 'widget-status-type', { spec: {}, status: { phase: 5 } }),
  // Nulls fit every type.
  c('Cluster', 'cluster-nulls', { spec: { paused: null, clusterNetwork: null, availabilityGates: null } }),
  c('Cluster', 'cluster-spec-null', { spec: null }),
  c('Widget', 'widget-null-values', { spec: { labels: { a: null }, items: [null], tags: null } }),
  c('Widget', 'widget-nulls-defaulted', { spec: { replicas: null, nonNullableWithDefault: null, nullableWithDefault: null, nullable: null, itemsWithNull: ['a', null] } }),
  c('Widget', 'widget-null-kept', { spec: { nonNullable: null } }),
  c('Widget', 'widget-status-null', { spec: {}, status: null }),
  c('Ruler', 'ruler-status-null', { spec: {}, status: null }),
  // Sets.
  c('Widget', 'widget-set-duplicate', { spec: { tags: ['a', 'b', 'a', 'a'] } }),
  c('Applier', 'applier-set-numbers', applier({ numbers: [1, 1, 1.5, 1.5, -2] })),
  c('Applier', 'applier-set-flags', applier({ flags: [true, false, true] })),
  c('Applier', 'applier-set-null', applier({ numbers: [1, null, 2] })),
  c('Applier', 'applier-set-map', applier({ numbers: [{ a: 1 }] })),
  c('Applier', 'applier-set-list', applier({ numbers: [[1]] })),
  c('Applier', 'applier-set-atomic-maps', applier({ atomicMaps: [{ a: 'x' }] })),
  c('Applier', 'applier-set-of-lists', applier({ lists: [['a']] })),
  c('Applier', 'applier-set-wrong-item', applier({ numbers: ['x', 'x'] })),
  c('Widget', 'widget-set-strings', { spec: { tags: ['é', 'é', 'a\tb', 'a\tb'] } }),
  // List-maps: keys, duplicates, missing keys, defaults.
  c('KubeadmConfigTemplate', 'kct-args-duplicate', kctArgs([{ name: 'a', value: 'b' }, { name: 'a', value: 'b' }])),
  c('KubeadmConfigTemplate', 'kct-args-partial-key', kctArgs([{ name: 'a' }, { name: 'a' }])),
  c('KubeadmConfigTemplate', 'kct-args-no-key', kctArgs([{ name: 'a', value: 'b' }, {}])),
  c('KubeadmConfigTemplate', 'kct-args-null', kctArgs([null])),
  c('KubeadmConfigTemplate', 'kct-args-scalar', kctArgs(['a'])),
  c('KubeadmConfigTemplate', 'kct-args-key-type', kctArgs([{ name: 5, value: 'x' }])),
  c('KubeadmConfigTemplate', 'kct-args-key-null', kctArgs([{ name: null, value: 'x' }, { name: null, value: 'x' }])),
  c('KubeadmConfigTemplate', 'kct-args-key-list', kctArgs([{ name: ['a', 1], value: true }])),
  c('KubeadmConfigTemplate', 'kct-args-inner', kctArgs([{ name: 'a', value: 'b', extra: 1 }])),
  c('Widget', 'widget-ports-duplicate', { spec: { ports: [{ name: 'a' }, { name: 'a', port: 1 }] } }),
  c('Widget', 'widget-endpoints-defaulted-key', { spec: { endpoints: [{ path: 'x' }, { host: 'h' }, { host: 'h', port: 443 }] } }),
  c('Applier', 'applier-pairs-duplicate', applier({ pairs: [{ a: 'x', b: 1 }, { a: 'x', b: 1, v: 'y' }] })),
  c('Applier', 'applier-pairs-partial', applier({ pairs: [{ a: 'x' }] })),
  c('Applier', 'applier-pairs-float-key', applier({ pairs: [{ a: 'x', b: 1.5 }, { a: 'x', b: 1.5 }] })),
  c('Applier', 'applier-pairs-map-key', applier({ pairs: [{ a: { x: 1 }, b: [true, null] }, { b: [true, null], a: { x: 1 } }] })),
  c('Applier', 'applier-defaulted-key', applier({ defaulted: [{ v: 1 }, { v: 2 }] })),
  c('Applier', 'applier-atomic-list', applier({ atomicList: [{ name: 'a' }, { name: 'a' }] })),
  c('Cluster', 'cluster-gates-duplicate', { spec: { availabilityGates: [{ conditionType: 'A' }, { conditionType: 'A' }] } }),
  // Embedded resources: apiVersion, kind and metadata typed, even under preserve-unknown-fields.
  c('Applier', 'applier-embedded-metadata', applier({ embeddedList: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', foo: 1 }, data: { a: 1 } }] })),
  c('Applier', 'applier-embedded-kind', applier({ embeddedList: [{ apiVersion: 'v1', kind: 5 }] })),
  c('Applier', 'applier-embedded-strict', applier({ embeddedStrict: { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, other: 1 } })),
  c('Applier', 'applier-embedded-data', applier({ embeddedStrict: { data: { a: 1 } } })),
  c('Widget', 'widget-embedded-labels', { spec: { embedded: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { labels: { a: 1 } }, data: { x: 1 } } } }),
  // Metadata as ObjectMeta.
  c('Cluster', 'meta-unknown', { metadata: { foo: 1 }, spec: {} }),
  c('Cluster', 'meta-labels-string', { metadata: { labels: 'x' }, spec: {} }),
  c('Cluster', 'meta-label-number', { metadata: { labels: { app: 1 } }, spec: {} }),
  c('Cluster', 'meta-annotation-bool', { metadata: { annotations: { a: true } }, spec: {} }),
  c('Cluster', 'meta-finalizers-duplicate', { metadata: { finalizers: ['a', 'a'] }, spec: {} }),
  c('Cluster', 'meta-finalizers-string', { metadata: { finalizers: 'a' }, spec: {} }),
  c('Cluster', 'meta-owners-duplicate', { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'A', name: 'a', uid: 'u' }, { apiVersion: 'v1', kind: 'B', name: 'b', uid: 'u' }] }, spec: {} }),
  c('Cluster', 'meta-owners-no-uid', { metadata: { ownerReferences: [{ name: 'a' }, { name: 'b' }] }, spec: {} }),
  c('Cluster', 'meta-owner-unknown', { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'A', name: 'a', uid: 'u', extra: 1 }] }, spec: {} }),
  c('Cluster', 'meta-generation-string', { metadata: { generation: 'x' }, spec: {} }),
  c('Cluster', 'meta-timestamp-map', { metadata: { creationTimestamp: {} }, spec: {} }),
  c('Cluster', 'meta-namespace-number', { metadata: { namespace: 5 }, spec: { paused: 'x' } }),
  c('Cluster', 'meta-no-namespace', { metadata: { namespace: undefined }, spec: { paused: 'x' } }),
  c('Cluster', 'meta-string', { metadata: 'x', spec: {} }),
  c('Widget', 'meta-label-null', { metadata: { labels: { a: null }, annotations: null }, spec: {} }),
  c('Widget', 'meta-timestamps', { metadata: { creationTimestamp: 5, deletionTimestamp: 'yesterday' }, spec: {} }),
  // Updates: an apply over an object applied before.
  c('Ruler', 'ruler-apply-scale-down', { spec: { replicas: 1 } }, { spec: { replicas: 5 } }),
  c('Ruler', 'ruler-apply-typed', { spec: { replicas: 'x' } }, { spec: { replicas: 5 } }),
  c('Widget', 'widget-apply-duplicate', { spec: { tags: ['a', 'a'] } }, { spec: { tags: ['a'] } }),
  c('Widget', 'widget-apply-fine', { spec: { replicas: 3 } }, { spec: { replicas: 2 } })
]

/** A step from a value into a child: a field of an object, or the first item of a list (whose schema it carries). */
type Step = { key: string } | { list: JSONSchemaProps }

/** A place in a CRD's objects where the generator puts a value: the steps there and the schema of the value. */
interface Site { steps: Step[], schema: JSONSchemaProps }

const MAX_DEPTH = 14

/** Every site of a schema, depth first (the root's apiVersion, kind and metadata are the metadata mutations' own). */
function sitesOf (schema: JSONSchemaProps): Site[] {
  const out: Site[] = []
  const visit = (s: JSONSchemaProps, steps: Step[]): void => {
    if (steps.length > MAX_DEPTH) return
    for (const [k, v] of Object.entries(s.properties ?? {})) {
      if (steps.length === 0 && ['apiVersion', 'kind', 'metadata'].includes(k)) continue
      out.push({ steps: [...steps, { key: k }], schema: v })
      visit(v, [...steps, { key: k }])
    }
    if (typeof s.additionalProperties === 'object') {
      out.push({ steps: [...steps, { key: 'k1' }], schema: s.additionalProperties })
      visit(s.additionalProperties, [...steps, { key: 'k1' }])
    }
    if (s.items !== undefined && !Array.isArray(s.items)) {
      out.push({ steps: [...steps, { list: s }], schema: s.items })
      visit(s.items, [...steps, { list: s }])
    }
  }
  visit(schema, [])
  return out
}

/** A value of the schema's type. */
function fitting (s: JSONSchemaProps, n = 1): unknown {
  switch (s.type) {
    case 'integer': return n
    case 'number': return n + 0.5
    case 'boolean': return n % 2 === 1
    case 'object': return {}
    case 'array': return []
    case 'string': return s.format === 'date-time' ? '2024-01-01T00:00:00Z' : s.format === 'byte' ? 'eA==' : `v${n}`
    default: return `v${n}`
  }
}

/** An item of a list: keyed by fitting values of its list-map keys (the n-th such key). */
function stubItem (list: JSONSchemaProps, n = 1): unknown {
  const items = list.items as JSONSchemaProps
  if (list['x-kubernetes-list-type'] !== 'map') return fitting(items, n)
  return Object.fromEntries((list['x-kubernetes-list-map-keys'] ?? []).map(k => [k, fitting(items.properties?.[k] ?? {}, n)]))
}

const isContainer = (v: unknown, step: Step): boolean => 'key' in step ? isRecord(v) : Array.isArray(v) && v.length > 0

/** Puts value at the site's steps in target, making (or replacing) the containers on the way. */
function setAt (target: Record<string, unknown>, steps: readonly Step[], value: unknown): void {
  let parent: Record<string, unknown> | unknown[] = target
  steps.forEach((step, i) => {
    const slot = 'key' in step ? step.key : 0
    const write = (v: unknown) => { (parent as Record<string | number, unknown>)[slot] = v }
    if (i === steps.length - 1) { write(value); return }
    const next = steps[i + 1] as Step
    const current = (parent as Record<string | number, unknown>)[slot]
    if (!isContainer(current, next)) write('key' in next ? {} : [stubItem(next.list)])
    parent = (parent as Record<string | number, unknown>)[slot] as Record<string, unknown> | unknown[]
  })
}

const OTHER_VALUES: readonly unknown[] = ['x', 'a b', 7, -1, 2.5, 1e21, true, false, { a: 1 }, {}, ['x', 2], []]

function kindOf (v: unknown): string {
  if (Array.isArray(v)) return 'array'
  if (isRecord(v)) return 'object'
  return typeof v === 'number' ? 'number' : typeof v
}

/** The kinds of value a schema's type takes (any, for none). */
function takes (s: JSONSchemaProps): string[] {
  switch (s.type) {
    case 'integer': case 'number': return ['number']
    case 'string': case 'boolean': case 'object': case 'array': return [s.type]
    default: return []
  }
}

const METADATA: ReadonlyArray<Record<string, unknown>> = [
  { foo: 1 }, { labels: 'x' }, { labels: { app: 1 } }, { labels: { app: 'web' } }, { annotations: { note: true } }, { annotations: ['a'] },
  { finalizers: ['a', 'a'] }, { finalizers: ['a', 'b'] }, { finalizers: [null] }, { finalizers: 'a' }, { generation: 'x' }, { generation: 2 },
  { creationTimestamp: { a: 1 } }, { deletionGracePeriodSeconds: true }, { uid: 5 }, { resourceVersion: ['1'] },
  { ownerReferences: [{ apiVersion: 'v1', kind: 'A', name: 'a', uid: 'u' }, { apiVersion: 'v1', kind: 'A', name: 'a', uid: 'u' }] },
  { ownerReferences: [{ name: 'a' }, { name: 'b' }] }, { ownerReferences: [{ uid: 'u', controller: 'yes' }] }, { ownerReferences: ['u'] },
  { ownerReferences: [{ uid: 'u', zzz: 1 }] }, { labels: { app: null } }, { generateName: 7 }
]

type Mutation = (r: () => number, sites: readonly Site[], body: Record<string, unknown>) => void

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T
const letters = (r: () => number): string => Array.from({ length: 3 }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join('')

const objectSites = (sites: readonly Site[]) => sites.filter(s => s.schema.type === 'object')
const listSites = (sites: readonly Site[], type: string) => sites.filter(s => s.schema.type === 'array' && s.schema['x-kubernetes-list-type'] === type)

/** The mutations, by weight: undeclared fields, wrong types, nulls, list-map and set items, metadata, fitting values. */
const MUTATIONS: ReadonlyArray<readonly [number, Mutation]> = [
  [30, (r, sites, body) => {
    const site = pick(r, [{ steps: [], schema: {} }, ...objectSites(sites)])
    const fields = r() < 0.2 ? 2 : 1
    for (let i = 0; i < fields; i++) setAt(body, [...site.steps, { key: `notDeclared${letters(r)}` }], pick(r, OTHER_VALUES))
  }],
  [30, (r, sites, body) => {
    const site = pick(r, sites)
    const kinds = takes(site.schema)
    setAt(body, site.steps, pick(r, OTHER_VALUES.filter(v => !kinds.includes(kindOf(v)))))
  }],
  [8, (r, sites, body) => { setAt(body, pick(r, sites).steps, null) }],
  [10, (r, sites, body) => { listMapMutation(r, listSites(sites, 'map'), body) }],
  [6, (r, sites, body) => { setMutation(r, listSites(sites, 'set'), body) }],
  [10, (r, _sites, body) => { body.metadata = { ...(isRecord(body.metadata) ? body.metadata : {}), ...pick(r, METADATA) } }],
  [6, (r, sites, body) => { const site = pick(r, sites); setAt(body, site.steps, fitting(site.schema, 2)) }]
]

function listMapMutation (r: () => number, sites: readonly Site[], body: Record<string, unknown>): void {
  if (sites.length === 0) return
  const site = pick(r, sites)
  const keys = site.schema['x-kubernetes-list-map-keys'] ?? []
  const stub = stubItem(site.schema) as Record<string, unknown>
  const without = (k: string | undefined) => Object.fromEntries(Object.entries(stub).filter(([x]) => x !== k))
  const variants: unknown[][] = [
    [stub, stub], [stub, stubItem(site.schema, 2), stub], [{}], [stub, null], ['x'], [[stub]],
    [{ ...stub, [keys[0] ?? 'name']: pick(r, [5, ['a'], { a: 1 }, true, null]) }],
    [without(keys[1]), without(keys[1])], [{ ...stub, notDeclared: 1 }]
  ]
  setAt(body, site.steps, pick(r, variants))
}

function setMutation (r: () => number, sites: readonly Site[], body: Record<string, unknown>): void {
  if (sites.length === 0) return
  const site = pick(r, sites)
  const a = stubItem(site.schema, 1)
  const variants: unknown[][] = [[a, a], [a, stubItem(site.schema, 2), a], [a, null], [{ a: 1 }], [[a]], [a, stubItem(site.schema, 2)]]
  setAt(body, site.steps, pick(r, variants))
}

/** Objects mutated from the seed: perCRD of each CRD, each with one to three mutations. */
export function generatedCases (seed: number, perCRD: number): ApplyCase[] {
  const r = mulberry32(seed)
  const total = MUTATIONS.reduce((n, [w]) => n + w, 0)
  const out: ApplyCase[] = []
  for (const crd of APPLY_CRDS) {
    const sites = sitesOf(crd.schema)
    for (let i = 0; i < perCRD; i++) {
      const body: Record<string, unknown> = { spec: {} }
      const count = r() < 0.6 ? 1 : r() < 0.75 ? 2 : 3
      for (let m = 0; m < count; m++) {
        let roll = r() * total
        const mutation = MUTATIONS.find(([w]) => (roll -= w) < 0) ?? MUTATIONS[0] as readonly [number, Mutation]
        mutation[1](r, sites, body)
      }
      out.push({ name: `gen-${crd.plural}-${seed}-${i}`, crd, body })
    }
  }
  return out
}
