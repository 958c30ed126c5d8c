// Field selection, indexing and membership (`a.f`, `a[k]`, `a.?f`, `a[?k]`, `k in x`) with cel-go's semantics and
// messages, on the values of values.ts: an object's fields are looked up unescaped and a null field is absent; a list
// from the object says `index out of bounds`, a literal list `index '5' out of range in list size '2'`.
import { formatFloat } from '../../go/strconv.js'
import { CelError, CelList, CelMap, CelOptional, CelUint, equals, isMapKey, typeName, type MapKey, type Val } from './values.js'

/** %v of a map key or index in cel-go messages. */
export function keyString (v: Val): string {
  if (typeof v === 'number') return formatFloat(v, 'g', -1)
  if (v instanceof CelUint) return v.value.toString()
  if (v === null) return '<nil>'
  return String(v)
}

/**
 * Field selection on a value (`a.f`), with has() (test) and optional (`a.?f`) variants, as cel-go's attribute
 * qualifiers resolve it: a list takes the field name as an index (an error), any other value has no fields (absent
 * for has() and `.?`, `no such key` otherwise).
 */
export function select (operand: Val, field: string, test: boolean, optional: boolean): Val {
  if (operand instanceof CelError) return operand
  if (operand instanceof CelOptional) {
    if (operand.value === undefined) return CelOptional.NONE
    return select(operand.value, field, test, true)
  }
  if (operand instanceof CelList) return listIndex(operand, field, optional)
  const v = operand instanceof CelMap ? operand.lookup(field) : undefined
  if (test) return v !== undefined
  if (optional) return v === undefined ? CelOptional.NONE : new CelOptional(v)
  return v === undefined ? new CelError(`no such key: ${field}`) : v
}

/** List indexing as cel-go's attribute qualifiers do it (IndexOrError, then `index out of bounds: i`). */
function listIndex (list: CelList, index: Val, optional: boolean): Val {
  let i: bigint
  if (typeof index === 'bigint') i = index
  else if (typeof index === 'number' && Number.isInteger(index) && Math.abs(index) < 2 ** 63) i = BigInt(index)
  else if (index instanceof CelUint && index.value < (1n << 63n)) i = index.value
  else if (typeof index === 'number' || index instanceof CelUint) return new CelError(`unsupported index value ${keyString(index)} in list`)
  else return new CelError(`unsupported index type '${typeName(index)}' in list`)
  if (i < 0n || i >= BigInt(list.items.length)) {
    if (optional) return CelOptional.NONE
    return new CelError(`index out of bounds: ${keyString(index)}`)
  }
  const v = list.items[Number(i)] as Val
  return optional ? new CelOptional(v) : v
}

/** Indexing (`a[k]`) and optional indexing (`a[?k]`). */
export function index (operand: Val, key: Val, optional: boolean): Val {
  if (operand instanceof CelError) return operand
  if (key instanceof CelError) return key
  if (operand instanceof CelOptional) {
    if (operand.value === undefined) return CelOptional.NONE
    return index(operand.value, key, true)
  }
  if (operand instanceof CelList) return listIndex(operand, key, optional)
  let v: Val | undefined
  if (operand instanceof CelMap) {
    let k: MapKey | undefined
    if (isMapKey(key)) k = key
    else if (typeof key === 'number' && Number.isInteger(key)) k = BigInt(key)
    // A map from the object only takes string keys (its Find fails); a CEL map just has no such key.
    if (operand.schema && typeof k !== 'string') return new CelError('no such overload')
    if (k !== undefined) v = operand.lookup(k)
  }
  // Any other value has no keys: absent for `[?k]`, `no such key` otherwise.
  if (optional) return v === undefined ? CelOptional.NONE : new CelOptional(v)
  return v === undefined ? new CelError(`no such key: ${keyString(key)}`) : v
}

/** `x in y`. */
export function inOperator (elem: Val, container: Val): Val {
  if (elem instanceof CelError) return elem
  if (container instanceof CelError) return container
  if (container instanceof CelList) {
    let firstError: CelError | undefined
    for (const item of container.items) {
      const eq = equals(item, elem)
      if (eq === true) return true
      if (eq instanceof CelError && container.schema) firstError ??= eq
    }
    return firstError ?? false
  }
  if (container instanceof CelMap) {
    let k: MapKey | undefined
    if (isMapKey(elem)) k = elem
    else if (typeof elem === 'number' && Number.isInteger(elem)) k = BigInt(elem)
    if (container.schema && typeof k !== 'string') return new CelError('no such overload')
    return k !== undefined && container.lookup(k) !== undefined
  }
  return new CelError('no such overload')
}
