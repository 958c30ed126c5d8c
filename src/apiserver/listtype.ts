// The x-kubernetes-list-type invariants the API server checks after OpenAPI validation: items of a `set` are unique
// and items of a `map` are objects with unique key fields (ValidateListSetsAndMaps), reported as Duplicate value on
// the second occurrence.
import { type FieldError, type FieldPath, childPath, duplicate, indexPath, invalid, keyPath } from './field-error.js'
import { goJson } from './go-format.js'
import type { Structural } from './schema.js'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A key that tells values apart as Go's map of interface{} (scalars) or their JSON (objects and lists) does. */
function identity (x: unknown): string {
  if (isRecord(x) || Array.isArray(x)) return 'c' + goJson(x)
  if (x === undefined) return 'u'
  // int64 and float64 differ in Go; an integral JavaScript number stands for an int64.
  return 's' + typeof x + ':' + String(x)
}

/** The indexes of the second occurrence of each repeated value. */
function repeated (items: unknown[]): number[] {
  if (items.length <= 1) return []
  const seen = new Map<string, number>()
  const out: number[] = []
  items.forEach((x, i) => {
    const id = identity(x)
    const times = seen.get(id) ?? 0
    seen.set(id, times + 1)
    if (times === 1) out.push(i)
  })
  return out
}

function listMap (path: string, s: Structural, items: unknown[]): FieldError[] {
  for (let i = 0; i < items.length; i++) {
    const x = items[i]
    if (x !== null && !isRecord(x)) return [invalid(indexPath(path, i), x, 'must be an object for an array of list-type map')]
  }
  if (items.length <= 1) return []
  const keys = s.listMapKeys ?? []
  if (keys.length === 1) {
    const k = keys[0] as string
    const values = items.map(x => isRecord(x) && Object.hasOwn(x, k) ? x[k] : undefined)
    return repeated(values).map(i => duplicate(indexPath(path, i), values[i] === undefined ? {} : { [k]: values[i] }))
  }
  const composite = items.map((x) => {
    const key: Record<string, unknown> = {}
    if (isRecord(x)) for (const k of keys) if (Object.hasOwn(x, k)) key[k] = x[k]
    return key
  })
  return repeated(composite).map(i => duplicate(indexPath(path, i), composite[i]))
}

function check (path: string, s: Structural, x: unknown): FieldError[] {
  if (Array.isArray(x)) {
    const errs: FieldError[] = []
    if (s.listType === 'set') errs.push(...repeated(x).map(i => duplicate(indexPath(path, i), x[i])))
    else if (s.listType === 'map') errs.push(...listMap(path, s, x))
    if (s.items) x.forEach((v, i) => errs.push(...check(indexPath(path, i), s.items as Structural, v)))
    return errs
  }
  if (isRecord(x)) return validateListTypes(path, s, x)
  return []
}

/** ValidateListSetsAndMaps over an object and its schema; path is where the object sits (undefined for the root). */
export function validateListTypes (path: FieldPath, s: Structural, obj: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = []
  if (s.additionalProperties?.schema) {
    for (const [k, v] of Object.entries(obj)) errs.push(...check(keyPath(path, k), s.additionalProperties.schema, v))
  }
  if (s.properties) {
    for (const [k, v] of Object.entries(obj)) {
      const sub = s.properties.get(k)
      if (sub) errs.push(...check(childPath(path, k), sub, v))
    }
  }
  return errs
}
