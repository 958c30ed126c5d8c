// CEL's standard library with cel-go's semantics: arithmetic with int64/uint64 overflow errors, heterogeneous
// equality and cross-type numeric comparisons, conversions (`type conversion error from 'string' to 'int'`),
// string functions (matches with RE2), size, and the timestamp/duration accessors with time zones.
import { runeCount } from '../../go/utf8.js'
import { formatFloat, parseFloat } from '../../go/strconv.js'
import { civilTime, daysFromCivil, formatRFC3339Nano, parseDuration, parseRFC3339 } from '../../go/time.js'
import { matchString } from '../../go/index.js'
import { index, inOperator } from './access.js'
import {
  CelDuration, CelError, CelList, CelMap, CelOpaque, CelOptional, CelTimestamp, CelType, CelUint, checkedInt, checkedUint, compare,
  equals, isReceiver, mapListKey, noSuchOverload, typeName, type Val
} from './values.js'

/** A function implementation: receives the evaluated arguments (the receiver first for a method). */
export type Impl = (args: Val[], name: string) => Val

/** A function as callable globally (`f(x)`), as a method (`x.f()`), or both. */
export interface FunctionDef {
  readonly global?: Impl
  readonly member?: Impl
}

const NS = 1_000_000_000n
const MIN_UNIX = -62135596800n
const MAX_UNIX = 253402300799n
const MIN_INT = -(1n << 63n)
const MAX_INT = (1n << 63n) - 1n

const both = (impl: Impl): FunctionDef => ({ global: impl, member: impl })
const member = (impl: Impl): FunctionDef => ({ member: impl })
const global = (impl: Impl): FunctionDef => ({ global: impl })

/**
 * cel-go binds most operators once for all types with a trait (Adder, Comparer…): a left operand without the trait
 * fails with `no such overload: <op>`, a right operand the left one does not accept with `no such overload`.
 */
const isNumber = (v: Val) => typeof v === 'bigint' || typeof v === 'number' || v instanceof CelUint
const TRAITS = {
  adder: (v: Val) => isNumber(v) || typeof v === 'string' || v instanceof Uint8Array || v instanceof CelList || v instanceof CelTimestamp || v instanceof CelDuration,
  subtractor: (v: Val) => isNumber(v) || v instanceof CelTimestamp || v instanceof CelDuration,
  multiplier: isNumber,
  divider: isNumber,
  modder: (v: Val) => typeof v === 'bigint' || v instanceof CelUint,
  comparer: (v: Val) => isNumber(v) || typeof v === 'string' || typeof v === 'boolean' || v instanceof Uint8Array || v instanceof CelTimestamp || v instanceof CelDuration
}

/**
 * The error of an operator whose left operand the implementation does not take: `no such overload` when the operand
 * has the trait (the right operand is wrong) or is a receiver type (string, timestamp, duration: cel-go asks the value
 * itself, which knows no operator), `no such overload: <op>` otherwise.
 */
function traitError (fn: string, trait: keyof typeof TRAITS, lhs: Val): CelError {
  return TRAITS[trait](lhs) || isReceiver(lhs) ? new CelError('no such overload') : new CelError(`no such overload: ${fn}`)
}

function addLists (a: CelList, b: CelList): CelList {
  if (a.listKind.kind === 'set') {
    const items = [...a.items]
    for (const x of b.items) if (!items.some(y => equals(x, y) === true)) items.push(x)
    return new CelList(items, a.listKind, true)
  }
  if (a.listKind.kind === 'map') {
    const keys = a.listKind.keys
    const items = [...a.items]
    const at = new Map(items.map((x, i) => [mapListKey(x, keys), i]))
    for (const x of b.items) {
      const i = at.get(mapListKey(x, keys))
      if (i === undefined) { at.set(mapListKey(x, keys), items.length); items.push(x) } else items[i] = x
    }
    return new CelList(items, a.listKind, true)
  }
  return new CelList([...a.items, ...b.items], a.schema ? a.listKind : { kind: 'list' }, a.schema)
}

/** addTimeDurationChecked: seconds out of the year 1-9999 range overflow; the time's zone is kept. */
function addTime (t: CelTimestamp, d: bigint): Val {
  const r = t.ns + d
  let sec = r / NS
  if (r % NS < 0n) sec -= 1n
  return sec < MIN_UNIX || sec > MAX_UNIX ? new CelError('timestamp overflow') : new CelTimestamp(r, t.offset)
}

