// How Kubernetes types `self` from the structural schema (k8s.io/apiserver/pkg/cel/common: SchemaDeclType for the
// compile-time type, UnstructuredToVal for the value): an object with declared properties is an object type whose
// fields are the properties (names escaped: `foo-bar` is `foo__dash__bar`), an object with additionalProperties a
// map, type integer an int and type number a double, int-or-string a dyn, strings with format duration, date or
// date-time a duration or timestamp, format byte bytes; an embedded resource also gets apiVersion, kind and
// metadata.name/generateName. Values that do not fit the schema become errors, with Kubernetes' messages.
import { decodeString } from '../../go/base64.js'
import { parseStrfmtDuration } from '../formats.js'
import { parseGoDate, parseGoDateTimeZoned } from '../go-time.js'
import type { Structural } from '../schema.js'
import { escapeName } from './escaping.js'
import { CelDuration, CelError, CelList, CelMap, CelOpaque, CelTimestamp, type ListKind, type MapKey, type Val } from './values.js'

/** The compile-time type of a schema node (apiservercel.DeclType, reduced to what the checks here need). */
export type DeclType =
  | { kind: 'dyn' }
  | { kind: 'prim', name: 'int' | 'double' | 'string' | 'bool' | 'bytes' | 'duration' | 'timestamp' }
  | { kind: 'list', elem: DeclType }
  | { kind: 'map', value: DeclType }
  | { kind: 'object', fields: ReadonlyMap<string, DeclType> }

const STRING_NODE: Structural = { type: 'string', format: '', nullable: false, preserveUnknownFields: false, embeddedResource: false, intOrString: false, validations: [], allOf: [], props: { type: 'string' } }

/** The schema with apiVersion, kind and metadata (name, generateName) declared, as for an embedded resource. */
export function withTypeAndObjectMeta (s: Structural): Structural {
  const meta = s.properties?.get('metadata')
  if (s.properties?.get('kind')?.type === 'string' && s.properties.get('apiVersion')?.type === 'string' && meta?.type === 'object' &&
    meta.properties?.get('name')?.type === 'string' && meta.properties.get('generateName')?.type === 'string') return s
  const properties = new Map(s.properties ?? [])
  properties.set('kind', STRING_NODE)
  properties.set('apiVersion', STRING_NODE)
  properties.set('metadata', { ...STRING_NODE, type: 'object', props: { type: 'object' }, properties: new Map([['name', STRING_NODE], ['generateName', STRING_NODE]]) })
  return { ...s, properties }
}

/** SchemaDeclType: the CEL type of a schema node, undefined when it has none (no type, not int-or-string). */
export function declType (s: Structural | undefined, isResourceRoot = false): DeclType | undefined {
  if (s === undefined) return undefined
  if (s.intOrString) return { kind: 'dyn' }
  const node = isResourceRoot ? withTypeAndObjectMeta(s) : s
  switch (node.type) {
    case 'array': {
      if (!node.items) return undefined
      const elem = declType(node.items, node.items.embeddedResource)
      return elem && { kind: 'list', elem }
    }
    case 'object': {
      const ap = node.additionalProperties?.schema
      if (ap) {
        const value = declType(ap, ap.embeddedResource)
        return value && { kind: 'map', value }
      }
      const fields = new Map<string, DeclType>()
      for (const [name, prop] of node.properties ?? []) {
        const t = declType(prop, prop.embeddedResource)
        const escaped = escapeName(name)
        if (t && escaped !== undefined) fields.set(escaped, t)
      }
      return { kind: 'object', fields }
    }
    case 'string':
      switch (node.format) {
        case 'byte': return { kind: 'prim', name: 'bytes' }
        case 'duration': return { kind: 'prim', name: 'duration' }
        case 'date': case 'date-time': return { kind: 'prim', name: 'timestamp' }
      }
      return { kind: 'prim', name: 'string' }
    case 'boolean': return { kind: 'prim', name: 'bool' }
    case 'number': return { kind: 'prim', name: 'double' }
    case 'integer': return { kind: 'prim', name: 'int' }
  }
  return undefined
}

