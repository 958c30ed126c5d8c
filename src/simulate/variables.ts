// The ClusterClass's variables and the Cluster's values, as Cluster API handles them: definitions from the class's
// inline spec.variables and from each external patch's DiscoverVariables answer (the ClusterClass reconciler's
// status.variables, sorted by name), then the Cluster's values defaulted (structural defaulting, as the Cluster
// webhook does) and validated against the definitions' OpenAPI schemas. CEL rules (x-kubernetes-validations) and
// formats Cluster API's validator knows but Ajv does not are not evaluated: each is named in the notes.
import type { ClusterClassStatusVariable, ClusterClassVariable, ClusterVariable } from '../api/hooks/v1alpha1/types.generated.js'
import { DiscoverVariables } from '../api/hooks/v1alpha1/hooks.js'
import { validate } from '../catalog/validate.js'
import type { TSchema } from 'typebox'
import type { SimulationInputs } from './inputs.js'
import { isObject, type JsonObject, jsonCopy } from './objects.js'
import { type HookCaller, SimulationFailure } from './timeline.js'
import { SimulationInputError } from './errors.js'
import { stableJson } from '../client/wire.js'

/** The formats Ajv checks here; Cluster API's validator checks more (named in the notes when used). */
const CHECKED_FORMATS = new Set(['byte', 'int32', 'int64', 'date-time'])

/** A variable of ClusterClass status.variables: its definitions, from the class (`inline`) or a patch. */
interface StatusVariable extends ClusterClassStatusVariable {
  name: string
  definitionsConflict: boolean
  definitions: Array<NonNullable<ClusterClassStatusVariable['definitions']>[number] & { from: string }>
}

/** The class's variables, by name (ClusterClass status.variables), and which patches define each. */
export interface VariableDefinitions {
  variables: StatusVariable[]
  definitionsFrom: Map<string, Set<string>>
}

function addDefinition (all: Map<string, StatusVariable>, variable: ClusterClassVariable, from: string): void {
  const name = variable.name ?? ''
  const definition = { from, required: variable.required, ...(variable.deprecatedV1Beta1Metadata ? { deprecatedV1Beta1Metadata: variable.deprecatedV1Beta1Metadata } : {}), schema: variable.schema }
  const existing = all.get(name)
  if (!existing) {
    all.set(name, { name, definitionsConflict: false, definitions: [definition] })
    return
  }
  const first = existing.definitions[0]
  const conflict = existing.definitionsConflict === true || Boolean(first?.required) !== Boolean(variable.required) || stableJson(first?.schema) !== stableJson(variable.schema)
  all.set(name, { ...existing, definitionsConflict: conflict, definitions: [...existing.definitions, definition] })
}

/** Calls DiscoverVariables for every external patch that names one and builds the class's variable definitions. */
export async function discoverVariables (inputs: SimulationInputs, caller: HookCaller): Promise<VariableDefinitions> {
  const all = new Map<string, StatusVariable>()
  for (const variable of inputs.clusterClass.spec?.variables ?? []) addDefinition(all, variable, 'inline')
  for (const patch of inputs.clusterClass.spec?.patches ?? []) {
    const name = patch.external?.discoverVariablesExtension
    if (!name) continue
    const response = await caller.callExtension(DiscoverVariables, name, { ...(patch.external?.settings ? { settings: patch.external.settings } : {}) }, `patch ${patch.name ?? ''}`, inputs.clusterClass)
    for (const variable of response.variables ?? []) addDefinition(all, variable, patch.name ?? '')
  }
  const variables = [...all.values()].sort((a, b) => (a.name ?? '') < (b.name ?? '') ? -1 : (a.name ?? '') > (b.name ?? '') ? 1 : 0)
  const conflicting = variables.filter(v => v.definitionsConflict).map(v => v.name)
  if (conflicting.length > 0) throw new SimulationFailure(`ClusterClass ${inputs.clusterClass.metadata.name}: the following variables have conflicting schemas: ${conflicting.join(',')} (Cluster API's VariablesReady condition stays False)`)
  const definitionsFrom = new Map(variables.map(v => [v.name, new Set(v.definitions.map(d => d.from))]))
  return { variables, definitionsFrom }
}

type Schema = JsonObject

