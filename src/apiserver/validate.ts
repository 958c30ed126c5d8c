// OpenAPI value validation as the API server runs it on a custom resource (apiextensions' ValidateCustomResource over
// kube-openapi's SchemaValidator): the same checks in the same order, the same "in body" messages, and the same
// mapping of them to field errors (enum as Unsupported value, maxLength as Too long, a type error as Invalid value
// of the JSON type, a failed anyOf on the `<nil>` path). Which anyOf/oneOf branch's errors are reported depends on
// kube-openapi's match counts, so those are counted the same way.
//
// Order: Go visits an object's properties in random order, so the API server's error order varies between requests;
// here properties are visited in the order the schema declares them, and an object's other keys in their order.
import { spend } from '../budget/index.js'
import { effectiveFormat, checkFormat, isStringFormat } from './formats.js'
import { type FieldError, type FieldPath, childPath, invalid, notSupported, required, tooLong, tooMany, typeInvalid } from './field-error.js'
import { GoFloat64, goJson, goValue } from './go-format.js'
import { runeCount } from '../go/utf8.js'
import { formatFloat, quote as goQuote } from '../go/strconv.js'
import { matchString } from '../go/index.js'
import type { JSONSchemaProps } from './schema.js'

/** A kube-openapi error before it becomes a field error. */
interface OErr {
  kind: 'required' | 'enum' | 'tooLong' | 'maxItems' | 'tooManyProperties' | 'invalidType' | 'other' | 'plain'
  name: string
  /** The value the error carries (undefined when Go's is nil). */
  value?: unknown
  valid?: number
  values?: unknown[]
  message: string
}

interface Result { errors: OErr[], matchCount: number }

const newResult = (): Result => ({ errors: [], matchCount: 0 })

function addErrors (r: Result, ...errs: OErr[]): void {
  for (const e of errs) if (!r.errors.some(x => x.message === e.message)) r.errors.push(e)
}

function merge (r: Result, ...others: Array<Result | undefined>): Result {
  for (const o of others) {
    if (o === undefined) continue
    addErrors(r, ...o.errors)
    r.matchCount += o.matchCount
  }
  return r
}

const single = (e: OErr): Result => ({ errors: [e], matchCount: 0 })

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** An integral JavaScript number stands for a decoded int64; any other for a float64. */
const isInt64 = (v: number): boolean => Number.isInteger(v) && Math.abs(v) < 2 ** 63

type Kind = 'string' | 'int' | 'float' | 'bool' | 'slice' | 'map'

function kindOf (v: unknown): Kind {
  if (typeof v === 'string') return 'string'
  if (typeof v === 'number') return isInt64(v) ? 'int' : 'float'
  if (typeof v === 'boolean') return 'bool'
  if (Array.isArray(v)) return 'slice'
  return 'map'
}

/** swag.IsFloat64AJSONInteger. */
function isJSONInteger (f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > 2 ** 53 - 1) return false
  if (Number.isInteger(f)) return true
  // Go's float64(uint64(f)) of a negative fraction is huge: such a value is never an integer here.
  if (f < 0) return false
  const g = Math.trunc(f)
  if (g === 0) return false
  return (f - g) / Math.min(f + g, Number.MAX_VALUE) < 1e-9
}

interface Node {
  props: JSONSchemaProps
  types: string[]
  format: string
}

const nodes = new WeakMap<JSONSchemaProps, Node>()

/** The schema as kube-openapi holds it after apiextensions converts it: int-or-string typed, formats filtered. */
function node (props: JSONSchemaProps): Node {
  let n = nodes.get(props)
  if (n === undefined) {
    const types = props['x-kubernetes-int-or-string'] ? ['integer', 'string'] : props.type ? [props.type] : []
    n = { props, types, format: effectiveFormat(types.length === 1 ? types[0] as string : '', props.format) }
    nodes.set(props, n)
  }
  return n
}

