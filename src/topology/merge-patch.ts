// RFC 7386 merge patches, made here rather than by a library: json-merge-patch (and others) build the patch with
// `patch[key] = ...`, which for a key named `__proto__` (a plain key in JSON) sets the patch object's prototype and
// drops the change. This builds every object from its entries, so each key is an own property.
import { jsonEqual } from './json.js'

function isObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

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
