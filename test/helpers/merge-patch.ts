// RFC 7386's apply, for tests: what Cluster API's patch engine does with a JSONMergePatch (evanphx/json-patch's
// MergePatch), with every object built from its entries so that a key named __proto__ stays a key.
type Json = unknown

function isObject (value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function applyMergePatch (target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch
  const merged = new Map(Object.entries(isObject(target) ? target : {}))
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) merged.delete(key)
    else merged.set(key, applyMergePatch(merged.get(key), value))
  }
  return Object.fromEntries(merged)
}