/** IsValueValidAgainstRange: whether a number fits the schema's type and format (a plain error otherwise). */
function rangeCheck (v: number, kind: 'int' | 'float', typeName: string, format: string, prefix: string, path: string): OErr | undefined {
  const rep = kind === 'int' ? BigInt(v).toString() : formatFloat(v, 'f', -1)
  let ok = true
  if (typeName === 'integer') {
    const bits = format === 'int32' ? 32 : 64
    ok = /^[+-]?[0-9]+$/.test(rep) && BigInt(rep) >= -(1n << BigInt(bits - 1)) && BigInt(rep) < (1n << BigInt(bits - 1))
  } else if (format === 'float') {
    ok = Math.abs(Math.fround(v)) !== Infinity
  }
  if (ok) return undefined
  const message = format !== '' ? `${prefix} value must be of type ${typeName} with format ${format} in ${path}` : `${prefix} value must be of type ${typeName} (default format) in ${path}`
  return { kind: 'plain', name: '', message }
}

function typeValidator (n: Node, path: string, data: unknown): Result {
  const r: Result = { errors: [], matchCount: 1 }
  const typeError = (typeName: string, value: unknown): Result => {
    const message = typeof value === 'string' ? `${path} in body must be of type ${typeName}: ${goQuote(value)}` : `${path} in body must be of type ${typeName}`
    return single({ kind: 'invalidType', name: path, value, message })
  }
  if (data === null || data === undefined) {
    if (n.types.length > 0 && !n.types.includes('null') && !n.props.nullable) return typeError(n.types.join(','), 'null')
    return r
  }
  const kind = kindOf(data)
  const [schType, format] = ({ bool: ['boolean', ''], string: ['string', ''], int: ['integer', 'int64'], float: ['number', 'float64'], slice: ['array', ''], map: ['object', ''] } as const)[kind]
  const isFloatInt = schType === 'number' && isJSONInteger(data as number) && n.types.includes('integer')
  const isIntFloat = schType === 'integer' && n.types.includes('number')
  if (kind !== 'string' && kind !== 'slice' && n.format !== '' && !(n.types.includes(schType) || format === n.format || isFloatInt || isIntFloat)) {
    return typeError(n.format, format)
  }
  if (!(n.types.includes('number') || n.types.includes('integer')) && n.format !== '' && (kind === 'string' || kind === 'slice')) return r
  if (!(n.types.includes(schType) || isFloatInt || isIntFloat)) return typeError(n.types.join(','), schType)
  return r
}

/** Whether data equals an enum value the way kube-openapi compares them (reflect conversion, then DeepEqual). */
function enumMatches (data: unknown, e: unknown): boolean {
  if (e === null || e === undefined) return false
  if (typeof e === 'string') {
    if (typeof data === 'string') return data === e
    // Go converts an integer to the string of that code point.
    if (typeof data === 'number' && isInt64(data)) return (data >= 0 && data <= 0x10ffff && !(data >= 0xd800 && data <= 0xdfff) ? String.fromCodePoint(data) : '\ufffd') === e
    return false
  }
  if (typeof e === 'number') {
    if (typeof data !== 'number') return false
    return isInt64(e) ? Math.trunc(data) === e : data === e
  }
  if (typeof e === 'boolean') return data === e
  return goJson(data) === goJson(e) && Array.isArray(data) === Array.isArray(e)
}

function commonValidator (n: Node, path: string, data: unknown): Result | undefined {
  const values = n.props.enum
  if (!values || values.length === 0) return undefined
  if (data !== null && data !== undefined && values.some(e => enumMatches(data, e))) return undefined
  return single({ kind: 'enum', name: path, value: data === undefined ? null : data, values, message: `${path} in body should be one of ${goValue(values)}` })
}

