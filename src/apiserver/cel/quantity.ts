// Kubernetes' quantity library (quantity(), isQuantity(), sign(), isInteger, asInteger, asApproximateFloat, add,
// sub, compareTo, isGreaterThan, isLessThan) over resource.Quantity. Its two representations matter and are kept:
// a small value parses to an int64 amount (value × 10^scale), anything else to an arbitrary-precision decimal
// rounded up to nanos; isInteger and asInteger only succeed for an int64 amount with a scale of 0 or more (so
// quantity('1.0').isInteger() is false, as in Go), and asApproximateFloat computes as Go does.
import type { FunctionDef, Impl } from './stdlib.js'
import { CelError, CelOpaque, noSuchOverload, type Val } from './values.js'

const FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
const MAX_INT64 = (1n << 63n) - 1n
const MIN_INT64 = -(1n << 63n)

/** kubernetes.Quantity: unscaled × 10^exp, held as Go's int64Amount (dec false) or inf.Dec (dec true). */
export class Quantity extends CelOpaque {
  readonly typeName = 'kubernetes.Quantity'
  constructor (readonly unscaled: bigint, readonly exp: number, readonly dec: boolean) { super() }
  equals (other: CelOpaque): boolean { return other instanceof Quantity && compareQuantities(this, other) === 0 }
}

const fits = (v: bigint) => v >= MIN_INT64 && v <= MAX_INT64

/** The two values at a common exponent. */
function align (a: Quantity, b: Quantity): [bigint, bigint] {
  const e = Math.min(a.exp, b.exp)
  return [a.unscaled * 10n ** BigInt(a.exp - e), b.unscaled * 10n ** BigInt(b.exp - e)]
}

function compareQuantities (a: Quantity, b: Quantity): number {
  const [x, y] = align(a, b)
  return x < y ? -1 : x > y ? 1 : 0
}

const DECIMAL: Record<string, number> = { '': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 }
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 }

