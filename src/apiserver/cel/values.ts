// CEL values as this evaluator holds them, following cel-go's runtime types: int is a bigint (int64), double a
// number, uint, timestamps, durations, types and optionals small classes, lists and maps classes that remember how
// Kubernetes built them (an object from a schema with properties, a list with x-kubernetes-list-type set or map,
// whose equality and `+` differ). Errors are values too (CelError), as in cel-go, so that && and || can absorb them.
import { compare as compareBytes } from '../../go/strings.js'
import { escapeName, unescapeName } from './escaping.js'

/** A CEL runtime error; its message is cel-go's. */
export class CelError {
  constructor (readonly message: string) {}
}

/** uint. */
export class CelUint {
  constructor (readonly value: bigint) {}
}

/**
 * google.protobuf.Timestamp, as nanoseconds since the epoch, and the zone offset (seconds east of UTC) it was written
 * with: Go keeps that location, and string() prints it; everything else reads the time in UTC.
 */
export class CelTimestamp {
  constructor (readonly ns: bigint, readonly offset = 0) {}
}

/** google.protobuf.Duration, as nanoseconds (int64 range, as Go's time.Duration). */
export class CelDuration {
  constructor (readonly ns: bigint) {}
}

/** A type value (`int`, `list`, `google.protobuf.Timestamp`…). */
export class CelType {
  constructor (readonly name: string) {}
}

/** optional_type: a value or none. */
export class CelOptional {
  constructor (readonly value: Val | undefined) {}
  static readonly NONE = new CelOptional(undefined)
}

/** A value of a Kubernetes library type (Quantity, IP, CIDR, URL, Semver, NamedFormat). */
export abstract class CelOpaque {
  /** typeName is the CEL type name (`kubernetes.Quantity`, `net.IP`…). */
  abstract readonly typeName: string
  /** equals is the type's own equality (only called with a value of the same type). */
  abstract equals (other: CelOpaque): boolean
}

/** How a list was built: a plain list, or a schema list with x-kubernetes-list-type set or map. */
export type ListKind = { kind: 'list' } | { kind: 'set' } | { kind: 'map', keys: readonly string[] }

/** list. */
export class CelList {
  /** schema is true for a list from the object (its index errors read differently). */
  constructor (readonly items: readonly Val[], readonly listKind: ListKind = { kind: 'list' }, readonly schema = false) {}
}

/** A map key: string, int, uint or bool. */
export type MapKey = string | bigint | CelUint | boolean

/** map; object values of a schema with properties are maps too, with `object` set. */
export class CelMap {
  private readonly byKey = new Map<string, [MapKey, Val]>()
  /**
   * object is true for a schema object with declared properties: field names are then looked up unescaped
   * (`foo__dash__bar` finds `foo-bar`), iterated escaped, and a null field counts as absent. schema is true for any
   * map from the object (declared properties or additionalProperties): a key that is not a string is an error there.
   */
  constructor (entries: Iterable<[MapKey, Val]>, readonly object = false, readonly schema = object) {
    for (const [k, v] of entries) this.byKey.set(keyId(k), [k, v])
  }

  /** size counts every entry, null-valued object fields included (as unstructuredMap.Size). */
  get size (): number { return this.byKey.size }

  /** What a comprehension iterates: the keys (an object's field names escaped) with their values. */
  iterationKeys (): Array<[MapKey, Val]> {
    if (!this.object) return this.entries()
    return this.entries().map(([k, v]) => [typeof k === 'string' ? escapeName(k) ?? k : k, v])
  }

  /** The entries, in insertion order. */
  entries (): Array<[MapKey, Val]> { return [...this.byKey.values()] }

  /**
   * Looks a key up as Kubernetes' unstructuredMap does: an object's field name is unescaped first and a null field
   * is absent; undefined when absent.
   */
  lookup (key: MapKey): Val | undefined {
    if (!this.object) return this.find(key)
    if (typeof key !== 'string') return undefined
    const name = unescapeName(key)
    if (name === undefined) return undefined
    const v = this.find(name)
    return v === null ? undefined : v
  }

