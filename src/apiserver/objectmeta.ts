// Embedded resources (x-kubernetes-embedded-resource): their apiVersion, kind and metadata, as apiextensions coerces
// and validates them. The API server reads an embedded metadata into metav1.ObjectMeta and writes it back, so unknown
// metadata fields disappear and a zero creationTimestamp is dropped; it then checks apiVersion, kind, the name (a path
// segment), namespace, labels, annotations and finalizers with Kubernetes' messages.
//
// Left out: managedFields (copied as they are, not checked) and the exact decoding error for a malformed metadata
// field (the API server answers 400 with a Go json message; here the metadata is reported Invalid).
import { type FieldError, type FieldPath, childPath, indexPath, invalid, keyPath, required, tooLong } from './field-error.js'
import { byteLength } from '../go/utf8.js'
import { isDNS1035Label, isQualifiedName, isValidLabelValue, isPathSegment, nameIsDNSLabel } from './names.js'
import type { Structural } from './schema.js'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const STRING_FIELDS = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion']
const KNOWN_FIELDS = new Set([...STRING_FIELDS, 'generation', 'deletionGracePeriodSeconds', 'creationTimestamp', 'deletionTimestamp', 'labels',
  'annotations', 'finalizers', 'ownerReferences', 'managedFields'])

