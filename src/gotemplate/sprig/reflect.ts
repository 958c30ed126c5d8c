// The reflection-based helpers sprig's list, dict and default functions share: emptiness (sprig's empty), Go's
// reflect.DeepEqual, reflect.TypeOf(x).Kind() with its nil-interface panic, and a list's elements.
import { spend } from '../../budget/index.js'
import { GoCallError, GoInt, GoMap, GoObject, GoSlice, type GoValue, kindOf } from '../values.js'

/** sprig's empty: the zero value of its type (nil, "", 0, false, an empty list or map). */
export function empty (v: GoValue): boolean {
  if (v === null) return true
  switch (typeof v) {
    case 'string': return v.length === 0
    case 'boolean': return !v
    case 'number': return v === 0
  }
  if (v instanceof GoInt) return v.v === 0n
  if (v instanceof GoSlice) return (v.items?.length ?? 0) === 0
  if (v instanceof GoMap) return (v.entries?.size ?? 0) === 0
  return false
}

/** reflect.TypeOf(v).Kind(), panicking as Go does on a nil interface. */
export function kindOrPanic (v: GoValue): string {
  if (v === null) throw new GoCallError('runtime error: invalid memory address or nil pointer dereference')
  return kindOf(v)
}

/** The elements of a list argument, or undefined when it is not a list. */
export function listItems (v: GoValue): GoValue[] | undefined {
  if (kindOrPanic(v) !== 'slice') return undefined
  return (v as GoSlice).items ?? []
}

/** reflect.DeepEqual. */
export function deepEqual (a: GoValue, b: GoValue): boolean {
  spend()
  if (a === null || b === null) return a === b
  if (typeof a !== 'object' || typeof b !== 'object') return a === b
  if (a instanceof GoInt) return b instanceof GoInt && a.type === b.type && a.v === b.v
  if (a instanceof GoSlice) {
    if (!(b instanceof GoSlice) || a.type !== b.type) return false
    if ((a.items === null) !== (b.items === null)) return false
    const x = a.items ?? []
    const y = b.items ?? []
    return x.length === y.length && x.every((e, i) => deepEqual(e, y[i] as GoValue))
  }
  if (a instanceof GoMap) {
    if (!(b instanceof GoMap) || a.type !== b.type) return false
    if ((a.entries === null) !== (b.entries === null)) return false
    const x = a.entries ?? new Map()
    const y = b.entries ?? new Map()
    if (x.size !== y.size) return false
    for (const [k, v] of x) if (!y.has(k) || !deepEqual(v, y.get(k) as GoValue)) return false
    return true
  }
  if (a instanceof GoObject && b instanceof GoObject) return a.type === b.type && (a === b || a.toJSON() === b.toJSON())
  return false
}

/** copystructure.Copy of a value: a deep copy of lists and maps. */
export function deepCopy (v: GoValue): GoValue {
  if (v instanceof GoSlice) return new GoSlice(v.type, v.items === null ? null : v.items.map(deepCopy))
  if (v instanceof GoMap) return new GoMap(v.type, v.entries === null ? null : new Map([...v.entries].map(([k, x]) => [k, deepCopy(x)])))
  return v
}