function add ([a, b]: Val[]): Val {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkedInt(a + b)
  if (typeof a === 'number' && typeof b === 'number') return a + b
  if (a instanceof CelUint && b instanceof CelUint) return checkedUint(a.value + b.value)
  if (typeof a === 'string' && typeof b === 'string') return a + b
  if (a instanceof Uint8Array && b instanceof Uint8Array) return new Uint8Array([...a, ...b])
  if (a instanceof CelList && b instanceof CelList) return addLists(a, b)
  if (a instanceof CelTimestamp && b instanceof CelDuration) return addTime(a, b.ns)
  if (a instanceof CelDuration && b instanceof CelTimestamp) return addTime(b, a.ns)
  if (a instanceof CelDuration && b instanceof CelDuration) { const r = checkedInt(a.ns + b.ns); return r instanceof CelError ? r : new CelDuration(r) }
  return traitError('_+_', 'adder', a as Val)
}

function subtract ([a, b]: Val[]): Val {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkedInt(a - b)
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (a instanceof CelUint && b instanceof CelUint) return checkedUint(a.value - b.value)
  if (a instanceof CelTimestamp && b instanceof CelTimestamp) { const r = checkedInt(a.ns - b.ns); return r instanceof CelError ? r : new CelDuration(r) }
  if (a instanceof CelTimestamp && b instanceof CelDuration) return addTime(a, -b.ns)
  if (a instanceof CelDuration && b instanceof CelDuration) { const r = checkedInt(a.ns - b.ns); return r instanceof CelError ? r : new CelDuration(r) }
  return traitError('_-_', 'subtractor', a as Val)
}

function multiply ([a, b]: Val[]): Val {
  if (typeof a === 'bigint' && typeof b === 'bigint') return checkedInt(a * b)
  if (typeof a === 'number' && typeof b === 'number') return a * b
  if (a instanceof CelUint && b instanceof CelUint) return checkedUint(a.value * b.value)
  return traitError('_*_', 'multiplier', a as Val)
}

function divide ([a, b]: Val[]): Val {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (b === 0n) return new CelError('division by zero')
    if (a === MIN_INT && b === -1n) return new CelError('integer overflow')
    return a / b
  }
  if (typeof a === 'number' && typeof b === 'number') return a / b
  if (a instanceof CelUint && b instanceof CelUint) return b.value === 0n ? new CelError('division by zero') : new CelUint(a.value / b.value)
  return traitError('_/_', 'divider', a as Val)
}

function modulo ([a, b]: Val[]): Val {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (b === 0n) return new CelError('modulus by zero')
    if (a === MIN_INT && b === -1n) return new CelError('integer overflow')
    return a % b
  }
  if (a instanceof CelUint && b instanceof CelUint) return b.value === 0n ? new CelError('modulus by zero') : new CelUint(a.value % b.value)
  return traitError('_%_', 'modder', a as Val)
}

function negate ([a]: Val[]): Val {
  if (typeof a === 'bigint') return checkedInt(-a)
  if (typeof a === 'number') return -a
  if (a instanceof CelDuration) { const r = checkedInt(-a.ns); return r instanceof CelError ? r : new CelDuration(r) }
  return isReceiver(a as Val) ? new CelError('no such overload') : new CelError('no such overload: -_')
}

function comparison (fn: string, test: (c: number) => boolean): Impl {
  return ([a, b]) => {
    if ((typeof a === 'number' && Number.isNaN(a)) || (typeof b === 'number' && Number.isNaN(b) && isNumber(a as Val))) return new CelError('NaN values cannot be ordered')
    const c = compare(a as Val, b as Val)
    return c === undefined ? traitError(fn, 'comparer', a as Val) : test(c)
  }
}

function size ([a]: Val[]): Val {
  if (typeof a === 'string') return BigInt(runeCount(a))
  if (a instanceof Uint8Array) return BigInt(a.length)
  if (a instanceof CelList) return BigInt(a.items.length)
  if (a instanceof CelMap) return BigInt(a.size)
  return isReceiver(a as Val) ? new CelError('no such overload') : new CelError('no such overload: size')
}

const conversionError = (from: Val, to: string) => new CelError(`type conversion error from '${typeName(from)}' to '${to}'`)