/** RFC 3339 as metav1.Time reads it, written back in UTC with second precision. */
function goTime (v: unknown): string | null | undefined {
  if (v === null) return null
  if (typeof v !== 'string') return undefined
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(v)
  if (!m) return undefined
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[8] === 'z' ? 'Z' : m[8]}`)
  if (Number.isNaN(ms)) return undefined
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')
}

const stringMap = (v: unknown): v is Record<string, string> => isRecord(v) && Object.values(v).every(x => typeof x === 'string')
const stringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(x => typeof x === 'string')

/**
 * metadata read into metav1.ObjectMeta and written back (omitempty fields dropped, unknown fields listed); an error
 * for a malformed one.
 */
export function roundTripObjectMeta (meta: unknown): { meta: Record<string, unknown>, unknown: string[] } | { error: string } {
  if (meta === null) return { meta: {}, unknown: [] }
  if (!isRecord(meta)) return { error: 'json: cannot unmarshal into Go value of type v1.ObjectMeta' }
  const out: Record<string, unknown> = {}
  const bad = (field: string, type: string) => ({ error: `json: cannot unmarshal into Go struct field ObjectMeta.${field} of type ${type}` })
  for (const field of STRING_FIELDS) {
    const v = meta[field]
    if (v === undefined || v === null) continue
    if (typeof v !== 'string') return bad(field, 'string')
    if (v !== '') out[field] = v
  }
  for (const field of ['generation', 'deletionGracePeriodSeconds']) {
    const v = meta[field]
    if (v === undefined || v === null) continue
    if (typeof v !== 'number' || !Number.isInteger(v)) return bad(field, 'int64')
    if (v !== 0 || field === 'deletionGracePeriodSeconds') out[field] = v
  }
  for (const field of ['creationTimestamp', 'deletionTimestamp']) {
    if (meta[field] === undefined) continue
    const t = goTime(meta[field])
    if (t === undefined) return bad(field, 'v1.Time')
    if (t !== null) out[field] = t
  }
  for (const field of ['labels', 'annotations']) {
    const v = meta[field]
    if (v === undefined || v === null) continue
    if (!stringMap(v)) return bad(field, 'map[string]string')
    if (Object.keys(v).length > 0) out[field] = { ...v }
  }
  if (meta.finalizers !== undefined && meta.finalizers !== null) {
    if (!stringList(meta.finalizers)) return bad('finalizers', '[]string')
    if (meta.finalizers.length > 0) out.finalizers = [...meta.finalizers]
  }
  if (meta.ownerReferences !== undefined && meta.ownerReferences !== null) {
    if (!Array.isArray(meta.ownerReferences) || !meta.ownerReferences.every(isRecord)) return bad('ownerReferences', '[]v1.OwnerReference')
    const refs = meta.ownerReferences.map((r) => {
      const ref: Record<string, unknown> = {}
      for (const k of ['apiVersion', 'kind', 'name', 'uid']) ref[k] = typeof r[k] === 'string' ? r[k] : ''
      for (const k of ['controller', 'blockOwnerDeletion']) if (typeof r[k] === 'boolean') ref[k] = r[k]
      return ref
    })
    if (refs.length > 0) out.ownerReferences = refs
  }
  if (Array.isArray(meta.managedFields) && meta.managedFields.length > 0) out.managedFields = structuredClone(meta.managedFields)
  return { meta: out, unknown: Object.keys(meta).filter(k => !KNOWN_FIELDS.has(k)).sort() }
}

/**
 * Coerces the embedded resources under x in place (apiextensions' objectmeta.Coerce): apiVersion and kind must be
 * strings, metadata is round-tripped through ObjectMeta. Returns the first error, as the API server stops at it.
 */
export function coerceEmbedded (path: FieldPath, x: unknown, s: Structural | undefined, isResourceRoot: boolean, unknown: string[] = []): FieldError | undefined {
  if (s === undefined) return undefined
  const node = isResourceRoot && !s.embeddedResource ? { ...s, embeddedResource: true } : s
  if (isRecord(x)) {
    for (const k of Object.keys(x)) {
      if (node.embeddedResource && (k === 'apiVersion' || k === 'kind') && typeof x[k] !== 'string') return invalid(childPath(path, k), x[k], 'must be a string')
      // The resource's own metadata is the API server's business (it keeps it as it is here).
      if (node.embeddedResource && k === 'metadata' && !isResourceRoot) {
        const r = roundTripObjectMeta(x[k])
        if ('error' in r) return invalid(childPath(path, 'metadata'), x[k], r.error)
        x[k] = r.meta
        unknown.push(...r.unknown.map(u => `${childPath(path, 'metadata')}.${u}`))
      }
      const prop = node.properties?.get(k)
      const err = prop !== undefined
        ? coerceEmbedded(childPath(path, k), x[k], prop, false, unknown)
        : node.additionalProperties !== undefined ? coerceEmbedded(keyPath(path, k), x[k], node.additionalProperties.schema, false, unknown) : undefined
      if (err) return err
    }
  } else if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const err = coerceEmbedded(indexPath(path, i), x[i], node.items, false, unknown)
      if (err) return err
    }
  }
  return undefined
}

/** metav1validation.ValidateLabels and ValidateAnnotations of metadata (`path.labels`, `path.annotations`). */
export function validateLabelsAndAnnotations (path: string, meta: unknown): FieldError[] {
  const errs: FieldError[] = []
  const labels = isRecord(meta) && isRecord(meta.labels) ? meta.labels as Record<string, string> : {}
  for (const [k, v] of Object.entries(labels)) {
    for (const m of isQualifiedName(k)) errs.push(invalid(childPath(path, 'labels'), k, m))
    for (const m of isValidLabelValue(v)) errs.push(invalid(childPath(path, 'labels'), v, m))
  }
  const annotations = isRecord(meta) && isRecord(meta.annotations) ? meta.annotations as Record<string, string> : {}
  let size = 0
  for (const [k, v] of Object.entries(annotations)) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalid(childPath(path, 'annotations'), k, m))
    size += byteLength(k) + byteLength(v)
  }
  if (size > 256 * 1024) errs.push(tooLong(childPath(path, 'annotations'), 256 * 1024))
  return errs
}

function validateMeta (path: string, meta: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = []
  const str = (k: string) => typeof meta[k] === 'string' ? meta[k] as string : ''
  const generateName = str('generateName')
  if (generateName !== '') for (const m of isPathSegment(generateName, true)) errs.push(invalid(childPath(path, 'generateName'), generateName, m))
  // An embedded resource may leave its name out: the API server checks a stand-in then.
  const name = str('name') === '' ? 'fakename' : str('name')
  for (const m of isPathSegment(name, false)) errs.push(invalid(childPath(path, 'name'), name, m))
  const namespace = str('namespace')
  if (namespace !== '') for (const m of nameIsDNSLabel(namespace, false)) errs.push(invalid(childPath(path, 'namespace'), namespace, m))
  const generation = typeof meta.generation === 'number' ? meta.generation : 0
  if (generation < 0) errs.push(invalid(childPath(path, 'generation'), generation, 'must be greater than or equal to 0'))
  errs.push(...validateLabelsAndAnnotations(path, meta))
  for (const f of Array.isArray(meta.finalizers) ? meta.finalizers as string[] : []) {
    for (const m of isQualifiedName(f)) errs.push(invalid(childPath(path, 'finalizers'), f, m))
  }
  return errs
}

function validateEmbeddedResource (path: FieldPath, x: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = []
  if (!('apiVersion' in x)) errs.push(required(childPath(path, 'apiVersion'), ''))
  if (!('kind' in x)) errs.push(required(childPath(path, 'kind'), ''))
  for (const k of Object.keys(x)) {
    const v = x[k]
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(childPath(path, k), v, 'must be a string'))
      else if (v.length === 0) errs.push(invalid(childPath(path, k), v, 'must not be empty'))
      else if ((v.match(/\//g) ?? []).length > 1) errs.push(invalid(childPath(path, k), v, `unexpected GroupVersion string: ${v}`))
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(childPath(path, k), v, 'must be a string'))
      else if (v.length === 0) errs.push(invalid(childPath(path, k), v, 'must not be empty'))
      else {
        const msgs = isDNS1035Label(v.toLowerCase())
        if (msgs.length > 0) errs.push(invalid(childPath(path, k), v, 'may have mixed case, but should otherwise match: ' + msgs.join(',')))
      }
    } else if (k === 'metadata') {
      const r = roundTripObjectMeta(v)
      if ('error' in r) errs.push(invalid(childPath(path, k), v, r.error))
      else errs.push(...validateMeta(childPath(path, k), r.meta))
    }
  }
  return errs
}

/** apiextensions' objectmeta.Validate: the embedded resources under x (not the resource itself). */
export function validateEmbedded (path: FieldPath, x: unknown, s: Structural | undefined): FieldError[] {
  if (s === undefined) return []
  const errs: FieldError[] = []
  if (isRecord(x)) {
    if (s.embeddedResource) errs.push(...validateEmbeddedResource(path, x))
    for (const k of Object.keys(x)) {
      const prop = s.properties?.get(k)
      if (prop !== undefined) errs.push(...validateEmbedded(childPath(path, k), x[k], prop))
      else if (s.additionalProperties !== undefined) errs.push(...validateEmbedded(keyPath(path, k), x[k], s.additionalProperties.schema))
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => errs.push(...validateEmbedded(indexPath(path, i), v, s.items)))
  }
  return errs
}
