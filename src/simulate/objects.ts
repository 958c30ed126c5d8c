// Small helpers over Kubernetes objects as plain JSON: typed access to nested fields, and how objects are named in
// messages.
import type { ObjectMeta } from '../api/kube-object.js'
import { isJsonObject } from '../topology/json.js'

/** A Kubernetes object as read from a manifest: JSON with the usual type and object metadata. */
export interface KubeDocument {
  apiVersion?: string
  kind?: string
  metadata?: ObjectMeta
  [field: string]: unknown
}

/** A JSON object. */
export type JsonObject = Record<string, unknown>

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

/** Sets the value at a path of object keys, making the objects on the way (unstructured.SetNestedField). */
export function setPath (object: JsonObject, path: readonly string[], value: unknown): void {
  let at = object
  for (const key of path.slice(0, -1)) {
    if (!isObject(at[key])) at[key] = {}
    at = at[key] as JsonObject
  }
  at[path[path.length - 1] as string] = value
}

/** `Kind namespace/name`, how messages name an object. */
export function describeObject (object: KubeDocument | undefined): string {
  const name = [object?.metadata?.namespace, object?.metadata?.name].filter(Boolean).join('/')
  return `${object?.kind ?? 'object'}${name ? ` ${name}` : ''}`
}

/** A deep copy through JSON, as Go's marshalling would give it. */
export function jsonCopy<T> (value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value)) as T
}

/** `group/version` of an apiVersion, split. */
export function groupOf (apiVersion: string): string {
  const slash = apiVersion.indexOf('/')
  return slash < 0 ? '' : apiVersion.slice(0, slash)
}
