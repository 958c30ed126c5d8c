// The conversions sprig's functions apply to their interface{} arguments: spf13/cast v1.10.0's ToInt64, ToInt and
// ToFloat64 (errors read as 0), and sprig's strval (a string as is, a Stringer's String, else fmt's %v).
import { sprintV } from '../fmt.js'
import { parseFloat, parseInt } from '../../go/strconv.js'
import { floatToInt64, GoInt, GoObject, type GoValue, isUnsignedKind } from '../values.js'

// cast's trimDecimal: a decimal string loses its fraction before integer parsing ("3.7" → "3").
const DECIMAL = /^([-+]?\d*)(\.\d*)?$/

function trimDecimal (s: string): string {
  if (!s.includes('.')) return s
  const m = DECIMAL.exec(s)
  if (m === null) return s
  const int = m[1] as string
  return int === '-' || int === '+' ? int + '0' : int === '' ? '0' : int
}

/** cast.ToInt64 (and ToInt: Go's int is 64 bits). */
export function toInt64 (v: GoValue): bigint {
  if (v === null) return 0n
  switch (typeof v) {
    case 'boolean': return v ? 1n : 0n
    case 'number': return floatToInt64(v)
    case 'string': {
      if (v === '') return 0n
      const r = parseInt(trimDecimal(v))
      return r.ok ? r.v : 0n
    }
  }
  if (v instanceof GoInt) return BigInt.asIntN(64, v.v)
  return 0n
}

/** cast.ToFloat64. */
export function toFloat64 (v: GoValue): number {
  if (v === null) return 0
  switch (typeof v) {
    case 'boolean': return v ? 1 : 0
    case 'number': return v
    case 'string': {
      if (v === '') return 0
      const r = parseFloat(v)
      return r.ok ? r.v : 0
    }
  }
  if (v instanceof GoInt) return isUnsignedKind(v.type) ? Number(BigInt.asUintN(64, v.v)) : Number(v.v)
  return 0
}

/** sprig's strval: how most sprig functions turn a value into a string. */
export function strval (v: GoValue): string {
  if (typeof v === 'string') return v
  if (v instanceof GoObject) return v.toString()
  return sprintV(v)
}
