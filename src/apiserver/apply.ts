// Server-side apply's first step: kube-apiserver converts the applied object to its typed form
// (structured-merge-diff's validation, with the type of apply-schema.ts) and refuses it, before anything else, with
// `failed to create typed patch object (<namespace>/<name>; <group>/<version>, Kind=<kind>): <errors>`. The errors are
// SMD's: a path (`.spec.template.spec.files[0].path`, list items as `[0]`, `[name="a"]` or `[="a"]`), then
//   field not declared in schema                       (the first undeclared field of a map: SMD stops the map there)
//   expected string, got &value.valueUnstructured{Value:5}   (Go's %#v of SMD's value)
//   expected numeric (int or float), got string        (%T)
//   expected boolean, got &{yes}                       (%v)
//   expected any scalar, got &{map[a:1]}               (a string with a format, a metav1.Time)
//   expected map, got &{x}  /  expected list, got &{x}
//   duplicate entries for key [name="a"]               (sets and list-maps of the applied object)
//   element 0: associative list with keys may not have a null element   (SMD stops the list there)
// One error prints alone; several as `errors:` and one indented line each. null fits every type.
//
// Go visits a map's fields in random order, so with several undeclared fields (or an undeclared one beside other
// errors) the API server's answer varies; here the declared fields are visited first and the first undeclared field
// in the object's order is the one reported. A KeyOrder can replay a given order.
import { type SmdAtom, type SmdList, type SmdMap, ANY, resourceType } from './apply-schema.js'
import { goNumber, goSharpV, goTypeName, goValue } from './go-format.js'
import { quote as goQuote } from '../go/strconv.js'
import { compare as compareBytes } from '../go/strings.js'
import { type SchemaInput, type Structural, toStructural } from './schema.js'

/** The order a map's keys are visited in, given the map's path and its keys in the default order. */
export type KeyOrder = (path: string, keys: readonly string[]) => readonly string[]

interface SmdError { path: string, message: string }

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isScalar = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'

/** %v of SMD's value wrapper (a pointer to valueUnstructured). */
const printV = (v: unknown): string => `&{${goValue(v)}}`
/** %#v of SMD's value wrapper. */
const printSharpV = (v: unknown): string => `&value.valueUnstructured{Value:${goSharpV(v)}}`

/** value.ToString: how SMD prints a value in a path element. */
function smdString (v: unknown): string {
  if (v === null || v === undefined) return 'null'
  if (typeof v === 'number') return goNumber(v)
  if (typeof v === 'string') return goQuote(v)
  if (Array.isArray(v)) return '[' + v.map(smdString).join(',') + ']'
  if (isRecord(v)) return Object.entries(v).map(([k, x]) => `${k}=${smdString(x)}`).join('')
  return String(v)
}

/** An identity of a value for duplicate detection: numbers compare by value, maps whatever their key order. */
function identity (v: unknown): string {
  if (Array.isArray(v)) return '[' + v.map(identity).join(',') + ']'
  if (isRecord(v)) return '{' + Object.keys(v).sort().map(k => JSON.stringify(k) + ':' + identity(v[k])).join(',') + '}'
  return JSON.stringify(v) ?? 'null'
}

/** deduceAtom: the part of the type the value's kind selects, or the whole type when none fits. */
function deduce (atom: SmdAtom, v: unknown): SmdAtom {
  if (isScalar(v) && atom.scalar) return { scalar: atom.scalar }
  if (Array.isArray(v) && atom.list) return { list: atom.list }
  if (isRecord(v) && atom.map) return { map: atom.map }
  return atom
}

function scalarError (atom: SmdAtom, v: unknown): string | undefined {
  if (v === null) return undefined
  switch (atom.scalar) {
    case 'numeric': return typeof v === 'number' ? undefined : `expected numeric (int or float), got ${goTypeName(v)}`
    case 'string': return typeof v === 'string' ? undefined : `expected string, got ${printSharpV(v)}`
    case 'boolean': return typeof v === 'boolean' ? undefined : `expected boolean, got ${printV(v)}`
    default: return isScalar(v) ? undefined : `expected any scalar, got ${printV(v)}`
  }
}

class Walker {
  readonly errors: SmdError[] = []
  constructor (private readonly order: KeyOrder | undefined) {}

  walk (type: SmdAtom, v: unknown, path: string): void {
    if (type === ANY) return
    const atom = deduce(type, v)
    if (atom.map) this.walkMap(atom.map, v, path)
    else if (atom.scalar) {
      const message = scalarError(atom, v)
      if (message !== undefined) this.errors.push({ path, message })
    } else if (atom.list) this.walkList(atom.list, v, path)
  }

