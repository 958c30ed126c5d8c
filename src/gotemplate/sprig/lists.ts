// sprig's list functions (list.go): reflection-based, so any slice type works and anything else is an error whose
// text names the reflect kind ("Cannot find first on type map"); the non-must variants panic with that error, which
// text/template reports as the call's error. A nil argument panics in reflect.TypeOf(nil).Kind().
import { spend } from '../../budget/index.js'
import {
  fn, GoCallError, type GoFunc, GoInt, GoSlice, type GoValue, IFACE, Iface, type RValue, SLICE_IFACE,
  Unsupported
} from '../values.js'
import { toInt64 } from './cast.js'
import { deepEqual, empty, kindOrPanic, listItems } from './reflect.js'

const LIST = SLICE_IFACE

function list (items: GoValue[] | null): GoSlice { return new GoSlice(LIST, items) }

function need (v: GoValue, what: string): GoValue[] {
  const items = listItems(v)
  if (items === undefined) throw new GoCallError(`Cannot ${what} type ${kindOrPanic(v)}`)
  return items
}

function nilIface (): RValue { return new Iface(null) }

/** A must-function and its plain twin (which panics with the same error, reported the same way). */
function both (name: string, mustName: string, params: string[], result: string, impl: (...args: any[]) => RValue, variadic = false): Record<string, GoFunc> {
  return {
    [name]: fn(params, result, impl, { variadic }),
    [mustName]: fn(params, result, impl, { variadic, returnsError: true })
  }
}

function inList (haystack: GoValue[], needle: GoValue): boolean { return haystack.some(h => deepEqual(needle, h)) }

function chunk (size: GoInt, v: GoValue): RValue {
  const items = need(v, 'chunk')
  const l = items.length
  const s = Number(size.v)
  const cs = Math.floor((l - 1) / s) + 1
  if (!Number.isFinite(cs) || cs < 0 || cs > 2 ** 31) throw new GoCallError('runtime error: makeslice: len out of range')
  const out: GoValue[] = []
  for (let i = 0; i < cs; i++) {
    let clen = s
    if (i === cs - 1) {
      clen = Math.floor(l % s)
      if (clen === 0) clen = s
      if (clen < 0) throw new GoCallError('runtime error: makeslice: len out of range')
    }
    out.push(list(items.slice(i * s, i * s + clen)))
  }
  return new GoSlice('[][]interface {}', out)
}

function slice (v: GoValue, ...indices: GoValue[]): RValue {
  const kind = kindOrPanic(v)
  if (kind !== 'slice') throw new GoCallError(`list should be type of slice or array but ${kind}`)
  const s = v as GoSlice
  const items = s.items ?? []
  const l = items.length
  if (l === 0) return nilIface()
  const start = indices.length > 0 ? toInt64(indices[0] as GoValue) : 0n
  const end = indices.length < 2 ? BigInt(l) : toInt64(indices[1] as GoValue)
  if (end > BigInt(l) && start >= 0n && start <= end) {
    throw new Unsupported('slicing a list past its length (Go reads into the slice\'s spare capacity)')
  }
  if (start < 0n || end < start || end > BigInt(l)) throw new GoCallError('reflect.Value.Slice: slice index out of bounds')
  return new Iface(new GoSlice(s.type, items.slice(Number(start), Number(end))))
}

/** The list functions of sprig's hermetic map. */
export const LISTS: Record<string, GoFunc> = {
  list: fn([IFACE], LIST, (...xs: GoValue[]) => list(xs), { variadic: true }),
  tuple: fn([IFACE], LIST, (...xs: GoValue[]) => list(xs), { variadic: true }),
  ...both('append', 'mustAppend', [IFACE, IFACE], LIST, (l: GoValue, x: GoValue) => list([...need(l, 'push on'), x])),
  ...both('push', 'mustPush', [IFACE, IFACE], LIST, (l: GoValue, x: GoValue) => list([...need(l, 'push on'), x])),
  ...both('prepend', 'mustPrepend', [IFACE, IFACE], LIST, (l: GoValue, x: GoValue) => list([x, ...need(l, 'prepend on')])),
  ...both('first', 'mustFirst', [IFACE], IFACE, (l: GoValue) => {
    const items = need(l, 'find first on')
    return items.length === 0 ? nilIface() : new Iface(items[0] as GoValue)
  }),
  ...both('last', 'mustLast', [IFACE], IFACE, (l: GoValue) => {
    const items = need(l, 'find last on')
    return items.length === 0 ? nilIface() : new Iface(items[items.length - 1] as GoValue)
  }),
  ...both('rest', 'mustRest', [IFACE], LIST, (l: GoValue) => {
    const items = need(l, 'find rest on')
    return list(items.length === 0 ? null : items.slice(1))
  }),
  ...both('initial', 'mustInitial', [IFACE], LIST, (l: GoValue) => {
    const items = need(l, 'find initial on')
    return list(items.length === 0 ? null : items.slice(0, -1))
  }),
  ...both('reverse', 'mustReverse', [IFACE], LIST, (l: GoValue) => list([...need(l, 'find reverse on')].reverse())),
  ...both('compact', 'mustCompact', [IFACE], LIST, (l: GoValue) => list(need(l, 'compact on').filter(x => !empty(x)))),
  ...both('uniq', 'mustUniq', [IFACE], LIST, (l: GoValue) => {
    const out: GoValue[] = []
    for (const x of need(l, 'find uniq on')) if (!inList(out, x)) out.push(x)
    return list(out)
  }),
  ...both('without', 'mustWithout', [IFACE, IFACE], LIST, (l: GoValue, ...omit: GoValue[]) => list(need(l, 'find without on').filter(x => !inList(omit, x))), true),
  ...both('has', 'mustHas', [IFACE, IFACE], 'bool', (needle: GoValue, haystack: GoValue) => {
    if (haystack === null) return false
    return inList(need(haystack, 'find has on'), needle)
  }),
  ...both('slice', 'mustSlice', [IFACE, IFACE], IFACE, slice, true),
  ...both('chunk', 'mustChunk', ['int', IFACE], '[][]interface {}', chunk),
  concat: fn([IFACE], IFACE, (...lists: GoValue[]) => {
    const out: GoValue[] = []
    for (const l of lists) {
      const items = listItems(l)
      if (items === undefined) throw new GoCallError(`Cannot concat type ${kindOrPanic(l)} as list`)
      out.push(...items)
    }
    return new Iface(list(out.length === 0 ? null : out))
  }, { variadic: true }),
  until: fn(['int'], '[]int', (count: GoInt) => untilStep(0n, count.v, count.v < 0n ? -1n : 1n)),
  untilStep: fn(['int', 'int', 'int'], '[]int', (start: GoInt, stop: GoInt, step: GoInt) => untilStep(start.v, stop.v, step.v))
}

/** sprig's untilStep, as a []int. */
export function untilStep (start: bigint, stop: bigint, step: bigint): GoSlice {
  const out: GoValue[] = []
  const add = (i: bigint): void => {
    spend()
    if (out.length >= 1_000_000) throw new Unsupported('a list of more than a million numbers')
    out.push(new GoInt('int', i))
  }
  if (stop < start) {
    if (step >= 0n) return new GoSlice('[]int', out)
    for (let i = start; i > stop; i = BigInt.asIntN(64, i + step)) add(i)
    return new GoSlice('[]int', out)
  }
  if (step <= 0n) return new GoSlice('[]int', out)
  for (let i = start; i < stop; i = BigInt.asIntN(64, i + step)) add(i)
  return new GoSlice('[]int', out)
}
