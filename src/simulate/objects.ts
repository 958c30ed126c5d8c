// Small helpers over Kubernetes objects as plain JSON: typed access to nested fields as unstructured.Unstructured
// gives it (by key path or JSON Pointer), the fields two values differ in, and how objects are named in messages.
import type { Stored, Unstructured } from '../api/kube-object.js'
import { createJsonPatch } from '../topology/json-patch.js'
import { isJsonObject, jsonCopy } from '../topology/json.js'

export { jsonCopy }
export type { Stored, Unstructured }

/** A JSON object. */
export type JsonObject = Record<string, unknown>

/** A map of labels or annotations. */
export type StringMap = Record<string, string>

/** Whether a value is a JSON object (not null, not a list). */
export const isObject: (value: unknown) => value is JsonObject = isJsonObject

/** The value at a path of object keys, undefined when a step is missing or not an object. */
export function getPath (object: unknown, path: readonly string[]): unknown {
  let at: unknown = object
  for (const key of path) {
    if (!isObject(at)) return undefined
    at = at[key]
  }
  return at
}

/** The value a JSON Pointer (RFC 6901) names, undefined when a step is missing: `/spec/files/0`, `/metadata/labels/a~1b`. */
export function getPointer (value: unknown, pointer: string): unknown {
  let at = value
  for (const token of pointer.split('/').slice(1)) at = (at as Record<string, unknown> | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')]
  return at
}

/** One field that differs between two values: its JSON Pointer, its value before (unless added) and after (unless removed). */
export interface ChangedField {
  /** path of the field, as a JSON Pointer. */
  path: string
  /** before is the first value's (absent when the field is added). */
  before?: unknown
  /** after is the second value's (absent when the field is removed). */
  after?: unknown
}

/** The JSON Patch turning one value into another, as changed fields with their values before and after. */
export function changedFields (before: unknown, after: unknown): ChangedField[] {
  return createJsonPatch(before, after).map(op => ({ path: op.path, ...(op.op !== 'add' ? { before: getPointer(before, op.path) } : {}), ...('value' in op ? { after: op.value } : {}) }))
}

/** Sets the value at a path of object keys, making the objects on the way (unstructured.SetNestedField). */
export function setPath (object: JsonObject, path: readonly string[], value: unknown): void {
  let at = object
  for (const key of path.slice(0, -1)) {
    if (!isObject(at[key])) at[key] = {}
    at = at[key] as JsonObject
  }
  at[path[path.length - 1] as string] = value
}

/** unstructured's SetLabels/SetAnnotations: undefined removes the field, a map (even empty) sets it. */
export function setMetadataMap (object: Unstructured, key: 'labels' | 'annotations', value: StringMap | undefined): void {
  if (value === undefined) {
    if (object.metadata) delete object.metadata[key]
    return
  }
  object.metadata = { ...object.metadata, [key]: value }
}

/** util.MergeMap: the first map wins on conflicts; undefined when all are empty. */
export function mergeMaps (...maps: Array<StringMap | undefined>): StringMap | undefined {
  const out: StringMap = {}
  for (const map of [...maps].reverse()) Object.assign(out, map)
  return Object.keys(out).length > 0 ? out : undefined
}

/** A copy of a map without some keys. */
export function withoutKeys (map: StringMap | undefined, keys: readonly string[]): StringMap | undefined {
  if (map === undefined) return undefined
  const out = { ...map }
  for (const key of keys) delete out[key]
  return out
}

/**
 * `Kind namespace/name`, how messages and reports name an object (Cluster API's tlog.KObj: the kind, then klog.KObj,
 * `name` alone without a namespace); `namespace: false` leaves the namespace out (`Kind name`, as rollout-impact names
 * the templates of one Cluster).
 */
export function describeObject (object: Unstructured | undefined, options: { namespace?: boolean } = {}): string {
  const name = [options.namespace === false ? undefined : object?.metadata?.namespace, object?.metadata?.name].filter(Boolean).join('/')
  return `${object?.kind ?? 'object'}${name ? ` ${name}` : ''}`
}

/** The group of an apiVersion (`group/version`; '' for the core group). */
export function groupOf (apiVersion: string): string {
  const slash = apiVersion.indexOf('/')
  return slash < 0 ? '' : apiVersion.slice(0, slash)
}
