// The Go value model the engine evaluates templates over. Go's text/template sees data through reflect; here the
// values Cluster API hands it (encoding/json's decoding into interface{}) and the values builtins and sprig return are
// modelled with their Go types, because messages, printing and comparisons depend on the exact type:
//
//   Go                          here
//   string, bool, float64       string, boolean, number
//   int, int64, uint64, uint8…  GoInt (a bigint and its type name)
//   []T                         GoSlice (type name; items, or null for a nil slice)
//   map[string]T                GoMap (type name; entries, or null for a nil map)
//   *semver.Version and others  GoObject (a type name, a String method, methods for templates)
//   nil interface{}             null
//
// A Go string is a sequence of bytes; here it is a JS string of valid Unicode. Byte-indexed operations (len,
// index, substr, trunc…) measure UTF-8 and refuse (Unsupported) to cut a multi-byte character, since the result
// would not be valid text.
import { compare } from '../go/strings.js'

/** A Go integer of a named integer type (int is 64 bits, as on Cluster API's platforms). */
export class GoInt {
  constructor (readonly type: IntType, readonly v: bigint) {}
}

/** The integer types the engine produces. */
export type IntType = 'int' | 'int64' | 'int32' | 'int16' | 'int8' | 'uint' | 'uint64' | 'uint32' | 'uint16' | 'uint8' | 'uintptr'

/** A Go slice: `items` is null for a nil slice. */
export class GoSlice {
  constructor (readonly type: string, public items: GoValue[] | null) {}
}

/** A Go map with string keys: `entries` is null for a nil map. */
export class GoMap {
  constructor (readonly type: string, public entries: Map<string, GoValue> | null) {}
}

/** A value of another Go type (e.g. *semver.Version): its type name, how fmt prints it, its methods. */
export abstract class GoObject {
  /** The Go type name, as %T prints it. */
  abstract readonly type: string
  /** The reflect kind name, as sprig's kindOf reports it. */
  abstract readonly kind: string
  /** What fmt prints for the value (its String method), or undefined when it has none. */
  abstract toString (): string
  /** The value's JSON encoding (its MarshalJSON), or undefined when encoding/json would walk it. */
  abstract toJSON (): string | undefined
  /** The methods a template may call on the value, by name. */
  methods (): Record<string, GoFunc> { return {} }
}

/** Any Go value the engine handles; null is the nil interface. */
export type GoValue = null | string | boolean | number | GoInt | GoSlice | GoMap | GoObject

/** The zero reflect.Value: no value at all (a missing map key, an unset variable). */
export const INVALID: unique symbol = Symbol('invalid')

/** A value held in an interface{} slot (an element of []interface{} or map[string]interface{}); v null is a nil interface. */
export class Iface {
  constructor (readonly v: GoValue) {}
}

/** What reflect.Value is to Go's exec: a Go value, a value in an interface slot, or no value. */
export type RValue = GoValue | Iface | typeof INVALID

/** The signature and implementation of a template function. */
export interface GoFunc {
  /** Parameter types; the last is the element type when variadic. `reflect.Value` parameters receive RValues. */
  readonly params: readonly string[]
  readonly variadic: boolean
  /** The result type ('interface {}' results are interface slots, 'reflect.Value' results are unwrapped). */
  readonly result: string
  /** The function also returns an error (Go's second result). */
  readonly returnsError?: boolean
  readonly impl: (...args: any[]) => RValue
}

/** Builds a GoFunc. */
export function fn (params: readonly string[], result: string, impl: (...args: any[]) => RValue, opts: { variadic?: boolean, returnsError?: boolean } = {}): GoFunc {
  return { params, result, impl, variadic: opts.variadic ?? false, returnsError: opts.returnsError }
}

/** An error a function returns (Go's `return nil, err`) or panics with: exec reports `error calling NAME: MESSAGE`. */
export class GoCallError extends Error {}

/** A construct the engine will not evaluate because it cannot do so exactly as Go does. */
export class Unsupported extends Error {}

export const IFACE = 'interface {}'
export const MAP_IFACE = 'map[string]interface {}'
export const SLICE_IFACE = '[]interface {}'
export const REFLECT_VALUE = 'reflect.Value'

/** A Go int. */
export function goInt (v: bigint | number, type: IntType = 'int'): GoInt {
  const n = typeof v === 'number' ? BigInt(v) : v
  return new GoInt(type, wrapInt(n, type))
}

/** Wraps a bigint to the range of the integer type, as Go's conversions do. */
export function wrapInt (v: bigint, type: IntType): bigint {
  switch (type) {
    case 'int': case 'int64': return BigInt.asIntN(64, v)
    case 'int32': return BigInt.asIntN(32, v)
    case 'int16': return BigInt.asIntN(16, v)
    case 'int8': return BigInt.asIntN(8, v)
    case 'uint8': return BigInt.asUintN(8, v)
    case 'uint16': return BigInt.asUintN(16, v)
    case 'uint32': return BigInt.asUintN(32, v)
    default: return BigInt.asUintN(64, v)
  }
}

const TWO63 = 2 ** 63