  /** Finds a key; undefined when absent. */
  find (key: MapKey): Val | undefined {
    const found = this.byKey.get(keyId(key))
    if (found !== undefined) return found[1]
    // Numeric keys match across int, uint and an integral double (cel-go's heterogeneous map lookup).
    if (typeof key === 'bigint') return this.byKey.get(keyId(new CelUint(key)))?.[1]
    if (key instanceof CelUint) return this.byKey.get(keyId(key.value))?.[1]
    return undefined
  }
}

/** A CEL value. */
export type Val = null | boolean | bigint | number | string | Uint8Array | CelUint | CelTimestamp | CelDuration | CelType |
  CelOptional | CelList | CelMap | CelOpaque | CelError

function keyId (k: MapKey): string {
  if (typeof k === 'string') return 's' + k
  if (typeof k === 'bigint') return 'i' + k.toString()
  if (typeof k === 'boolean') return 'b' + String(k)
  return 'u' + k.value.toString()
}

/** Whether a value can be a map key. */
export function isMapKey (v: Val): v is MapKey {
  return typeof v === 'string' || typeof v === 'bigint' || typeof v === 'boolean' || v instanceof CelUint
}

/** The CEL type name of a value, as cel-go names it in messages (`int`, `list`, `google.protobuf.Timestamp`…). */
export function typeName (v: Val): string {
  if (v === null) return 'null_type'
  switch (typeof v) {
    case 'boolean': return 'bool'
    case 'bigint': return 'int'
    case 'number': return 'double'
    case 'string': return 'string'
  }
  if (v instanceof Uint8Array) return 'bytes'
  if (v instanceof CelUint) return 'uint'
  if (v instanceof CelTimestamp) return 'google.protobuf.Timestamp'
  if (v instanceof CelDuration) return 'google.protobuf.Duration'
  if (v instanceof CelType) return 'type'
  if (v instanceof CelOptional) return 'optional_type'
  if (v instanceof CelList) return 'list'
  if (v instanceof CelMap) return 'map'
  if (v instanceof CelOpaque) return v.typeName
  return 'error'
}

/** Whether cel-go's type has the Receiver trait (string, timestamp, duration): it is asked for unknown functions. */
export const isReceiver = (v: Val): boolean => typeof v === 'string' || v instanceof CelTimestamp || v instanceof CelDuration

/** cel-go's "no such overload" for a function applied to these arguments (the first error argument wins). */
export function noSuchOverload (fn: string, ...args: Val[]): CelError {
  for (const a of args) if (a instanceof CelError) return a
  return new CelError(`no such overload: ${fn}(${args.map(typeName).join(', ')})`)
}

const MIN_INT = -(1n << 63n)
const MAX_INT = (1n << 63n) - 1n

/** An int64 result, or cel-go's overflow error. */
export function checkedInt (v: bigint): bigint | CelError {
  return v < MIN_INT || v > MAX_INT ? new CelError('integer overflow') : v
}

/** A uint64 result, or cel-go's overflow error. */
export function checkedUint (v: bigint): CelUint | CelError {
  return v < 0n || v >= (1n << 64n) ? new CelError('unsigned integer overflow') : new CelUint(v)
}

function numeric (v: Val): number | bigint | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v
  if (v instanceof CelUint) return v.value
  return undefined
}

/** Compares two numbers of any numeric type exactly (NaN compares as undefined). */
function compareNumbers (a: number | bigint, b: number | bigint): number | undefined {
  if (typeof a === 'number' && Number.isNaN(a)) return undefined
  if (typeof b === 'number' && Number.isNaN(b)) return undefined
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0
  // One double, one integer: compare exactly, the double's integral part first.
  const [d, i, sign] = typeof a === 'number' ? [a, b as bigint, 1] : [b as number, a, -1]
  if (d === Infinity) return sign
  if (d === -Infinity) return -sign
  const t = BigInt(Math.trunc(d))
  if (i !== t) return (i < t ? 1 : -1) * sign
  const frac = d - Math.trunc(d)
  return frac === 0 ? 0 : (frac > 0 ? 1 : -1) * sign
}

