// sprig's dict functions (dict.go): they take and return map[string]interface{}; merge and mergeOverwrite follow
// dario.cat/mergo v1.0.1 (missing or empty keys filled in, nested maps merged in place, lists kept unless
// overwriting). Go iterates maps in random order: keys and values answer in sorted key order, one of Go's answers.
import { fn, GoCallError, type GoFunc, GoMap, GoSlice, type GoValue, IFACE, Iface, MAP_IFACE, type RValue, SLICE_IFACE, sortedKeys, typeOf } from '../values.js'
import { strval } from './cast.js'
import { deepCopy, empty } from './reflect.js'

const DICT = MAP_IFACE

function entries (d: GoMap): Map<string, GoValue> { return d.entries ?? new Map() }

function dict (m: Map<string, GoValue>): GoMap { return new GoMap(DICT, m) }

function assertion (v: GoValue, want: string): never {
  throw new GoCallError(`interface conversion: interface {} is ${typeOf(v) ?? 'nil'}, not ${want}`)
}

function asDict (v: GoValue): GoMap {
  if (v instanceof GoMap && v.type === DICT) return v
  return assertion(v, DICT)
}

// mergo's map merge: a key is taken from src when dst lacks it or holds an empty value (or always, overwriting, unless
// src holds nil); two non-empty maps merge in place instead.
function mergeInto (d: Map<string, GoValue>, src: GoMap, overwrite: boolean): void {
  for (const [key, s] of entries(src)) {
    const had = d.has(key)
    const old = d.get(key) as GoValue
    if (s === null) {
      if (overwrite) d.set(key, null)
      continue
    }
    if (s instanceof GoSlice && overwrite) { d.set(key, s); continue }
    if (s instanceof GoMap && old instanceof GoMap && old.entries !== null) mergeInto(old.entries, s, overwrite)
    if (had && !empty(old) && (s instanceof GoSlice || (s instanceof GoMap && old instanceof GoMap))) continue
    if (overwrite || !had || empty(old)) d.set(key, s)
  }
}

function mergeAll (dst: GoMap, srcs: GoMap[], overwrite: boolean): RValue {
  let out = dst
  for (const s of srcs) {
    if (out.entries === null) {
      if (s.entries === null) continue
      out = dict(new Map())
    }
    mergeInto(out.entries as Map<string, GoValue>, s, overwrite)
  }
  return new Iface(out)
}

// copystructure.Copy asks reflect for the type of a nil interface, which panics.
function copyOf (v: GoValue): RValue {
  if (v === null) throw new GoCallError('reflect: call of reflect.Value.Type on zero Value')
  return new Iface(deepCopy(v))
}

/** The dict functions of sprig's hermetic map. */
export const DICTS: Record<string, GoFunc> = {
  dict: fn([IFACE], DICT, (...kv: GoValue[]) => {
    const m = new Map<string, GoValue>()
    for (let i = 0; i < kv.length; i += 2) m.set(strval(kv[i] as GoValue), i + 1 < kv.length ? kv[i + 1] as GoValue : '')
    return dict(m)
  }, { variadic: true }),
  get: fn([DICT, 'string'], IFACE, (d: GoMap, k: string) => new Iface(entries(d).has(k) ? entries(d).get(k) as GoValue : '')),
  set: fn([DICT, 'string', IFACE], DICT, (d: GoMap, k: string, v: GoValue) => {
    if (d.entries === null) throw new GoCallError('assignment to entry in nil map')
    d.entries.set(k, v)
    return d
  }),
  unset: fn([DICT, 'string'], DICT, (d: GoMap, k: string) => { d.entries?.delete(k); return d }),
  hasKey: fn([DICT, 'string'], 'bool', (d: GoMap, k: string) => entries(d).has(k)),
  pluck: fn(['string', DICT], SLICE_IFACE, (k: string, ...ds: GoMap[]) => new GoSlice(SLICE_IFACE, ds.filter(d => entries(d).has(k)).map(d => entries(d).get(k) as GoValue)), { variadic: true }),
  keys: fn([DICT], '[]string', (...ds: GoMap[]) => new GoSlice('[]string', ds.flatMap(d => sortedKeys(entries(d)))), { variadic: true }),
  pick: fn([DICT, 'string'], DICT, (d: GoMap, ...ks: string[]) => dict(new Map(ks.filter(k => entries(d).has(k)).map(k => [k, entries(d).get(k) as GoValue]))), { variadic: true }),
  omit: fn([DICT, 'string'], DICT, (d: GoMap, ...ks: string[]) => dict(new Map([...entries(d)].filter(([k]) => !ks.includes(k)))), { variadic: true }),
  merge: fn([DICT, DICT], IFACE, (dst: GoMap, ...srcs: GoMap[]) => mergeAll(dst, srcs, false), { variadic: true }),
  mustMerge: fn([DICT, DICT], IFACE, (dst: GoMap, ...srcs: GoMap[]) => mergeAll(dst, srcs, false), { variadic: true, returnsError: true }),
  mergeOverwrite: fn([DICT, DICT], IFACE, (dst: GoMap, ...srcs: GoMap[]) => mergeAll(dst, srcs, true), { variadic: true }),
  mustMergeOverwrite: fn([DICT, DICT], IFACE, (dst: GoMap, ...srcs: GoMap[]) => mergeAll(dst, srcs, true), { variadic: true, returnsError: true }),
  values: fn([DICT], SLICE_IFACE, (d: GoMap) => new GoSlice(SLICE_IFACE, sortedKeys(entries(d)).map(k => entries(d).get(k) as GoValue))),
  deepCopy: fn([IFACE], IFACE, copyOf),
  mustDeepCopy: fn([IFACE], IFACE, copyOf, { returnsError: true }),
  dig: fn([IFACE], IFACE, (...ps: GoValue[]): RValue => {
    if (ps.length < 3) throw new GoCallError('dig needs at least three arguments')
    let d = asDict(ps[ps.length - 1] as GoValue)
    const def = ps[ps.length - 2] as GoValue
    const ks = ps.slice(0, -2).map(k => typeof k === 'string' ? k : assertion(k, 'string'))
    for (let i = 0; i < ks.length; i++) {
      const k = ks[i] as string
      if (!entries(d).has(k)) return new Iface(def)
      const step = entries(d).get(k) as GoValue
      if (i === ks.length - 1) return new Iface(step)
      d = asDict(step)
    }
    return new Iface(def)
  }, { variadic: true, returnsError: true })
}
