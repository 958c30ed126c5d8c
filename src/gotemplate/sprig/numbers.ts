// sprig's numeric functions (numeric.go and the arithmetic entries of functions.go): int64 arithmetic that wraps
// like Go's (and panics on division by zero), conversions through spf13/cast, the float functions with
// shopspring/decimal's exact arithmetic (division rounded half away from zero at 16 places), and seq.
import { sprint } from '../fmt.js'
import { fn, GoCallError, type GoFunc, GoInt, type GoValue, goInt, IFACE } from '../values.js'
import { toFloat64, toInt64 } from './cast.js'
import { untilStep } from './lists.js'

const I64 = 'int64'
const F64 = 'float64'

function i64 (v: bigint): GoInt { return new GoInt('int64', BigInt.asIntN(64, v)) }

/** A decimal: coef × 10^exp. */
interface Decimal { coef: bigint, exp: number }

function fromFloat (f: number): Decimal {
  if (!Number.isFinite(f)) throw new GoCallError(`Cannot create a Decimal from ${sprint([f])}`)
  if (f === 0) return { coef: 0n, exp: 0 }
  const [mant, e] = Math.abs(f).toExponential().split('e') as [string, string]
  const digits = mant.replace('.', '')
  const exp = Number(e) - (digits.length - 1)
  return { coef: (f < 0 ? -1n : 1n) * BigInt(digits), exp }
}

function align (a: Decimal, b: Decimal): [bigint, bigint, number] {
  const exp = Math.min(a.exp, b.exp)
  return [a.coef * 10n ** BigInt(a.exp - exp), b.coef * 10n ** BigInt(b.exp - exp), exp]
}

function toFloat (d: Decimal): number { return Number(`${d.coef}e${d.exp}`) }

const DIVISION_PRECISION = 16

function div (a: Decimal, b: Decimal): Decimal {
  if (b.coef === 0n) throw new GoCallError('decimal division by 0')
  // a / b × 10^16, truncated, then rounded half away from zero on the remainder.
  let num = a.coef
  let den = b.coef
  const shift = a.exp - b.exp + DIVISION_PRECISION
  if (shift >= 0) num *= 10n ** BigInt(shift)
  else den *= 10n ** BigInt(-shift)
  let q = num / den
  const rem = num - q * den
  const abs = (x: bigint): bigint => x < 0n ? -x : x
  if (2n * abs(rem) >= abs(den)) q += (num < 0n) !== (den < 0n) ? -1n : 1n
  return { coef: q, exp: -DIVISION_PRECISION }
}

type Op = (a: Decimal, b: Decimal) => Decimal
const add: Op = (a, b) => { const [x, y, e] = align(a, b); return { coef: x + y, exp: e } }
const sub: Op = (a, b) => { const [x, y, e] = align(a, b); return { coef: x - y, exp: e } }
const mul: Op = (a, b) => ({ coef: a.coef * b.coef, exp: a.exp + b.exp })

function decimalOp (first: GoValue, rest: GoValue[], op: Op): number {
  let acc = fromFloat(toFloat64(first))
  for (const x of rest) acc = op(acc, fromFloat(toFloat64(x)))
  return toFloat(acc)
}

function pow10 (p: number): number {
  if (p >= 0) return p <= 308 ? Number(10n ** BigInt(p)) : Infinity
  return 1 / pow10(-p)
}

function round (a: GoValue, p: GoInt, ...opt: number[]): number {
  const roundOn = opt.length > 0 ? opt[0] as number : 0.5
  const val = toFloat64(a)
  const pow = pow10(Number(p.v))
  const digit = pow * val
  const frac = Number.isFinite(digit) ? digit - Math.trunc(digit) : NaN
  return (frac >= roundOn ? Math.ceil(digit) : Math.floor(digit)) / pow
}

function atoi (s: string): GoInt {
  const m = /^[+-]?[0-9]+$/.exec(s)
  if (m === null) return goInt(0)
  const v = BigInt(s)
  const max = (1n << 63n) - 1n
  return goInt(v > max ? max : v < -max - 1n ? -max - 1n : v)
}

function toDecimal (v: GoValue): GoInt {
  const s = sprint([v])
  if (!/^[+-]?[0-7]+$/.test(s)) return i64(0n)
  const n = BigInt(s.replace(/^([+-]?)/, '$10o'))
  if (n >= 1n << 63n || n < -(1n << 63n)) return i64(0n)
  return i64(n)
}