/** An OpenAPI v3 schema of Kubernetes (JSONSchemaProps) as a JSON Schema Ajv checks, noting what it leaves out. */
function checkableSchema (schema: unknown, at: string, note: (text: string) => void): Schema {
  if (!isObject(schema)) return {}
  const out: Schema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, checkableSchema(v, `${at}.${k}`, note)]))
    else if ((key === 'items' || key === 'additionalProperties') && isObject(value)) out[key] = checkableSchema(value, `${at}.${key === 'items' ? '[]' : '*'}`, note)
    else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') out[key] = (value as unknown[]).map(v => checkableSchema(v, at, note))
    else if (key === 'not') out[key] = checkableSchema(value, at, note)
    else if (key === 'format') {
      if (CHECKED_FORMATS.has(String(value))) out[key] = value
      else note(`${at}: format ${JSON.stringify(value)} is not checked`)
    } else if (key === 'x-kubernetes-validations') {
      note(`${at}: x-kubernetes-validations (CEL rules) are not evaluated`)
    } else if (key === 'x-kubernetes-int-or-string' && value === true) {
      out['anyOf'] = [{ type: 'integer' }, { type: 'string' }]
    } else if (!['description', 'example', 'default', 'nullable', 'x-metadata'].includes(key) && !key.startsWith('x-')) {
      out[key] = value
    }
  }
  // Cluster API refuses fields a schema does not declare, unless it preserves unknown fields.
  if (out['type'] === 'object' && out['properties'] !== undefined && out['additionalProperties'] === undefined && schema['x-kubernetes-preserve-unknown-fields'] !== true) out['additionalProperties'] = false
  if (schema['nullable'] === true) return { anyOf: [out, { type: 'null' }] }
  return out
}

/** Kubernetes' structural defaulting: absent properties with a default get it, recursively. */
function applyDefaults (schema: unknown, value: unknown): unknown {
  if (!isObject(schema)) return value
  if (value === undefined) {
    if (schema['default'] === undefined) return undefined
    value = jsonCopy(schema['default'])
  }
  if (isObject(value)) {
    const properties = isObject(schema['properties']) ? schema['properties'] : {}
    for (const [key, propertySchema] of Object.entries(properties)) {
      const defaulted = applyDefaults(propertySchema, value[key])
      if (defaulted !== undefined) value[key] = defaulted
    }
    if (isObject(schema['additionalProperties'])) {
      for (const key of Object.keys(value)) if (!(key in properties)) value[key] = applyDefaults(schema['additionalProperties'], value[key])
    }
  } else if (Array.isArray(value) && isObject(schema['items'])) {
    return value.map(v => applyDefaults(schema['items'], v))
  }
  return value
}

/**
 * Defaults and validates values against the definitions (DefaultClusterVariables and ValidateClusterVariables):
 * with `create`, defined variables with a default that are not set are added (the Cluster's variables; overrides
 * only default what they set). `where` names the field in messages, e.g. `spec.topology.variables`.
 */
export function defaultAndValidate (values: readonly ClusterVariable[] | undefined, definitions: VariableDefinitions, where: string, create: boolean, note: (text: string) => void): ClusterVariable[] {
  const given = values ?? []
  const byName = new Map(definitions.variables.map(v => [v.name, v]))
  const out: ClusterVariable[] = []
  const seen = new Set<string>()
  for (const { name = '' } of given) {
    if (seen.has(name)) throw new SimulationInputError(`${where}[name=${name}]: variable names must be unique`)
    seen.add(name)
    if (!byName.has(name)) throw new SimulationInputError(`${where}[name=${name}]: variable is not defined by the ClusterClass or by its patches' DiscoverVariables`)
  }
  const all = [...given.map(v => ({ name: v.name ?? '', value: v.value as unknown })), ...(create ? definitions.variables.filter(d => !seen.has(d.name)).map(d => ({ name: d.name, value: undefined as unknown })) : [])]
  for (const variable of all) {
    const definition = byName.get(variable.name) as StatusVariable
    const schema = definition.definitions[0]?.schema?.openAPIV3Schema
    const value = applyDefaults(schema, jsonCopy(variable.value))
    if (value === undefined) continue
    const problem = validate(checkableSchema(schema, `${where}[name=${variable.name}].value`, note) as unknown as TSchema, value, 'request')
    if (problem) throw new SimulationInputError(`${where}[name=${variable.name}].value${problem.startsWith('(root)') ? problem.slice(6) : problem.startsWith('[') ? problem : `.${problem}`}`)
    out.push({ name: variable.name, value: value as ClusterVariable['value'] })
  }
  if (create) {
    for (const definition of definitions.variables) {
      if (definition.definitions.some(d => d.required) && !out.some(v => v.name === definition.name)) throw new SimulationInputError(`${where}: required variable ${JSON.stringify(definition.name)} is not set`)
    }
  }
  return out
}
