// List functions of the 1.36 environment: cel-go's lists extension (version 3: slice, flatten, sort, sortBy,
// lists.range, reverse, distinct), its sets extension (sets.contains, sets.equivalent, sets.intersects), Kubernetes'
// list library (isSorted, sum, min, max, indexOf, lastIndexOf) and Kubernetes' regex library (find, findAll).
import { spend } from '../../budget/index.js'
import { compile, type Regexp } from '../../go/index.js'
import type { FunctionDef, Impl } from './stdlib.js'
import { CelDuration, CelError, CelList, CelMap, CelUint, isMapKey, checkedInt, checkedUint, compare, equals, noSuchOverload, typeName, type Val } from './values.js'
import { inOperator, keyString } from './access.js'

const m = (impl: Impl): FunctionDef => ({ member: impl })

const COMPARABLE = new Set(['int', 'uint', 'double', 'bool', 'google.protobuf.Duration', 'google.protobuf.Timestamp', 'string', 'bytes'])
const SUMMABLE = new Set(['int', 'uint', 'double', 'google.protobuf.Duration'])

/**
 * The list receiver of a function declared per element type (`list(int).sum()`…): at run time cel-go picks the
 * overload by the list's first element, so a list whose first element has none of the types has no overload.
 */
function listArg (fn: string, args: Val[], extra: number, elementTypes?: ReadonlySet<string>): CelList | CelError {
  const l = args[0]
  if (!(l instanceof CelList) || args.length !== 1 + extra) return noSuchOverload(fn, ...args)
  const first = l.items[0]
  if (elementTypes && first !== undefined && !elementTypes.has(typeName(first))) return noSuchOverload(fn, ...args)
  return l
}

/** Kubernetes' isSorted: a pair that does not compare (types differ, NaN) counts as ordered. */
function isSorted (args: Val[]): Val {
  const l = listArg('isSorted', args, 0, COMPARABLE)
  if (l instanceof CelError) return l
  for (let i = 0; i < l.items.length; i++) {
    const x = l.items[i] as Val
    if (!COMPARABLE.has(typeName(x))) return new CelError('no such overload')
    if (i > 0 && (compare(l.items[i - 1] as Val, x) ?? 0) > 0) return false
  }
  return true
}

function sum (args: Val[]): Val {
  const l = listArg('sum', args, 0, SUMMABLE)
  if (l instanceof CelError) return l
  let acc: Val | undefined
  for (const x of l.items) {
    if (acc === undefined) { acc = x; continue }
    if (typeof acc === 'bigint' && typeof x === 'bigint') acc = checkedInt(acc + x)
    else if (typeof acc === 'number' && typeof x === 'number') acc = acc + x
    else if (acc instanceof CelUint && x instanceof CelUint) acc = checkedUint(acc.value + x.value)
    else if (acc instanceof CelDuration && x instanceof CelDuration) { const r = checkedInt(acc.ns + x.ns); acc = r instanceof CelError ? r : new CelDuration(r) } else return new CelError('no such overload')
    if (acc instanceof CelError) return acc
  }
  // An empty list sums to the zero of its element type; without a static type here, that is int 0.
  return acc ?? 0n
}

/** Kubernetes' min and max: an element that does not compare with the best so far (types differ, NaN) is passed over. */
function extreme (name: 'min' | 'max'): Impl {
  return (args) => {
    const l = listArg(name, args, 0, COMPARABLE)
    if (l instanceof CelError) return l
    let best: Val | undefined
    for (const x of l.items) {
      if (!COMPARABLE.has(typeName(x))) return new CelError('no such overload')
      if (best === undefined) { best = x; continue }
      const c = compare(best, x) ?? 0
      if ((name === 'min' && c > 0) || (name === 'max' && c < 0)) best = x
    }
    return best ?? new CelError(`${name} called on empty list`)
  }
}