function toInt ([a]: Val[]): Val {
  if (typeof a === 'bigint') return a
  if (a instanceof CelUint) return a.value > MAX_INT ? new CelError('integer overflow') : a.value
  if (typeof a === 'number') {
    if (!Number.isFinite(a) || a <= -(2 ** 63) || a >= 2 ** 63) return new CelError('integer overflow')
    return BigInt(Math.trunc(a))
  }
  if (typeof a === 'string') {
    if (/^[+-]?[0-9]+$/.test(a) && BigInt(a) >= MIN_INT && BigInt(a) <= MAX_INT) return BigInt(a)
    return conversionError(a, 'int')
  }
  if (a instanceof CelTimestamp) return a.ns >= 0n ? a.ns / NS : -((-a.ns + NS - 1n) / NS)
  if (a instanceof CelDuration) return a.ns
  return noSuchOverload('int', a as Val)
}

function toUint ([a]: Val[]): Val {
  if (a instanceof CelUint) return a
  if (typeof a === 'bigint') return a < 0n ? new CelError('unsigned integer overflow') : new CelUint(a)
  if (typeof a === 'number') {
    if (!Number.isFinite(a) || a < 0 || a >= 2 ** 64) return new CelError('unsigned integer overflow')
    return new CelUint(BigInt(Math.trunc(a)))
  }
  if (typeof a === 'string') {
    if (/^\+?[0-9]+$/.test(a) && BigInt(a) < (1n << 64n)) return new CelUint(BigInt(a))
    return conversionError(a, 'uint')
  }
  return noSuchOverload('uint', a as Val)
}

function toDouble ([a]: Val[]): Val {
  if (typeof a === 'number') return a
  if (typeof a === 'bigint') return Number(a)
  if (a instanceof CelUint) return Number(a.value)
  if (typeof a === 'string') {
    const r = parseFloat(a)
    return r.ok ? r.v : conversionError(a, 'double')
  }
  return noSuchOverload('double', a as Val)
}

/** Duration as cel-go prints it: d.Seconds() (a float64) in the shortest decimal, then `s`. */
export function durationString (ns: bigint): string {
  const sec = ns / NS
  const nsec = ns % NS
  return formatFloat(Number(sec) + Number(nsec) / 1e9, 'f', -1) + 's'
}

function toStringFn ([a]: Val[]): Val {
  if (typeof a === 'string') return a
  if (typeof a === 'bigint') return a.toString()
  if (a instanceof CelUint) return a.value.toString()
  if (typeof a === 'number') return formatFloat(a, 'g', -1)
  if (typeof a === 'boolean') return String(a)
  if (a instanceof Uint8Array) {
    try { return new TextDecoder('utf-8', { fatal: true }).decode(a) } catch { return new CelError('invalid UTF-8 in bytes, cannot convert to string') }
  }
  if (a instanceof CelTimestamp) return formatRFC3339Nano(a.ns, a.offset)
  if (a instanceof CelDuration) return durationString(a.ns)
  if (a instanceof CelOpaque && 'string' in a && typeof a.string === 'function') return (a.string as () => string)()
  return noSuchOverload('string', a as Val)
}

function toBytes ([a]: Val[]): Val {
  if (a instanceof Uint8Array) return a
  if (typeof a === 'string') return new Uint8Array(Buffer.from(a, 'utf8'))
  return noSuchOverload('bytes', a as Val)
}

function toBool ([a]: Val[]): Val {
  if (typeof a === 'boolean') return a
  if (typeof a === 'string') {
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(a)) return true
    if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(a)) return false
    return conversionError(a, 'bool')
  }
  return noSuchOverload('bool', a as Val)
}

function toTimestamp ([a]: Val[]): Val {
  if (a instanceof CelTimestamp) return a
  if (typeof a === 'string') {
    const t = parseRFC3339(a)
    if (typeof t === 'string') return conversionError(a, 'google.protobuf.Timestamp')
    const sec = t.ns / NS - (t.ns % NS < 0n ? 1n : 0n)
    return sec < MIN_UNIX || sec > MAX_UNIX ? new CelError('timestamp overflow') : new CelTimestamp(t.ns, t.offset)
  }
  if (typeof a === 'bigint') return a < MIN_UNIX || a > MAX_UNIX ? new CelError('timestamp overflow') : new CelTimestamp(a * NS)
  return noSuchOverload('timestamp', a as Val)
}

function toDuration ([a]: Val[]): Val {
  if (a instanceof CelDuration) return a
  if (typeof a === 'string') {
    try { return new CelDuration(parseDuration(a)) } catch { return conversionError(a, 'google.protobuf.Duration') }
  }
  // duration(int) is declared but int does not convert to a duration.
  if (typeof a === 'bigint') return conversionError(a, 'google.protobuf.Duration')
  return noSuchOverload('duration', a as Val)
}