function seq (...params: GoInt[]): string {
  const p = params.map(x => x.v)
  let list
  switch (p.length) {
    case 1: {
      const end = p[0] as bigint
      const inc = end < 1n ? -1n : 1n
      list = untilStep(1n, end + inc, inc)
      break
    }
    case 2: {
      const [start, end] = p as [bigint, bigint]
      const step = end < start ? -1n : 1n
      list = untilStep(start, end + step, step)
      break
    }
    case 3: {
      const [start, step, end] = p as [bigint, bigint, bigint]
      let inc = 1n
      if (end < start) {
        inc = -1n
        if (step > 0n) return ''
      }
      list = untilStep(start, end + inc, step)
      break
    }
    default: return ''
  }
  return (list.items ?? []).map(x => (x as GoInt).v.toString()).join(' ')
}

function divide (a: GoValue, b: GoValue, op: (x: bigint, y: bigint) => bigint): GoInt {
  const y = toInt64(b)
  if (y === 0n) throw new GoCallError('runtime error: integer divide by zero')
  return i64(op(toInt64(a), y))
}

/** The numeric functions of sprig's hermetic map. */
export const NUMBERS: Record<string, GoFunc> = {
  atoi: fn(['string'], 'int', atoi),
  int64: fn([IFACE], I64, (v: GoValue) => i64(toInt64(v))),
  int: fn([IFACE], 'int', (v: GoValue) => goInt(toInt64(v))),
  float64: fn([IFACE], F64, toFloat64),
  seq: fn(['int'], 'string', seq, { variadic: true }),
  toDecimal: fn([IFACE], I64, toDecimal),
  add1: fn([IFACE], I64, (v: GoValue) => i64(toInt64(v) + 1n)),
  add: fn([IFACE], I64, (...xs: GoValue[]) => i64(xs.reduce((acc: bigint, x) => BigInt.asIntN(64, acc + toInt64(x)), 0n)), { variadic: true }),
  sub: fn([IFACE, IFACE], I64, (a: GoValue, b: GoValue) => i64(toInt64(a) - toInt64(b))),
  div: fn([IFACE, IFACE], I64, (a: GoValue, b: GoValue) => divide(a, b, (x, y) => x / y)),
  mod: fn([IFACE, IFACE], I64, (a: GoValue, b: GoValue) => divide(a, b, (x, y) => x % y)),
  mul: fn([IFACE, IFACE], I64, (a: GoValue, ...xs: GoValue[]) => i64(xs.reduce((acc: bigint, x) => BigInt.asIntN(64, acc * toInt64(x)), toInt64(a))), { variadic: true }),
  add1f: fn([IFACE], F64, (v: GoValue) => decimalOp(v, [goInt(1)], add)),
  addf: fn([IFACE], F64, (...xs: GoValue[]) => decimalOp(0, xs, add), { variadic: true }),
  subf: fn([IFACE, IFACE], F64, (a: GoValue, ...xs: GoValue[]) => decimalOp(a, xs, sub), { variadic: true }),
  divf: fn([IFACE, IFACE], F64, (a: GoValue, ...xs: GoValue[]) => decimalOp(a, xs, div), { variadic: true }),
  mulf: fn([IFACE, IFACE], F64, (a: GoValue, ...xs: GoValue[]) => decimalOp(a, xs, mul), { variadic: true }),
  biggest: fn([IFACE, IFACE], I64, (a: GoValue, ...xs: GoValue[]) => i64(xs.reduce((m: bigint, x) => { const v = toInt64(x); return v > m ? v : m }, toInt64(a))), { variadic: true }),
  max: fn([IFACE, IFACE], I64, (a: GoValue, ...xs: GoValue[]) => i64(xs.reduce((m: bigint, x) => { const v = toInt64(x); return v > m ? v : m }, toInt64(a))), { variadic: true }),
  min: fn([IFACE, IFACE], I64, (a: GoValue, ...xs: GoValue[]) => i64(xs.reduce((m: bigint, x) => { const v = toInt64(x); return v < m ? v : m }, toInt64(a))), { variadic: true }),
  maxf: fn([IFACE, IFACE], F64, (a: GoValue, ...xs: GoValue[]) => xs.reduce((m: number, x) => Math.max(m, toFloat64(x)), toFloat64(a)), { variadic: true }),
  minf: fn([IFACE, IFACE], F64, (a: GoValue, ...xs: GoValue[]) => xs.reduce((m: number, x) => Math.min(m, toFloat64(x)), toFloat64(a)), { variadic: true }),
  ceil: fn([IFACE], F64, (v: GoValue) => Math.ceil(toFloat64(v))),
  floor: fn([IFACE], F64, (v: GoValue) => Math.floor(toFloat64(v))),
  round: fn([IFACE, 'int', F64], F64, round, { variadic: true })
}