/** The ordering of <, <=, >, >= (cross-type numeric comparisons on); undefined when the types do not compare. */
export function compare (a: Val, b: Val): number | undefined {
  const na = numeric(a)
  const nb = numeric(b)
  if (na !== undefined && nb !== undefined) return compareNumbers(na, nb)
  if (typeof a === 'string' && typeof b === 'string') return compareBytes(a, b)
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b)
  if (a instanceof CelTimestamp && b instanceof CelTimestamp) return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0
  if (a instanceof CelDuration && b instanceof CelDuration) return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0
  return undefined
}

/** The identity of a scalar for set-list membership (Go compares the decoded values). */
function scalarId (v: Val): string {
  if (typeof v === 'bigint') return 'i' + v.toString()
  if (typeof v === 'number') return 'd' + String(v)
  if (typeof v === 'string') return 's' + v
  if (typeof v === 'boolean') return 'b' + String(v)
  return 'x' + typeName(v)
}

/** The key of a list-type=map item: its key fields' values. */
export function mapListKey (item: Val, keys: readonly string[]): string {
  if (!(item instanceof CelMap)) return 'x'
  return keys.map(k => { const v = item.find(k); return v === undefined ? 'u' : scalarId(v) }).join('\u0000')
}

/** Heterogeneous equality (`==`): true, false, or an error. */
export function equals (a: Val, b: Val): boolean | CelError {
  if (a instanceof CelError) return a
  if (b instanceof CelError) return b
  const na = numeric(a)
  const nb = numeric(b)
  if (na !== undefined && nb !== undefined) return compareNumbers(na, nb) === 0
  if (a === null || b === null) return a === b
  if (typeof a !== 'object' || typeof b !== 'object') return a === b
  if (a instanceof Uint8Array) return b instanceof Uint8Array && Buffer.compare(a, b) === 0
  if (a instanceof CelTimestamp) return b instanceof CelTimestamp && a.ns === b.ns
  if (a instanceof CelDuration) return b instanceof CelDuration && a.ns === b.ns
  if (a instanceof CelType) return b instanceof CelType && a.name === b.name
  if (a instanceof CelOptional) {
    if (!(b instanceof CelOptional)) return false
    if (a.value === undefined || b.value === undefined) return a.value === b.value
    return equals(a.value, b.value)
  }
  if (a instanceof CelOpaque) return b instanceof CelOpaque && a.typeName === b.typeName && a.equals(b)
  if (a instanceof CelList) return b instanceof CelList ? listEquals(a, b) : false
  if (a instanceof CelMap) return b instanceof CelMap ? mapEquals(a, b) : false
  return false
}

function listEquals (a: CelList, b: CelList): boolean | CelError {
  if (a.items.length !== b.items.length) return false
  if (a.listKind.kind === 'set') {
    const set = new Set(a.items.map(scalarId))
    return b.items.every(x => set.has(scalarId(x)))
  }
  if (a.listKind.kind === 'map') {
    const keys = a.listKind.keys
    const byKey = new Map(a.items.map(x => [mapListKey(x, keys), x]))
    for (const x of b.items) {
      const mine = byKey.get(mapListKey(x, keys))
      if (mine === undefined) return false
      const eq = equals(mine, x)
      if (eq !== true) return eq
    }
    return true
  }
  for (let i = 0; i < a.items.length; i++) {
    const eq = equals(a.items[i] as Val, b.items[i] as Val)
    if (eq !== true) return eq
  }
  return true
}

function mapEquals (a: CelMap, b: CelMap): boolean | CelError {
  if (a.size !== b.size) return false
  for (const [k, v] of a.entries()) {
    const mine = a.object && v === null ? undefined : v
    const other = b.object && typeof k === 'string' && b.find(k) === null ? undefined : b.find(k)
    if ((mine === undefined) !== (other === undefined)) return false
    if (mine === undefined || other === undefined) continue
    const eq = equals(mine, other)
    if (eq !== true) return eq
  }
  return true
}
