// The type server-side apply checks an applied object against: the structured-merge-diff schema kube-apiserver builds
// from a CRD version's structural schema (apiextensions' OpenAPI builder, then kube-openapi's schemaconv). What
// decides it:
// - `type` alone picks the kind: object is a map, array a list, integer and number are numeric, boolean is boolean;
//   a string is a string only without a format (or with `byte`), any other format makes it an untyped scalar; a node
//   without a type (int-or-string, preserve-unknown-fields) takes any value.
// - An object's undeclared fields are refused when it has properties and no additionalProperties; without properties,
//   with `additionalProperties: true`, or at or below x-kubernetes-preserve-unknown-fields they take any value.
// - The resource and every embedded resource get apiVersion and kind (strings) and metadata (ObjectMeta, below).
// - x-kubernetes-list-type `set` and `map` make a list associative (keys, and a key field's default); `atomic`, none,
//   and x-kubernetes-map-type change nothing here (they matter when merging).
import type { Structural } from './schema.js'

/** A scalar kind of structured-merge-diff. */
type SmdScalar = 'string' | 'numeric' | 'boolean' | 'untyped'

/** A field of a map type, with its default (a list-map key field missing from an item takes it). */
interface SmdField { readonly type: SmdAtom, readonly default?: unknown }

export interface SmdMap {
  readonly fields: ReadonlyMap<string, SmdField>
  /** elementType is the type of undeclared fields; none means they are refused. */
  readonly elementType?: SmdAtom
}

export interface SmdList {
  /** associative is true for x-kubernetes-list-type set and map. */
  readonly associative: boolean
  /** keys are the list-map keys (none for a set). */
  readonly keys: readonly string[]
  readonly elementType: SmdAtom
}

/** A structured-merge-diff type: what a value may be, one or several of a scalar, a list and a map. */
export interface SmdAtom {
  readonly scalar?: SmdScalar
  readonly list?: SmdList
  readonly map?: SmdMap
}

const NO_FIELDS: ReadonlyMap<string, SmdField> = new Map()

/** The deduced type (`__untyped_deduced_`) and the untyped one: any scalar, a list or a map of them, at any depth. */
export const ANY: SmdAtom = (() => {
  const any: { scalar: SmdScalar, list?: SmdList, map?: SmdMap } = { scalar: 'untyped' }
  any.list = { associative: false, keys: [], elementType: any }
  any.map = { fields: NO_FIELDS, elementType: any }
  return any
})()

const field = (type: SmdAtom, fallback?: unknown): SmdField => fallback === undefined ? { type } : { type, default: fallback }
const STRING = { scalar: 'string' } as const
const NUMERIC = { scalar: 'numeric' } as const
const BOOLEAN = { scalar: 'boolean' } as const
/** metav1.Time: a string with format date-time, so an untyped scalar. */
const TIME = { scalar: 'untyped' } as const
const stringMap: SmdAtom = { map: { fields: NO_FIELDS, elementType: STRING } }

const OWNER_REFERENCE: SmdAtom = {
  map: {
    fields: new Map([
      ['apiVersion', field(STRING, '')], ['kind', field(STRING, '')], ['name', field(STRING, '')], ['uid', field(STRING, '')],
      ['controller', field(BOOLEAN)], ['blockOwnerDeletion', field(BOOLEAN)]
    ])
  }
}

const MANAGED_FIELDS_ENTRY: SmdAtom = {
  map: {
    fields: new Map([
      ...['manager', 'operation', 'apiVersion', 'fieldsType', 'subresource'].map(k => [k, field(STRING)] as const),
      ['time', field(TIME)], ['fieldsV1', field(ANY)]
    ])
  }
}

/** metav1.ObjectMeta as the API server's built-in OpenAPI describes it. */
const OBJECT_META: SmdAtom = {
  map: {
    fields: new Map([
      ...['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion'].map(k => [k, field(STRING)] as const),
      ['generation', field(NUMERIC)], ['deletionGracePeriodSeconds', field(NUMERIC)],
      ['creationTimestamp', field(TIME)], ['deletionTimestamp', field(TIME)],
      ['labels', field(stringMap)], ['annotations', field(stringMap)],
      ['ownerReferences', field({ list: { associative: true, keys: ['uid'], elementType: OWNER_REFERENCE } })],
      ['finalizers', field({ list: { associative: true, keys: [], elementType: STRING } })],
      ['managedFields', field({ list: { associative: false, keys: [], elementType: MANAGED_FIELDS_ENTRY } })]
    ])
  }
}

/** The fields apiextensions adds to the resource and to each embedded resource. */
const KUBE_FIELDS: ReadonlyArray<readonly [string, SmdField]> = [['apiVersion', field(STRING)], ['kind', field(STRING)], ['metadata', field(OBJECT_META)]]

function scalarOf (s: Structural): SmdScalar {
  switch (s.type) {
    case 'integer': case 'number': return 'numeric'
    case 'boolean': return 'boolean'
    default: return s.format === '' || s.format === 'byte' ? 'string' : 'untyped'
  }
}

/** A key field's default as the list-map code sees it: the default as written (null is none). */
const defaultOf = (s: Structural): unknown => s.props.default === null ? undefined : s.props.default

function mapOf (s: Structural, preserve: boolean, kube: boolean): SmdMap {
  const fields = new Map<string, SmdField>()
  for (const [k, v] of s.properties ?? []) fields.set(k, field(atomOf(v, preserve, false), defaultOf(v)))
  if (kube) for (const [k, f] of KUBE_FIELDS) fields.set(k, f)
  const ap = s.additionalProperties
  if (ap?.schema) return { fields, elementType: atomOf(ap.schema, preserve, false) }
  if (ap !== undefined) return ap.allows ? { fields, elementType: ANY } : { fields }
  return preserve || fields.size === 0 ? { fields, elementType: ANY } : { fields }
}

function listOf (s: Structural, preserve: boolean): SmdList {
  const elementType = s.items ? atomOf(s.items, preserve, false) : ANY
  if (s.listType === 'set') return { associative: true, keys: [], elementType }
  if (s.listType === 'map') return { associative: true, keys: s.listMapKeys ?? [], elementType }
  return { associative: false, keys: [], elementType }
}

/** The type of a structural node; preserve says an ancestor (or the node) preserves unknown fields. */
function atomOf (s: Structural, inherited: boolean, root: boolean): SmdAtom {
  const preserve = inherited || s.preserveUnknownFields
  const kube = root || s.embeddedResource
  switch (s.type) {
    case 'object': return { map: mapOf(s, preserve, kube) }
    case 'array': return { list: listOf(s, preserve) }
    case '': return { scalar: 'untyped', list: listOf(s, preserve), map: mapOf(s, preserve, kube) }
    default: return { scalar: scalarOf(s) }
  }
}

const cache = new WeakMap<Structural, SmdAtom>()

/** The type of a whole resource whose CRD version has the structural schema s (built once per schema). */
export function resourceType (s: Structural): SmdAtom {
  let atom = cache.get(s)
  if (atom === undefined) {
    atom = atomOf(s, false, true)
    cache.set(s, atom)
  }
  return atom
}
