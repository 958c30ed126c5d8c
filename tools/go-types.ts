// The Go types of Cluster API's hook requests and responses, as Go's encoding/json decodes them, read from Cluster
// API's definitions (hooks/v1alpha1/definitions.json, dumped from its Go types by tools/capi-schemas): the JSON type,
// int32/int64, metav1.Time, IntOrString, []byte (format byte), the values kept as they are (RawExtension,
// apiextensions' JSON, FieldsV1), which fields Go always sends and which may be null. One thing the definitions leave
// out: JSONSchemaProps' subschemas are declared free-form (preserve-unknown-fields, as Cluster API's CRD must), while
// its Go type decodes them as JSONSchemaProps again; the model says so. tools/capi-interop's parity test checks the
// result against Go itself.
import { definitions } from '../src/api/hooks/v1alpha1/capi.js'

type Node = Record<string, unknown>
/** A Go type, by what Go's decoder does with it. */
export type GoType =
  | { kind: 'string', goName: string, values?: string[] }
  | { kind: 'bool' | 'int32' | 'int64' | 'time' | 'intOrString' | 'bytes' | 'any' }
  | { kind: 'list' | 'map', elem: GoType, elemNullable: boolean }
  | { kind: 'struct', def: string, goName: string, fields: Map<string, Field> }
/** A struct field: required when Go's encoding always sends it, nullable when that can be null (the definitions' words). */
interface Field { type: GoType, required: boolean, nullable: boolean }

/** Go types whose UnmarshalJSON decides, by definition name. */
const SPECIAL: Record<string, GoType> = {
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time': { kind: 'time' },
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': { kind: 'intOrString' },
  'k8s.io.apimachinery.pkg.runtime.RawExtension': { kind: 'any' },
  'k8s.io.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': { kind: 'any' },
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1': { kind: 'any' }
}
const JSON_SCHEMA_PROPS = 'sigs.k8s.io.cluster-api.api.core.v1beta2.JSONSchemaProps'

/** `sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster` -> `v1beta2.Cluster`, as Go prints the type. */
function goName (definition: string): string {
  return definition.split('.').slice(-2).join('.')
}

/** Cluster API's definitions read as Go types; a struct is built once, recursive types included. */
export class GoTypes {
  readonly #structs = new Map<string, GoType>()

  /** The Go type of a definition, e.g. `sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster`. */
  definition (name: string): GoType {
    const special = SPECIAL[name]
    if (special) return special
    const existing = this.#structs.get(name)
    if (existing) return existing
    const def = definitions[name]
    if (!def) throw new Error(`Cluster API defines no ${name}`)
    if (def['type'] !== 'object' || def['additionalProperties'] !== undefined || def['x-kubernetes-preserve-unknown-fields'] === true) {
      const type = this.#node(def)
      return type.kind === 'string' ? { ...type, goName: goName(name) } : type
    }
    // A struct: registered before its fields are built, for recursive types.
    const fields = new Map<string, Field>()
    const struct: GoType = { kind: 'struct', def: name, goName: goName(name), fields }
    this.#structs.set(name, struct)
    const required = new Set(def['required'] as string[] | undefined)
    for (const [key, node] of Object.entries((def['properties'] ?? {}) as Record<string, Node>)) {
      fields.set(key, { type: this.#node(node), required: required.has(key), nullable: node['nullable'] === true })
    }
    if (name === JSON_SCHEMA_PROPS) {
      const optional = (type: GoType): Field => ({ type, required: false, nullable: false })
      fields.set('properties', optional({ kind: 'map', elem: struct, elemNullable: false }))
      for (const key of ['additionalProperties', 'items', 'not']) fields.set(key, optional(struct))
      for (const key of ['allOf', 'oneOf', 'anyOf']) fields.set(key, optional({ kind: 'list', elem: struct, elemNullable: false }))
    }
    return struct
  }

  #node (node: Node): GoType {
    const ref = node['$ref']
    if (typeof ref === 'string') return this.definition(ref.replace('#/definitions/', ''))
    const allOf = node['allOf'] as Node[] | undefined
    if (allOf) {
      if (allOf.length !== 1) throw new Error(`allOf with ${allOf.length} members: ${JSON.stringify(node)}`)
      return this.#node(allOf[0] as Node)
    }
    switch (node['type']) {
      case 'string':
        if (node['format'] === 'byte') return { kind: 'bytes' }
        return { kind: 'string', goName: 'string', ...(Array.isArray(node['enum']) ? { values: node['enum'] as string[] } : {}) }
      case 'integer':
        if (node['format'] === 'int32' || node['format'] === 'int64') return { kind: node['format'] }
        throw new Error(`integer without int32/int64 format: ${JSON.stringify(node)}`)
      case 'boolean': return { kind: 'bool' }
      case 'array': {
        const items = node['items'] as Node
        return { kind: 'list', elem: this.#node(items), elemNullable: items['nullable'] === true }
      }
      case 'object': {
        if (node['properties'] !== undefined) throw new Error(`inline struct: ${JSON.stringify(node).slice(0, 200)}`)
        const values = node['additionalProperties']
        if (typeof values === 'object' && values !== null) return { kind: 'map', elem: this.#node(values as Node), elemNullable: (values as Node)['nullable'] === true }
        return { kind: 'any' }
      }
      case undefined:
        if (node['x-kubernetes-preserve-unknown-fields'] === true) return { kind: 'any' }
    }
    throw new Error(`no Go type for ${JSON.stringify(node).slice(0, 200)}`)
  }
}