function stringValidator (n: Node, path: string, data: string): Result | undefined {
  const p = n.props
  if (p.maxLength !== undefined && runeCount(data) > p.maxLength) {
    return single({ kind: 'tooLong', name: path, value: data, valid: p.maxLength, message: `${path} in body should be at most ${p.maxLength} chars long` })
  }
  if (p.minLength !== undefined && runeCount(data) < p.minLength) {
    return single({ kind: 'other', name: path, value: data, message: `${path} in body should be at least ${p.minLength} chars long` })
  }
  if (p.pattern !== undefined && p.pattern !== '') {
    let matched: boolean
    let pattern = p.pattern
    try { matched = matchString(p.pattern, data) } catch (err) {
      matched = false
      pattern = `${p.pattern}, but pattern is invalid: ${(err as Error).message}`
    }
    if (!matched) return single({ kind: 'other', name: path, value: data, message: `${path} in body should match '${pattern}'` })
  }
  return undefined
}

function formatValidator (n: Node, path: string, data: string): Result | undefined {
  if (checkFormat(n.format, data)) return undefined
  return single({ kind: 'invalidType', name: path, value: data, message: `${path} in body must be of type ${n.format}: ${goQuote(data)}` })
}

function bound (n: Node, path: string, v: number, kind: 'int' | 'float', typeName: string, format: string, limit: number, exclusive: boolean, isMax: boolean): Result {
  const r = newResult()
  const check = rangeCheck(limit, isInt64(limit) ? 'int' : 'float', typeName, format, isMax ? 'Maximum boundary' : 'Minimum boundary', path)
  if (check) addErrors(r, check)
  // With a limit that fits the type and integer data, Go compares integers (the limit truncated).
  const intCompare = !check && kind === 'int'
  const lim = intCompare ? Math.trunc(limit) : limit
  const fails = isMax ? (exclusive ? v >= lim : v > lim) : (exclusive ? v <= lim : v < lim)
  if (fails) {
    const word = isMax ? (exclusive ? 'less than' : 'less than or equal to') : (exclusive ? 'greater than' : 'greater than or equal to')
    const shown = intCompare ? BigInt(lim).toString() : formatFloat(limit, 'g', -1)
    // Without an integer comparison Go compares (and reports) the value as a float64.
    addErrors(r, { kind: 'other', name: path, value: intCompare ? v : new GoFloat64(v), message: `${path} in body should be ${word} ${shown}` })
  }
  return r
}

function numberValidator (n: Node, path: string, v: number): Result {
  const kind = isInt64(v) ? 'int' : 'float'
  const p = n.props
  let typeName = ''
  let format = ''
  if (n.types.length === 1) {
    if (n.types[0] === 'integer') { typeName = 'integer'; if (p.format === 'int32' || p.format === 'int64') format = p.format }
    if (n.types[0] === 'number') { typeName = 'number'; if (p.format === 'float' || p.format === 'double') format = p.format }
  }
  const res = newResult()
  const checked = rangeCheck(v, kind, typeName, format, 'Checked', path)
  if (checked) addErrors(res, checked)
  const resMultiple = newResult()
  if (p.multipleOf !== undefined) {
    const factor = p.multipleOf
    const check = rangeCheck(factor, isInt64(factor) ? 'int' : 'float', typeName, format, 'MultipleOf', path)
    if (check) addErrors(resMultiple, check)
    if (factor <= 0) {
      addErrors(resMultiple, { kind: 'other', name: path, value: factor, message: `factor MultipleOf declared for ${path} must be positive: ${!check && kind === 'int' ? BigInt(Math.trunc(factor)) : formatFloat(factor, 'g', -1)}` })
    } else if (!check && kind === 'int') {
      const f = BigInt(Math.trunc(factor))
      if (f <= 0n) addErrors(resMultiple, { kind: 'other', name: path, value: f, message: `factor MultipleOf declared for ${path} must be positive: ${f}` })
      else if (BigInt(v) % f !== 0n) addErrors(resMultiple, { kind: 'other', name: path, value: v, message: `${path} in body should be a multiple of ${f}` })
    } else {
      const mult = factor < 1 ? 1 / factor * v : v / factor
      if (!isJSONInteger(mult)) addErrors(resMultiple, { kind: 'other', name: path, value: new GoFloat64(v), message: `${path} in body should be a multiple of ${formatFloat(factor, 'g', -1)}` })
    }
  }
  const resMinimum = p.minimum !== undefined ? bound(n, path, v, kind, typeName, format, p.minimum, p.exclusiveMinimum === true, false) : undefined
  const resMaximum = p.maximum !== undefined ? bound(n, path, v, kind, typeName, format, p.maximum, p.exclusiveMaximum === true, true) : undefined
  merge(res, resMultiple, resMinimum, resMaximum)
  res.matchCount++
  return res
}

