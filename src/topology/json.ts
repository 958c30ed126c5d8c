// JSON values compared as JSON: the patches are computed between a template as parsed from the request and a copy
// of it, where unchanged subtrees are equal but never the same object, so equality must be cheap to ask everywhere.

/** Whether two JSON values are equal (objects key by key, in any order; lists in order). */
export function jsonEqual (a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false
    return true
  }
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false
  }
  return true
}

/** A deep copy of a JSON value (several times faster than structuredClone on parsed JSON). */
export function jsonCopy<T> (value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value)) as T
}