/** The CEL type of a value, as type(x) returns it. */
function typeOf ([a]: Val[]): Val {
  return new CelType(typeName(a as Val))
}

interface LocalTime { year: number, month: number, day: number, hour: number, minute: number, second: number, weekday: number, yday: number, ms: number }

const zoneFormats = new Map<string, Intl.DateTimeFormat>()

/** The civil time of a timestamp at a fixed offset (seconds east of UTC). */
function fixedLocal (ns: bigint, offset: number): LocalTime {
  const t = civilTime(ns, offset)
  return {
    year: t.year,
    month: t.month,
    day: t.day,
    hour: t.hour,
    minute: t.minute,
    second: t.second,
    weekday: ((t.days % 7) + 11) % 7,
    yday: t.days - daysFromCivil(t.year, 1, 1),
    ms: Number(t.nanos / 1_000_000n)
  }
}

/** The civil time of a timestamp in a time zone name or `±hh:mm` offset, as cel-go's timeZone() reads it. */
function localTime (ns: bigint, tz: string | undefined): LocalTime | CelError {
  if (tz === undefined || tz === '' || tz === 'UTC') return fixedLocal(ns, 0)
  const colon = tz.indexOf(':')
  if (colon >= 0) {
    const hr = /^[+-]?[0-9]+$/.test(tz.slice(0, colon)) ? Number(tz.slice(0, colon)) : NaN
    const min = /^[+-]?[0-9]+$/.test(tz.slice(colon + 1)) ? Number(tz.slice(colon + 1)) : NaN
    if (Number.isNaN(hr)) return new CelError(`strconv.Atoi: parsing ${JSON.stringify(tz.slice(0, colon))}: invalid syntax`)
    if (Number.isNaN(min)) return new CelError(`strconv.Atoi: parsing ${JSON.stringify(tz.slice(colon + 1))}: invalid syntax`)
    return fixedLocal(ns, (tz[0] === '-' ? hr * 60 - min : hr * 60 + min) * 60)
  }
  let fmt = zoneFormats.get(tz)
  if (fmt === undefined) {
    try {
      fmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    } catch {
      return new CelError(`unknown time zone ${tz}`)
    }
    zoneFormats.set(tz, fmt)
  }
  const ms = Number(ns / 1_000_000n)
  const parts = Object.fromEntries(fmt.formatToParts(new Date(ms)).map(p => [p.type, p.value]))
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second))
  const offset = Math.round((local - Math.floor(ms / 1000) * 1000) / 1000)
  return fixedLocal(ns, offset)
}

function timeGetter (fn: string, pick: (t: LocalTime) => number, forDuration?: (ns: bigint) => bigint): Impl {
  return ([a, tz]) => {
    if (a instanceof CelDuration && tz === undefined && forDuration) return forDuration(a.ns)
    if (!(a instanceof CelTimestamp) || (tz !== undefined && typeof tz !== 'string')) return noSuchOverload(fn, ...[a, tz].filter(x => x !== undefined) as Val[])
    const t = localTime(a.ns, tz as string | undefined)
    return t instanceof CelError ? t : BigInt(pick(t))
  }
}

function stringFn (fn: string, test: (s: string, t: string) => boolean): Impl {
  return ([s, t]) => typeof s === 'string' && typeof t === 'string' ? test(s, t) : noSuchOverload(fn, s as Val, t as Val)
}

function matches ([s, re]: Val[]): Val {
  if (typeof s !== 'string') return isReceiver(s as Val) ? new CelError('no such overload') : new CelError('no such overload: matches')
  if (typeof re !== 'string') return new CelError('no such overload')
  try { return matchString(re, s) } catch (err) { return new CelError((err as Error).message) }
}