function sliceValidator (n: Node, path: string, data: unknown[]): Result {
  const r = newResult()
  const p = n.props
  if (isRecord(p.items)) {
    data.forEach((v, i) => merge(r, validateNode(p.items as JSONSchemaProps, `${path}[${i}]`, v)))
  }
  if (p.minItems !== undefined && data.length < p.minItems) {
    addErrors(r, { kind: 'other', name: path, value: data.length, valid: p.minItems, message: `${path} in body should have at least ${p.minItems} items` })
  }
  if (p.maxItems !== undefined && data.length > p.maxItems) {
    addErrors(r, { kind: 'maxItems', name: path, value: data.length, valid: p.maxItems, message: `${path} in body should have at most ${p.maxItems} items` })
  }
  if (p.uniqueItems && new Set(data.map(goJson)).size !== data.length) {
    addErrors(r, { kind: 'other', name: path, message: `${path} in body shouldn't contain duplicates` })
  }
  r.matchCount++
  return r
}

function objectValidator (n: Node, path: string, data: Record<string, unknown>): Result {
  const r = newResult()
  const p = n.props
  const size = Object.keys(data).length
  if (p.minProperties !== undefined && size < p.minProperties) {
    addErrors(r, { kind: 'other', name: path, value: size, valid: p.minProperties, message: `${path} in body should have at least ${p.minProperties} properties` })
  }
  if (p.maxProperties !== undefined && size > p.maxProperties) {
    addErrors(r, { kind: 'tooManyProperties', name: path, value: size, valid: p.maxProperties, message: `${path} in body should have at most ${p.maxProperties} properties` })
  }
  const properties = p.properties ?? {}
  const regular = (k: string) => Object.hasOwn(properties, k)
  if (p.additionalProperties === false) {
    for (const k of Object.keys(data)) {
      if (!regular(k)) addErrors(r, { kind: 'other', name: path, value: k, message: `${path}.${k} in body is a forbidden property` })
    }
  } else if (isRecord(p.additionalProperties)) {
    for (const [k, v] of Object.entries(data)) {
      if (!regular(k)) merge(r, validateNode(p.additionalProperties, `${path}.${k}`, v))
    }
  }
  for (const [name, schema] of Object.entries(properties)) {
    if (Object.hasOwn(data, name) && data[name] !== undefined) merge(r, validateNode(schema, path === '' ? name : `${path}.${name}`, data[name]))
  }
  for (const k of p.required ?? []) {
    if (!Object.hasOwn(data, k) || data[k] === undefined) addErrors(r, { kind: 'required', name: `${path}.${k}`, message: `${path}.${k} in body is required` })
  }
  return r
}