  private walkMap (m: SmdMap, v: unknown, path: string): void {
    if (v === null) return
    if (!isRecord(v)) { this.errors.push({ path, message: `expected map, got ${printV(v)}` }); return }
    const keys = Object.keys(v).filter(k => v[k] !== undefined)
    const declared = keys.filter(k => m.fields.has(k) || m.elementType !== undefined)
    const ordered = [...declared, ...keys.filter(k => !declared.includes(k))]
    for (const key of this.order?.(path, ordered) ?? ordered) {
      const type = m.fields.get(key)?.type ?? m.elementType
      if (type === undefined) { this.errors.push({ path: `${path}.${key}`, message: 'field not declared in schema' }); return }
      this.walk(type, v[key], `${path}.${key}`)
    }
  }

  private walkList (l: SmdList, v: unknown, path: string): void {
    if (v === null) return
    if (!Array.isArray(v)) { this.errors.push({ path, message: `expected list, got ${printV(v)}` }); return }
    const seen = new Set<string>()
    for (const [i, raw] of v.entries()) {
      // What JSON cannot carry: an undefined item is sent as null (and an undefined field not at all).
      const item: unknown = raw ?? null
      let element = `[${i}]`
      if (l.associative) {
        const pe = pathElement(l, item)
        if ('error' in pe) { this.errors.push({ path, message: `element ${i}: ${pe.error}` }); return }
        if (seen.has(pe.id)) this.errors.push({ path, message: `duplicate entries for key ${pe.text}` })
        seen.add(pe.id)
        element = pe.text
      }
      this.walk(l.elementType, item, path + element)
    }
  }
}

type PathElement = { text: string, id: string } | { error: string }

/** listItemToPathElement: an associative list item's key (`[name="a",port=80]`), or the set item (`[="a"]`). */
function pathElement (l: SmdList, item: unknown): PathElement {
  if (l.keys.length === 0) {
    if (isRecord(item)) return { error: 'associative list without keys has an element that\'s a map type' }
    if (Array.isArray(item)) return { error: 'not supported: associative list with lists as elements' }
    if (item === null) return { error: 'associative list without keys has an element that\'s an explicit null' }
    return { text: `[=${smdString(item)}]`, id: identity(item) }
  }
  if (item === null) return { error: 'associative list with keys may not have a null element' }
  if (!isRecord(item)) return { error: 'associative list with keys may not have non-map elements' }
  const key: Array<[string, unknown]> = []
  for (const name of l.keys) {
    // A missing key field takes its default; without one the item is keyed by the other fields.
    const value = Object.hasOwn(item, name) ? item[name] : l.elementType.map?.fields.get(name)?.default
    if (value !== undefined) key.push([name, value])
  }
  if (key.length === 0) {
    return { error: `associative list with keys has an element that omits all key fields [${l.keys.map(goQuote).join(' ')}] (and doesn't have default values for any key fields)` }
  }
  key.sort(([a], [b]) => compareBytes(a, b))
  return { text: '[' + key.map(([k, x]) => `${k}=${smdString(x)}`).join(',') + ']', id: identity(key) }
}

/** How Go's unstructured object names itself in the message: `<namespace>/<name>; <group>/<version>, Kind=<kind>`. */
function objectGVKNN (object: Record<string, unknown>): string {
  const meta = isRecord(object.metadata) ? object.metadata : {}
  const str = (v: unknown): string => typeof v === 'string' ? v : ''
  // An apply patch reaches the conversion only with the served apiVersion (`group/version`; `v1` is the core group).
  const apiVersion = str(object.apiVersion)
  const slash = apiVersion.indexOf('/')
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)]
  return `${str(meta.namespace)}/${str(meta.name)}; ${group}/${version}, Kind=${str(object.kind)}`
}

const structurals = new WeakMap<object, Structural>()

function structuralOf (schema: SchemaInput): Structural {
  if ('structural' in schema && 'props' in schema) return schema.structural
  let s = structurals.get(schema)
  if (s === undefined) {
    s = toStructural(schema)
    structurals.set(schema, s)
  }
  return s
}

/**
 * The API server's message when server-side apply refuses to convert object (apiVersion, kind, metadata, spec…) to
 * the type of the CRD version whose schema this is, else undefined. order replays a visiting order of map keys (Go's is
 * random); by default declared fields come first and the first undeclared one is reported.
 */
export function typedPatchError (schema: SchemaInput, object: Record<string, unknown>, order?: KeyOrder): string | undefined {
  const walker = new Walker(order)
  walker.walk(resourceType(structuralOf(schema)), object, '')
  const lines = walker.errors.map(e => e.path === '' ? e.message : `${e.path}: ${e.message}`)
  if (lines.length === 0) return undefined
  const text = lines.length === 1 ? lines[0] : ['errors:', ...lines.map(l => `  ${l}`)].join('\n')
  return `failed to create typed patch object (${objectGVKNN(object)}): ${text}`
}
