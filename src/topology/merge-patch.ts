// RFC 7386 merge patches, made and applied here rather than by a library: json-merge-patch (and others) build and
// apply them with `object[key] = ...`, which for a key named `__proto__` (a plain key in JSON) sets the object's
// prototype and drops the change. This builds every object from its entries, so each key is an own property.
import { isJsonObject as isObject, jsonEqual } from './json.js'

/** The RFC 7386 merge patch that turns `before` into `after`; undefined when they are equal. */
export function createMergePatch (before: unknown, after: unknown): unknown {
  if (!isObject(before) || !isObject(after)) return jsonEqual(before, after) ? undefined : after
  const patch = new Map<string, unknown>()
  for (const [key, value] of Object.entries(after)) {
    const change = Object.hasOwn(before, key) ? createMergePatch(before[key], value) : value
    if (change !== undefined) patch.set(key, change)
  }
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) patch.set(key, null)
  return patch.size > 0 ? Object.fromEntries(patch) : undefined
}

/** `target` with an RFC 7386 merge patch applied, as a new value (`target` is left as it is); same reason as above. */
export function applyMergePatch (target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch
  const result = new Map(Object.entries(isObject(target) ? target : {}))
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) result.delete(key)
    else result.set(key, applyMergePatch(result.get(key), value))
  }
  return Object.fromEntries(result)
}