/** A value kept under x-kubernetes-preserve-unknown-fields with no type: comparable, nothing else. */
export class UnknownPreserved extends CelOpaque {
  readonly typeName = 'unknown'
  constructor (readonly raw: unknown) { super() }
  equals (other: CelOpaque): boolean {
    return other instanceof UnknownPreserved && JSON.stringify(this.raw) === JSON.stringify(other.raw)
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Go's %T of a decoded JSON value. */
function goType (v: unknown): string {
  if (typeof v === 'string') return 'string'
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64'
  if (typeof v === 'boolean') return 'bool'
  if (Array.isArray(v)) return '[]interface {}'
  if (isRecord(v)) return 'map[string]interface {}'
  return '<nil>'
}

/** UnstructuredToVal: the CEL value of a decoded JSON value under its schema node. */
export function toCel (value: unknown, s: Structural): Val {
  if (value === null || value === undefined) return s.nullable ? null : new CelError('invalid data, got null for schema with nullable=false')
  if (s.intOrString) {
    if (typeof value === 'string') return value
    if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value)
    return new CelError('invalid data, expected XIntOrString value to be either a string or integer')
  }
  switch (s.type) {
    case 'object': {
      if (!isRecord(value)) return new CelError('invalid data, expected a map for the provided schema with type=object')
      if (s.embeddedResource || s.properties !== undefined) {
        const node = s.embeddedResource ? withTypeAndObjectMeta(s) : s
        const entries: Array<[MapKey, Val]> = []
        for (const [k, v] of Object.entries(value)) {
          const prop = node.properties?.get(k)
          if (prop) entries.push([k, v === null ? null : toCel(v, prop)])
        }
        return new CelMap(entries, true)
      }
      const ap = s.additionalProperties?.schema
      return new CelMap(ap ? Object.entries(value).map(([k, v]) => [k, toCel(v, ap)]) : [], false, true)
    }
    case 'array': {
      if (!Array.isArray(value)) return new CelError('invalid data, expected an array for the provided schema with type=array')
      const items = s.items
      if (!items) return new CelError('invalid array type, expected Items with a non-empty Schema')
      let listKind: ListKind = { kind: 'list' }
      if (s.listType === 'map') listKind = { kind: 'map', keys: (s.listMapKeys ?? []).map(k => escapeName(k) ?? k) }
      else if (s.listType === 'set') listKind = { kind: 'set' }
      else if (s.listType !== undefined && s.listType !== 'atomic') return new CelError(`invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got ${s.listType}`)
      return new CelList(value.map(v => toCel(v, items)), listKind, true)
    }
    case 'string': {
      if (typeof value !== 'string') return new CelError(`invalid data, expected string, got ${goType(value)}`)
      switch (s.format) {
        case 'duration': {
          const d = parseStrfmtDuration(value)
          return d === undefined ? new CelError(`Invalid duration ${value}: unable to parse ${value} as duration`) : new CelDuration(d)
        }
        case 'date': {
          const t = parseGoDate(value)
          return t === undefined ? new CelError(`Invalid date formatted string ${value}: parsing time ${JSON.stringify(value)} as "2006-01-02": cannot parse ${JSON.stringify(value)} as "2006"`) : new CelTimestamp(t)
        }
        case 'date-time': {
          const t = parseGoDateTimeZoned(value)
          return t === undefined ? new CelError(`Invalid date-time formatted string ${value}: parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(value)} as "2006"`) : new CelTimestamp(t.ns, t.offset)
        }
        case 'byte': {
          // strfmt.Base64 decodes with URLEncoding.
          const b = decodeString(value, 'url')
          return typeof b === 'string' ? new CelError(`Invalid byte formatted string ${value}: ${b}`) : new Uint8Array(b)
        }
      }
      return value
    }
    case 'number':
      return typeof value === 'number' ? value : new CelError(`invalid data, expected float, got ${goType(value)}`)
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : new CelError(`invalid data, expected int, got ${goType(value)}`)
    case 'boolean':
      return typeof value === 'boolean' ? value : new CelError(`invalid data, expected bool, got ${goType(value)}`)
  }
  if (s.preserveUnknownFields) return new UnknownPreserved(value)
  return new CelError(`invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got ${s.type}`)
}
