// RFC 6902 patches made by walking the two values side by side, writing a path only where they differ. rfc6902's
// createPatch builds a pointer object for every node it visits and runs an edit-distance diff on every list: on a
// GeneratePatches request it cost several times what the mutate functions did. Lists of the same length are
// compared element by element; a list that grew or shrank has its common part compared and its tail added or removed,
// which always gives the mutated list (not always the shortest patch, as a list is rarely reordered by a mutation).
// The mutated side is read as JSON.stringify would write it (undefined fields left out, toJSON called), without
// first copying it through JSON text.
import { isJsonObject as isObject, jsonEqual } from './json.js'

/** One RFC 6902 operation of the patches walkTemplates answers. */
export type JsonPatchOperation = {
  /** op adds or replaces the value at path. */
  op: 'add' | 'replace'
  /** path is a JSON Pointer (RFC 6901), e.g. /spec/template/spec/files/0. */
  path: string
  /** value is the new value. */
  value: unknown
} | {
  /** op removes the value at path. */
  op: 'remove'
  /** path is a JSON Pointer (RFC 6901). */
  path: string
}

/** A JSON Pointer reference token: `~` and `/` escaped (RFC 6901). */
function escapeToken (token: string): string {
  return token.includes('~') || token.includes('/') ? token.replace(/~/g, '~0').replace(/\//g, '~1') : token
}

/** A value as JSON.stringify writes it: plain JSON as it is, undefined where it would be left out, anything else through JSON text. */
function asJson (value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      return Number.isFinite(value) ? value : null
    case 'object':
      if (value === null || Array.isArray(value)) return value
      if (Object.getPrototypeOf(value) === Object.prototype && typeof (value as { toJSON?: unknown }).toJSON !== 'function') return value
      return JSON.parse(JSON.stringify(value) ?? 'null')
    default:
      return undefined
  }
}

/**
 * The RFC 6902 operations that turn `before` (a JSON value) into `after` (a value as JSON.stringify writes it); none
 * when they are equal. The operations' values are `after`'s own: serialize the patch with JSON.stringify.
 */
export function createJsonPatch (before: unknown, after: unknown): JsonPatchOperation[] {
  const operations: JsonPatchOperation[] = []
  // The keys from the root, escaped only when a path is written (most of a template is equal on both sides).
  const keys: string[] = []
  const pointer = (last?: string) => {
    let path = ''
    for (const key of keys) path += `/${escapeToken(key)}`
    return last === undefined ? path : `${path}/${escapeToken(last)}`
  }
  const diff = (a: unknown, raw: unknown): void => {
    if (a === raw) return
    const b = asJson(raw)
    if (isObject(a) && isObject(b)) {
      // for...in rather than Object.keys: no list of keys made per object (parsed JSON has no inherited fields).
      for (const key in a) {
        const child = Object.hasOwn(b, key) ? b[key] : undefined
        if (child === undefined || asJson(child) === undefined) {
          operations.push({ op: 'remove', path: pointer(key) })
          continue
        }
        keys.push(key)
        diff(a[key], child)
        keys.pop()
      }
      for (const key in b) {
        if (Object.hasOwn(b, key) && !Object.hasOwn(a, key) && asJson(b[key]) !== undefined) operations.push({ op: 'add', path: pointer(key), value: b[key] })
      }
      return
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const common = Math.min(a.length, b.length)
      for (let i = 0; i < common; i++) {
        keys.push(String(i))
        diff(a[i], b[i])
        keys.pop()
      }
      for (let i = common; i < b.length; i++) operations.push({ op: 'add', path: pointer(String(i)), value: b[i] ?? null })
      // From the end, so that each index is still where it was.
      for (let i = a.length - 1; i >= common; i--) operations.push({ op: 'remove', path: pointer(String(i)) })
      return
    }
    // A list element JSON.stringify leaves out is written as null.
    if (b === undefined && keys.length > 0) {
      if (a !== null) operations.push({ op: 'replace', path: pointer(), value: null })
      return
    }
    if (!jsonEqual(a, JSON.parse(JSON.stringify(b) ?? 'null'))) operations.push({ op: 'replace', path: pointer(), value: b })
  }
  diff(before, after)
  return operations
}