/** Kubernetes' indexOf/lastIndexOf on lists (the string ones live in the strings extension). */
export function listIndexOf (args: Val[], last: boolean): Val {
  const l = listArg(last ? 'lastIndexOf' : 'indexOf', args, 1)
  if (l instanceof CelError) return l
  const n = l.items.length
  for (let k = 0; k < n; k++) {
    const i = last ? n - 1 - k : k
    if (equals(l.items[i] as Val, args[1] as Val) === true) return BigInt(i)
  }
  return -1n
}

function slice (args: Val[]): Val {
  const [l, start, end] = args
  if (!(l instanceof CelList) || typeof start !== 'bigint' || typeof end !== 'bigint') return noSuchOverload('slice', ...args)
  if (start < 0n || end < 0n) return new CelError(`cannot slice(${start}, ${end}), negative indexes not supported`)
  if (start > end) return new CelError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`)
  if (BigInt(l.items.length) < end) return new CelError(`cannot slice(${start}, ${end}), list is length ${l.items.length}`)
  return new CelList(l.items.slice(Number(start), Number(end)))
}

function flattenItems (items: readonly Val[], depth: bigint): Val[] {
  const out: Val[] = []
  for (const x of items) {
    if (x instanceof CelList && depth > 0n) out.push(...flattenItems(x.items, depth - 1n))
    else out.push(x)
  }
  return out
}

/** flatten runs without cel-go's type guards and says itself what it got: `no such overload: int.flatten(int)`. */
function flatten (args: Val[]): Val {
  const [l, depth = 1n] = args
  if (!(l instanceof CelList) || typeof depth !== 'bigint') {
    for (const a of args) if (a instanceof CelError) return a
    return new CelError(`no such overload: ${typeName(l as Val)}.flatten(${args.slice(1).map(typeName).join(', ')})`)
  }
  if (depth < 0n) return new CelError('level must be non-negative')
  return new CelList(flattenItems(l.items, depth))
}

/** @sortByAssociatedKeys: sorts the list by the keys (sort() uses the list itself), stably. */
function sortByKeys (list: CelList, keys: CelList): Val {
  if (list.items.length !== keys.items.length) {
    return new CelError(`@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got ${list.items.length} and ${keys.items.length} elements respectively`)
  }
  if (list.items.length === 0) return list
  const first = keys.items[0] as Val
  if (!COMPARABLE.has(typeName(first))) return new CelError('list elements must be comparable')
  if (keys.items.some(k => typeName(k) !== typeName(first))) return new CelError('list elements must have the same type')
  const order = keys.items.map((_, i) => i).sort((a, b) => (compare(keys.items[a] as Val, keys.items[b] as Val) ?? 0) || a - b)
  return new CelList(order.map(i => list.items[i] as Val))
}

function sort (args: Val[]): Val {
  const l = listArg('sort', args, 0)
  return l instanceof CelError ? l : sortByKeys(l, l)
}

/** The Go types of values that are not lists, as a failed conversion to traits.Lister names them. */
const GO_TYPES: Record<string, [string, string]> = {
  int: ['types.Int', 'Contains'],
  uint: ['types.Uint', 'Contains'],
  double: ['types.Double', 'Contains'],
  string: ['types.String', 'Contains'],
  bytes: ['types.Bytes', 'Contains'],
  bool: ['types.Bool', 'Add'],
  null_type: ['types.Null', 'Add'],
  'google.protobuf.Timestamp': ['types.Timestamp', 'Contains'],
  'google.protobuf.Duration': ['types.Duration', 'Contains']
}

/** distinct is not type-guarded: on a value that is not a list, cel-go's conversion panics (an internal error). */
function distinct (args: Val[]): Val {
  const go = GO_TYPES[typeName(args[0] as Val)]
  if (go !== undefined && args.length === 1) return new CelError(`internal error: interface conversion: ${go[0]} is not traits.Lister: missing method ${go[1]}`)
  const l = listArg('distinct', args, 0)
  if (l instanceof CelError) return l
  const out: Val[] = []
  for (const x of l.items) if (!out.some(y => equals(x, y) === true)) out.push(x)
  return new CelList(out)
}

function contains (list: CelList, sub: CelList): Val {
  for (const x of sub.items) {
    const r = inOperator(x, list)
    if (r !== true) return r
  }
  return true
}

function twoLists (fn: string, impl: (a: CelList, b: CelList) => Val): FunctionDef {
  return { global: ([a, b]) => a instanceof CelList && b instanceof CelList ? impl(a, b) : noSuchOverload(fn, a as Val, b as Val) }
}

function regexArgs (fn: string, args: Val[]): [string, Regexp] | CelError {
  const [s, re] = args
  if (typeof s !== 'string' || typeof re !== 'string') return noSuchOverload(fn, ...args)
  try {
    return [s, compile(re)]
  } catch (err) {
    return new CelError(`Illegal regex: ${(err as Error).message}`)
  }
}

/** cel.@mapInsert of the two-variable comprehensions: a map with one more entry (or the entries of another map). */
function mapInsert ([m, k, v]: Val[]): Val {
  if (!(m instanceof CelMap)) return noSuchOverload('cel.@mapInsert', ...[m, k, v].filter(x => x !== undefined) as Val[])
  const entries = m.entries()
  const add: Array<[Val, Val]> = v === undefined ? (k instanceof CelMap ? k.entries() : []) : [[k as Val, v]]
  if (v === undefined && !(k instanceof CelMap)) return noSuchOverload('cel.@mapInsert', m, k as Val)
  for (const [key, value] of add) {
    if (!isMapKey(key)) return new CelError(`unsupported key type: ${typeName(key)}`)
    if (m.find(key) !== undefined || entries.some(([e]) => e === key)) return new CelError(`insert failed: key ${keyString(key)} already exists`)
    entries.push([key, value])
  }
  return new CelMap(entries)
}

/** The list, set and regex functions, by name. */
export const LIST_FUNCTIONS: Record<string, FunctionDef> = {
  'cel.@mapInsert': { global: mapInsert },
  isSorted: m(isSorted),
  sum: m(sum),
  min: m(extreme('min')),
  max: m(extreme('max')),
  slice: m(slice),
  flatten: m(flatten),
  sort: m(sort),
  '@sortByAssociatedKeys': m(([l, keys]) => l instanceof CelList && keys instanceof CelList ? sortByKeys(l, keys) : noSuchOverload('@sortByAssociatedKeys', l as Val, keys as Val)),
  'lists.range': {
    global: ([n]) => {
      if (typeof n !== 'bigint') return noSuchOverload('lists.range', n as Val)
      if (n < 0n) return new CelError(`lists.range: size must be non-negative, got ${n}`)
      return new CelList(Array.from({ length: Number(n) }, (_, i) => { spend(); return BigInt(i) }))
    }
  },
  reverse: m((args) => { const l = listArg('reverse', args, 0); return l instanceof CelError ? l : new CelList([...l.items].reverse()) }),
  distinct: m(distinct),
  'sets.contains': twoLists('sets.contains', contains),
  'sets.equivalent': twoLists('sets.equivalent', (a, b) => { const r = contains(a, b); return r !== true ? r : contains(b, a) }),
  'sets.intersects': twoLists('sets.intersects', (a, b) => a.items.some(x => inOperator(x, b) === true)),
  find: m((args) => {
    if (args.length !== 2) return noSuchOverload('find', ...args)
    const a = regexArgs('find', args)
    if (a instanceof CelError) return a
    return a[1].findString(a[0])
  }),
  findAll: m((args) => {
    const [s, re, n = -1n] = args
    if (typeof n !== 'bigint' || args.length > 3) return noSuchOverload('findAll', ...args)
    const a = regexArgs('findAll', [s as Val, re as Val])
    if (a instanceof CelError) return a
    return new CelList(n === 0n ? [] : a[1].findAllString(a[0], n < 0n ? -1 : Number(n)) ?? [])
  })
}