function schemaPropsValidator (n: Node, path: string, data: unknown): Result {
  const main = newResult()
  const p = n.props
  if (p.anyOf && p.anyOf.length > 0) {
    let best: Result | undefined
    let first: Result | undefined
    let succeeded = false
    for (const s of p.anyOf) {
      const result = validateNode(s, path, data)
      if (result.errors.length === 0) { best = undefined; succeeded = true; first ??= result; break }
      if (best === undefined || result.matchCount > best.matchCount) best = result
    }
    if (!succeeded) addErrors(main, { kind: 'plain', name: '', message: `${goQuote(path)} must validate at least one schema (anyOf)` })
    merge(main, best ?? first)
  }
  if (p.oneOf && p.oneOf.length > 0) {
    let best: Result | undefined
    let first: Result | undefined
    let validated = 0
    for (const s of p.oneOf) {
      const result = validateNode(s, path, data)
      if (result.errors.length === 0) { validated++; best = undefined; first ??= result; continue }
      if (validated === 0 && (best === undefined || result.matchCount > best.matchCount)) best = result
    }
    if (validated !== 1) {
      const more = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`
      addErrors(main, { kind: 'plain', name: '', message: `${goQuote(path)} must validate one and only one schema (oneOf). ${more}` })
      merge(main, best)
    } else {
      merge(main, first)
    }
  }
  if (p.allOf && p.allOf.length > 0) {
    let validated = 0
    for (const s of p.allOf) {
      const result = validateNode(s, path, data)
      if (result.errors.length === 0) validated++
      merge(main, result)
    }
    if (validated !== p.allOf.length) {
      addErrors(main, { kind: 'plain', name: '', message: `${goQuote(path)} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}` })
    }
  }
  if (p.not !== undefined && validateNode(p.not, path, data).errors.length === 0) {
    addErrors(main, { kind: 'plain', name: '', message: `${goQuote(path)} must not validate the schema (not)` })
  }
  main.matchCount++
  return main
}

/** SchemaValidator.Validate for one schema node at a kube-openapi path ('' for the root). */
function validateNode (props: JSONSchemaProps, path: string, data: unknown): Result {
  spend()
  const n = node(props)
  const result = newResult()
  if (data === null || data === undefined) {
    merge(result, typeValidator(n, path, null), commonValidator(n, path, null))
    return result
  }
  const kind = kindOf(data)
  const run = (r: Result | undefined) => { merge(result, r); result.matchCount++ }
  if (n.types.length > 0 || n.format !== '') run(typeValidator(n, path, data))
  run(schemaPropsValidator(n, path, data))
  if (kind === 'string') run(stringValidator(n, path, data as string))
  if (kind === 'string' && isStringFormat(n.format)) run(formatValidator(n, path, data as string))
  if (kind === 'int' || kind === 'float') run(numberValidator(n, path, data as number))
  if (kind === 'slice') run(sliceValidator(n, path, data as unknown[]))
  run(commonValidator(n, path, data))
  if (kind === 'map') run(objectValidator(n, path, data as Record<string, unknown>))
  result.matchCount++
  return result
}

/** kubeOpenAPIResultToFieldErrors: kube-openapi's errors as the API server reports them. */
function toFieldErrors (fldPath: FieldPath, errors: OErr[]): FieldError[] {
  return errors.map((e) => {
    if (e.kind === 'plain') return invalid(fldPath, '', e.message)
    const errPath = e.name.length > 0 && e.name !== '.' ? childPath(fldPath, e.name.replace(/^\./, '')) : fldPath
    const value = e.value === undefined ? '' : e.value
    switch (e.kind) {
      case 'required': return required(errPath, '')
      case 'enum': return notSupported(errPath, e.value, (e.values ?? []).map(v => typeof v === 'string' ? v : goJson(v)))
      case 'tooLong': return tooLong(errPath, e.valid ?? -1)
      case 'maxItems': case 'tooManyProperties': return tooMany(errPath, typeof e.value === 'number' ? e.value : -1, e.valid ?? -1)
      case 'invalidType': return typeInvalid(errPath, value, e.message)
      default: return invalid(errPath, value, e.message)
    }
  })
}

/**
 * Validates value against the schema as the API server does (ValidateCustomResource). fieldPath is where the value
 * sits: undefined for a whole object (paths then start at its fields, and errors without a field say `<nil>`).
 */
export function validateValue (props: JSONSchemaProps, value: unknown, fieldPath?: string): FieldError[] {
  const result = validateNode(props, '', value)
  return toFieldErrors(fieldPath, result.errors)
}