/** resource.ParseQuantity; throws an Error with Kubernetes' message. */
function parseQuantity (str: string): Quantity {
  if (str.length === 0) throw new Error(FORMAT_ERROR)
  if (str === '0') return new Quantity(0n, 0, false)
  const m = /^([+-]?)(0*)([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(str) as RegExpExecArray
  const negative = m[1] === '-'
  const num = m[3] === '' ? '0' : m[3] as string
  const denom = m[4] ?? ''
  const suffix = m[5] as string
  if (!/^[eEinumkKMGTP]*[-+]?[0-9]*$/.test(suffix)) throw new Error(FORMAT_ERROR)
  let base: 2 | 10
  let exponent: number
  if (Object.hasOwn(DECIMAL, suffix)) { base = 10; exponent = DECIMAL[suffix] as number } else if (Object.hasOwn(BINARY, suffix)) { base = 2; exponent = BINARY[suffix] as number } else if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?[0-9]+$/.test(suffix.slice(1)) && fits(BigInt(suffix.slice(1)))) {
    base = 10
    exponent = Number(suffix.slice(1))
  } else {
    throw new Error("unable to parse quantity's suffix")
  }
  // The int64 fast path.
  let precision: number
  let scale = 0
  let mantissa = 1n
  if (base === 10) {
    scale = exponent
    precision = 18 - (num.length + denom.length)
  } else if (exponent >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(exponent)
    precision = 15 - num.length - Math.trunc(Math.fround(exponent * 3 / 10)) - 1
  } else {
    precision = -1
  }
  if (precision >= 0) {
    scale -= denom.length
    if (scale >= -9) {
      const shifted = BigInt(num + denom)
      if (!fits(shifted)) throw new Error('unable to parse numeric part of quantity')
      const result = shifted * mantissa
      if (fits(result)) return new Quantity(negative ? -result : result, scale, false)
    }
  }
  // The inf.Dec path: value × base^exponent, rounded away from zero to nanos, binary capped at the largest int64.
  if (m[2] === '' && m[3] === '' && m[4] === undefined) throw new Error('unable to parse numeric part of quantity')
  let unscaled = BigInt(num + denom)
  let exp = -denom.length
  if (base === 10) exp += exponent
  else unscaled *= 1n << BigInt(exponent)
  // inf.Dec's Round(…, 9, RoundUp) leaves the value at exactly nine decimals.
  if (unscaled !== 0n && exp < -9) {
    const div = 10n ** BigInt(-9 - exp)
    unscaled = unscaled / div + (unscaled % div === 0n ? 0n : 1n)
    exp = -9
  } else if (unscaled !== 0n) {
    unscaled *= 10n ** BigInt(exp + 9)
    exp = -9
  }
  if (base === 2 && compareQuantities(new Quantity(unscaled, exp, true), new Quantity(MAX_INT64, 0, true)) > 0) {
    unscaled = MAX_INT64
    exp = 0
  }
  return new Quantity(negative ? -unscaled : unscaled, exp, true)
}

/** int64Amount.Add: stays an int64 amount when it can (scales aligned down, no overflow). */
function addAmounts (a: Quantity, b: Quantity): Quantity {
  if (!a.dec && !b.dec) {
    if (b.unscaled === 0n) return a
    if (a.unscaled === 0n) return b
    const e = Math.min(a.exp, b.exp)
    const x = a.unscaled * 10n ** BigInt(a.exp - e)
    const y = b.unscaled * 10n ** BigInt(b.exp - e)
    if (fits(x) && fits(y) && fits(x + y)) return new Quantity(x + y, e, false)
  }
  const [x, y] = align(a, b)
  return new Quantity(x + y, Math.min(a.exp, b.exp), true)
}

const negate = (q: Quantity) => new Quantity(-q.unscaled, q.exp, q.dec)

/** math.Pow10 as Go computes it (exact powers, divided for negative exponents). */
const pow10 = (n: number) => n >= 0 ? Number(`1e${n}`) : 1 / Number(`1e${-n}`)

function asInt64 (q: Quantity): bigint | undefined {
  if (q.dec || q.exp < 0) return undefined
  const v = q.unscaled * 10n ** BigInt(q.exp)
  return fits(v) ? v : undefined
}

function member (fn: string, impl: (a: Quantity, ...rest: Val[]) => Val): FunctionDef {
  return { member: (args) => args[0] instanceof Quantity ? impl(args[0], ...args.slice(1)) : noSuchOverload(fn, ...args) }
}

function withOther (fn: string, impl: (a: Quantity, b: Quantity) => Val, allowInt = false): FunctionDef {
  return member(fn, (a, b) => {
    if (b instanceof Quantity) return impl(a, b)
    if (allowInt && typeof b === 'bigint') return impl(a, new Quantity(b, 0, false))
    return noSuchOverload(fn, a, b as Val)
  })
}

const toQuantity: Impl = ([s]) => {
  if (typeof s !== 'string') return noSuchOverload('quantity', s as Val)
  try { return parseQuantity(s) } catch (err) { return new CelError((err as Error).message) }
}

/** The quantity library, by function name. */
export const QUANTITY_FUNCTIONS: Record<string, FunctionDef> = {
  quantity: { global: toQuantity },
  isQuantity: {
    global: ([s]) => {
      if (typeof s !== 'string') return noSuchOverload('isQuantity', s as Val)
      try { parseQuantity(s); return true } catch { return false }
    }
  },
  sign: { global: ([a]) => a instanceof Quantity ? (a.unscaled > 0n ? 1n : a.unscaled < 0n ? -1n : 0n) : noSuchOverload('sign', a as Val) },
  isInteger: member('isInteger', a => asInt64(a) !== undefined),
  asInteger: member('asInteger', a => asInt64(a) ?? new CelError('cannot convert value to integer')),
  asApproximateFloat: member('asApproximateFloat', a => a.exp === 0 ? Number(a.unscaled) : Number(a.unscaled) * pow10(a.exp)),
  add: withOther('add', (a, b) => addAmounts(a, b), true),
  sub: withOther('sub', (a, b) => addAmounts(a, negate(b)), true),
  compareTo: withOther('compareTo', (a, b) => BigInt(compareQuantities(a, b))),
  isGreaterThan: withOther('isGreaterThan', (a, b) => compareQuantities(a, b) > 0),
  isLessThan: withOther('isLessThan', (a, b) => compareQuantities(a, b) < 0)
}