/** Go's float64 → int64 conversion on amd64 (out-of-range and NaN give the minimum int64). */
export function floatToInt64 (x: number): bigint {
  if (Number.isNaN(x) || x >= TWO63 || x < -TWO63) return -(1n << 63n)
  return BigInt(Math.trunc(x))
}

/** The Go type of a value (undefined for the nil interface). */
export function typeOf (v: GoValue): string | undefined {
  if (v === null) return undefined
  switch (typeof v) {
    case 'string': return 'string'
    case 'boolean': return 'bool'
    case 'number': return 'float64'
  }
  return (v as GoInt | GoSlice | GoMap | GoObject).type
}

/** The reflect kind of a type name. */
export function kindOfType (type: string): string {
  if (type.startsWith('[]')) return 'slice'
  if (type.startsWith('map[')) return 'map'
  if (type.startsWith('*')) return 'ptr'
  if (type === IFACE) return 'interface'
  if (type === REFLECT_VALUE) return 'struct'
  return type
}

/** The reflect kind of a value ('invalid' for nil). */
export function kindOf (v: GoValue): string {
  if (v instanceof GoObject) return v.kind
  const t = typeOf(v)
  return t === undefined ? 'invalid' : kindOfType(t)
}

/** The element type of a slice or map type. */
export function elemType (type: string): string {
  if (type.startsWith('[]')) return type.slice(2)
  if (type.startsWith('map[string]')) return type.slice('map[string]'.length)
  throw new Error(`no element type: ${type}`)
}

const INT_KINDS = new Set(['int', 'int64', 'int32', 'int16', 'int8'])
const UINT_KINDS = new Set(['uint', 'uint64', 'uint32', 'uint16', 'uint8', 'uintptr'])

/** True for Go's signed integer kinds. */
export function isSignedKind (kind: string): boolean { return INT_KINDS.has(kind) }
/** True for Go's unsigned integer kinds. */
export function isUnsignedKind (kind: string): boolean { return UINT_KINDS.has(kind) }

/** The zero value of a type (reflect.Zero). */
export function zeroOf (type: string): GoValue {
  const kind = kindOfType(type)
  if (kind === 'slice') return new GoSlice(type, null)
  if (kind === 'map') return new GoMap(type, null)
  if (kind === 'string') return ''
  if (kind === 'bool') return false
  if (kind === 'float64' || kind === 'float32') return 0
  if (INT_KINDS.has(kind) || UINT_KINDS.has(kind)) return new GoInt(kind as IntType, 0n)
  return null
}

/** True when a nil can be assigned to the type (canBeNil). */
export function canBeNil (type: string): boolean {
  const kind = kindOfType(type)
  return kind === 'slice' || kind === 'map' || kind === 'ptr' || kind === 'interface' || kind === 'func' || type === REFLECT_VALUE
}

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })

/** The UTF-8 bytes of a Go string. */
export function utf8Bytes (s: string): Uint8Array { return encoder.encode(s) }

/** The Go string of UTF-8 bytes; refuses bytes that are not valid UTF-8 (Go would keep them as they are). */
export function fromUtf8 (bytes: Uint8Array, what: string): string {
  try {
    return decoder.decode(bytes)
  } catch {
    throw new Unsupported(`${what} is not valid UTF-8`)
  }
}

/** s[i:j] in bytes, as Go slices a string. */
export function byteSlice (s: string, i: number, j: number): string {
  if (isAscii(s)) return s.slice(i, j)
  return fromUtf8(utf8Bytes(s).subarray(i, j), 'a byte range of a string that cuts a multi-byte character')
}

/** True when every character is ASCII (byte offsets equal string offsets). */
export function isAscii (s: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(s)
}

/** The map's keys in Go's sorted order (fmt and range sort string keys). */
export function sortedKeys (m: Map<string, GoValue>): string[] {
  return [...m.keys()].sort(compare)
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** A lone surrogate (invalid in UTF-8) becomes U+FFFD, as encoding/json decodes it. */
export function wellFormed (s: string): string {
  return s.replace(LONE_SURROGATE, '\ufffd')
}

/** Converts a JSON value into what encoding/json decodes into interface{}. */
export function fromJSON (v: unknown): GoValue {
  if (v === null || v === undefined) return null
  switch (typeof v) {
    case 'string': return wellFormed(v)
    case 'number': return v
    case 'boolean': return v
  }
  if (Array.isArray(v)) return new GoSlice(SLICE_IFACE, v.map(fromJSON))
  const m = new Map<string, GoValue>()
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) m.set(wellFormed(k), fromJSON(x))
  return new GoMap(MAP_IFACE, m)
}

/** The element type's interface-ness decides whether an element is held in an interface slot. */
export function slot (elem: string, v: GoValue): RValue {
  return elem === IFACE ? new Iface(v) : v
}

/** The Go value a function parameter of type interface{} receives (nil for no value). */
export function toIface (v: RValue): GoValue {
  if (v === INVALID) return null
  if (v instanceof Iface) return v.v
  return v
}

/** The type of an RValue as reflect reports it ('interface {}' for an interface slot). */
export function rtypeOf (v: RValue): string | undefined {
  if (v === INVALID) return undefined
  if (v instanceof Iface) return IFACE
  return typeOf(v)
}