/** The standard library: operators and functions, by the name cel-go gives them. */
export const STANDARD_FUNCTIONS: Record<string, FunctionDef> = {
  '_+_': global(add),
  '_-_': global(subtract),
  '_*_': global(multiply),
  '_/_': global(divide),
  '_%_': global(modulo),
  '-_': global(negate),
  '!_': global(([a]) => typeof a === 'boolean' ? !a : new CelError('no such overload')),
  '_==_': global(([a, b]) => equals(a as Val, b as Val)),
  '_!=_': global(([a, b]) => { const r = equals(a as Val, b as Val); return r instanceof CelError ? r : !r }),
  '_<_': global(comparison('_<_', c => c < 0)),
  '_<=_': global(comparison('_<=_', c => c <= 0)),
  '_>_': global(comparison('_>_', c => c > 0)),
  '_>=_': global(comparison('_>=_', c => c >= 0)),
  '@in': global(([a, b]) => inOperator(a as Val, b as Val)),
  '_[_]': global(([a, b]) => index(a as Val, b as Val, false)),
  size: both(size),
  int: global(toInt),
  uint: global(toUint),
  double: global(toDouble),
  string: global(toStringFn),
  bytes: global(toBytes),
  bool: global(toBool),
  timestamp: global(toTimestamp),
  duration: global(toDuration),
  dyn: global(([a]) => a as Val),
  type: global(typeOf),
  contains: member(stringFn('contains', (s, t) => s.includes(t))),
  startsWith: member(stringFn('startsWith', (s, t) => s.startsWith(t))),
  endsWith: member(stringFn('endsWith', (s, t) => s.endsWith(t))),
  matches: both(matches),
  getFullYear: member(timeGetter('getFullYear', t => t.year)),
  getMonth: member(timeGetter('getMonth', t => t.month - 1)),
  getDayOfYear: member(timeGetter('getDayOfYear', t => t.yday)),
  getDayOfMonth: member(timeGetter('getDayOfMonth', t => t.day - 1)),
  getDate: member(timeGetter('getDate', t => t.day)),
  getDayOfWeek: member(timeGetter('getDayOfWeek', t => t.weekday)),
  getHours: member(timeGetter('getHours', t => t.hour, ns => ns / 3_600_000_000_000n)),
  getMinutes: member(timeGetter('getMinutes', t => t.minute, ns => ns / 60_000_000_000n)),
  getSeconds: member(timeGetter('getSeconds', t => t.second, ns => ns / NS)),
  getMilliseconds: member(timeGetter('getMilliseconds', t => t.ms, ns => ns / 1_000_000n)),
  'optional.of': global(([a]) => new CelOptional(a as Val)),
  'optional.ofNonZeroValue': global(([a]) => isZeroValue(a as Val) ? CelOptional.NONE : new CelOptional(a as Val)),
  'optional.none': global(() => CelOptional.NONE),
  hasValue: member(([a]) => a instanceof CelOptional ? a.value !== undefined : noSuchOverload('hasValue', a as Val)),
  value: member(([a]) => a instanceof CelOptional ? a.value ?? new CelError('optional.none() dereference') : noSuchOverload('value', a as Val)),
  'optional.unwrap': global(unwrapOptionals),
  unwrapOpt: member(unwrapOptionals),
  first: member(([a]) => a instanceof CelList ? (a.items.length > 0 ? new CelOptional(a.items[0] as Val) : CelOptional.NONE) : noSuchOverload('first', a as Val)),
  last: member(([a]) => a instanceof CelList ? (a.items.length > 0 ? new CelOptional(a.items[a.items.length - 1] as Val) : CelOptional.NONE) : noSuchOverload('last', a as Val))
}

function unwrapOptionals ([a]: Val[]): Val {
  if (!(a instanceof CelList)) return noSuchOverload('optional.unwrap', a as Val)
  const out: Val[] = []
  for (const x of a.items) {
    if (!(x instanceof CelOptional)) return new CelError(`value ${typeName(x)} is not optional`)
    if (x.value !== undefined) out.push(x.value)
  }
  return new CelList(out)
}

const GO_ZERO_TIME_NS = -62135596800n * NS

/** traits.Zeroer: the zero value of each type (optional.ofNonZeroValue); other values (optionals…) are never zero. */
function isZeroValue (v: Val): boolean {
  if (v === null) return true
  if (typeof v === 'boolean') return !v
  if (typeof v === 'bigint' || typeof v === 'number') return v === 0n || v === 0
  if (typeof v === 'string') return v.length === 0
  if (v instanceof Uint8Array) return v.length === 0
  if (v instanceof CelUint) return v.value === 0n
  // Lists and maps from the object are not Zeroers in Kubernetes: never zero.
  if (v instanceof CelList) return !v.schema && v.items.length === 0
  if (v instanceof CelMap) return !v.schema && v.size === 0
  if (v instanceof CelDuration) return v.ns === 0n
  // time.Time's zero is 0001-01-01T00:00:00Z, not the Unix epoch.
  if (v instanceof CelTimestamp) return v.ns === GO_ZERO_TIME_NS
  return false
}
