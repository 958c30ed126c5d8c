// The ClusterClass's variables and the Cluster's values, as Cluster API handles them: definitions from the class's
// inline spec.variables and from each external patch's DiscoverVariables answer (the ClusterClass reconciler's
// status.variables, sorted by name), then the Cluster's values defaulted and validated as the Cluster webhook does
// (DefaultVariables, then ValidateClusterVariables: OpenAPI schema, unknown fields, CEL rules), with its messages.
import type { ClusterClassStatusVariable, ClusterClassVariable, ClusterVariable } from '../api/hooks/v1alpha1/types.generated.js'
import { DiscoverVariables } from '../api/hooks/v1alpha1/hooks.js'
import {
  ApiServerSchemaError, applyDefaults, compileSchema, type FieldError, internalError, invalid, invalidObjectMessage,
  type JSONSchemaProps, keyPath, childPath, goJson, prune, required, validate, validateRules
} from '../apiserver/index.js'
import { quote as goQuote } from '../go/strconv.js'
import type { SimulationInputs } from './inputs.js'
import { type Stored, isObject } from './objects.js'
import { type HookCaller, SimulationFailure } from './timeline.js'
import { SimulationInputError } from './errors.js'
import { stableJson } from '../client/wire.js'
import type { Cluster } from '../api/hooks/v1alpha1/types.generated.js'

/** A variable of ClusterClass status.variables: its definitions, from the class (`inline`) or a patch. */
interface StatusVariable extends ClusterClassStatusVariable {
  name: string
  definitionsConflict: boolean
  definitions: Array<NonNullable<ClusterClassStatusVariable['definitions']>[number] & { from: string }>
}

/** The class's variables, by name (ClusterClass status.variables), and which patches define each. */
interface VariableDefinitions {
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

/** The keys of Cluster API's JSONSchemaProps that convertToAPIExtensionsJSONSchemaProps carries over. */
const SCHEMA_KEYS = ['type', 'required', 'maxProperties', 'minProperties', 'maxItems', 'minItems', 'format', 'maxLength', 'minLength', 'pattern', 'maximum', 'minimum']
const SCHEMA_FLAGS = ['uniqueItems', 'exclusiveMaximum', 'exclusiveMinimum', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields']
const RULE_KEYS = ['rule', 'message', 'messageExpression', 'reason', 'fieldPath']

/**
 * A variable's schema as Cluster API hands it to the apiextensions library (convertToAPIExtensionsJSONSchemaProps):
 * descriptions and x-metadata dropped, false flags and null defaults and enum values left out.
 */
function toApiExtensionsSchema (schema: unknown): JSONSchemaProps {
  if (!isObject(schema)) return {}
  const out: Record<string, unknown> = {}
  for (const key of SCHEMA_KEYS) if (schema[key] !== undefined && schema[key] !== null && schema[key] !== '') out[key] = schema[key]
  for (const key of SCHEMA_FLAGS) if (schema[key] === true) out[key] = true
  if (schema['default'] !== undefined && schema['default'] !== null) out['default'] = schema['default']
  if (Array.isArray(schema['enum'])) {
    const values = schema['enum'].filter(v => v !== null)
    if (values.length > 0) out['enum'] = values
  }
  if (isObject(schema['additionalProperties'])) out['additionalProperties'] = toApiExtensionsSchema(schema['additionalProperties'])
  if (isObject(schema['properties']) && Object.keys(schema['properties']).length > 0) out['properties'] = Object.fromEntries(Object.entries(schema['properties']).map(([k, v]) => [k, toApiExtensionsSchema(v)]))
  if (isObject(schema['items'])) out['items'] = toApiExtensionsSchema(schema['items'])
  for (const key of ['allOf', 'oneOf', 'anyOf']) if (Array.isArray(schema[key]) && schema[key].length > 0) out[key] = schema[key].map(toApiExtensionsSchema)
  if (isObject(schema['not'])) out['not'] = toApiExtensionsSchema(schema['not'])
  if (Array.isArray(schema['x-kubernetes-validations'])) {
    out['x-kubernetes-validations'] = schema['x-kubernetes-validations'].map(r => Object.fromEntries(RULE_KEYS.filter(k => isObject(r) && r[k] !== undefined && r[k] !== '').map(k => [k, (r as Record<string, unknown>)[k]])))
  }
  return out as JSONSchemaProps
}

/** What Cluster API holds for a value: json.RawMessage, i.e. the value as Go's encoding/json writes it. */
const raw = (value: unknown): string => value === undefined ? '' : goJson(value)

/** One variable's definition, ready to use: Cluster API's schema in apiextensions form, compiled once. */
interface CompiledVariable {
  name: string
  required: boolean
  props: JSONSchemaProps
}

const compiledVariables = new WeakMap<StatusVariable, CompiledVariable>()

function compiledVariable (definition: StatusVariable, className: string): CompiledVariable {
  const cached = compiledVariables.get(definition)
  if (cached) return cached
  const first = definition.definitions[0]
  const props = toApiExtensionsSchema(first?.schema?.openAPIV3Schema)
  try {
    compileSchema(props, { resourceRoot: false })
  } catch (error) {
    if (error instanceof ApiServerSchemaError) throw new SimulationInputError(`ClusterClass ${className}: variable ${JSON.stringify(definition.name)}: ${error.message}`)
    throw error
  }
  const result = { name: definition.name, required: first?.required === true, props }
  compiledVariables.set(definition, result)
  return result
}

/** A value wrapped as Cluster API wraps it, since structural defaulting, pruning and CEL need an object. */
const wrappedSchema = (name: string, props: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { [name]: props } })

/** newValuesIndex: each name once. */
function duplicateErrors (values: readonly ClusterVariable[], path: string): FieldError[] {
  const seen = new Set<string>()
  const errors: FieldError[] = []
  for (const { name = '', value } of values) {
    if (seen.has(name)) errors.push(invalid(keyPath(path, name), raw(value), `variable ${goQuote(name)} is set more than once`))
    seen.add(name)
  }
  return errors
}

/** defaultClusterVariables: the values in order, then the class's other variables that have a top-level default. */
function defaultVariables (values: readonly ClusterVariable[], definitions: VariableDefinitions, className: string, create: boolean, path: string): { values: ClusterVariable[], errors: FieldError[] } {
  const duplicates = duplicateErrors(values, path)
  if (duplicates.length > 0) return { values: [], errors: duplicates }
  const byName = new Map(definitions.variables.map(v => [v.name, v]))
  const given = new Map(values.map(v => [v.name ?? '', v]))
  const all = [...values.map(v => v.name ?? ''), ...definitions.variables.map(d => d.name).filter(name => !given.has(name))]
  const errors: FieldError[] = []
  const out: ClusterVariable[] = []
  for (const name of all) {
    const current = given.get(name)
    const definition = byName.get(name)
    if (!definition) {
      errors.push(invalid(keyPath(path, name), raw(current?.value), 'variable is not defined'))
      continue
    }
    const variable = compiledVariable(definition, className)
    if (current === undefined && (!create || variable.props.default === undefined)) continue
    // A value Go reads as nil (absent or null) is present as nil in the wrapper: a non-nullable nil gets the default.
    const value = current?.value === undefined ? null : current.value
    const defaulted = applyDefaults(wrappedSchema(name, variable.props), { [name]: value }, { pruneNulls: false }) as Record<string, unknown>
    out.push({ name, value: defaulted[name] as ClusterVariable['value'] })
  }
  return { values: errors.length > 0 ? [] : out, errors }
}

/** validateClusterVariables: required variables set (with `validateRequired`), each value valid for its definition. */
function validateVariables (values: readonly ClusterVariable[], old: readonly ClusterVariable[] | undefined, definitions: VariableDefinitions, className: string, validateRequired: boolean, path: string): FieldError[] {
  const duplicates = duplicateErrors(values, path)
  if (duplicates.length > 0) return duplicates
  const errors: FieldError[] = []
  const byName = new Map(definitions.variables.map(v => [v.name, v]))
  const names = new Set(values.map(v => v.name ?? ''))
  if (validateRequired) {
    for (const definition of definitions.variables) {
      if (definition.definitions[0]?.required === true && !names.has(definition.name)) errors.push(required(path, `required variable ${goQuote(definition.name)} must be set`))
    }
  }
  for (const { name = '', value } of values) {
    const at = keyPath(path, name)
    const definition = byName.get(name)
    if (!definition) {
      errors.push(invalid(at, raw(value), 'variable is not defined'))
      continue
    }
    errors.push(...validateVariable(name, value, old?.find(v => v.name === name)?.value, compiledVariable(definition, className), at))
  }
  return errors
}

/** ValidateClusterVariable: OpenAPI validation, then unknown fields, then CEL rules (with the old value on update). */
function validateVariable (name: string, value: unknown, oldValue: unknown, variable: CompiledVariable, at: string): FieldError[] {
  const given = value === undefined ? null : value
  const bad = raw(value)
  const valuePath = childPath(at, 'value')
  const schemaErrors = validate(variable.props, given, valuePath)
  if (schemaErrors.length > 0) return schemaErrors.map(e => ({ ...withValue(e, bad), detail: e.detail.startsWith(' in body ') ? e.detail.slice(' in body '.length) : e.detail }))
  const wrapped = wrappedSchema('variableValue', variable.props)
  const unknown = prune(wrapped, { variableValue: given }).pruned.map(p => p.startsWith('variableValue.') ? p.slice('variableValue.'.length) : p)
  if (unknown.length > 0) return [invalid(at, bad, `failed validation: ${goQuote(unknown.join(','))} field(s) are not specified in the variable schema of variable ${goQuote(name)}`)]
  const old = oldValue === undefined ? undefined : { variableValue: oldValue }
  try {
    const ruleErrors = validateRules(wrapped, { variableValue: given }, old, valuePath)
    return ruleErrors.map(e => ({ ...withValue(e, bad), field: e.field.replace('value.variableValue', 'value') }))
  } catch (error) {
    if (error instanceof ApiServerSchemaError) return [internalError(at, `failed to create CEL validator for variable ${goQuote(name)}: ${error.message}`)]
    throw error
  }
}

/** The error with the variable's raw JSON as its value, as Cluster API sets BadValue (a value it omitted is shown). */
function withValue (error: FieldError, value: string): FieldError {
  const { omitValue: _omitted, ...rest } = error
  return { ...rest, value }
}

/** Where a holder's overrides are, as Cluster API names it: `spec.topology.workers.machineDeployments[md-0].variables.overrides`. */
interface OverridesHolder { name?: string, variables?: { overrides?: ClusterVariable[] } }

function overrideHolders (cluster: Stored<Cluster, 'namespaced'>): Array<{ holder: OverridesHolder, path: string }> {
  const topology = cluster.spec?.topology
  if (!topology) return []
  const workers = (kind: string, list: OverridesHolder[] | undefined) => (list ?? []).map(holder => ({ holder, path: childPath(childPath(keyPath(`spec.topology.workers.${kind}`, holder.name ?? ''), 'variables'), 'overrides') }))
  return [
    ...(topology.controlPlane ? [{ holder: topology.controlPlane as OverridesHolder, path: 'spec.topology.controlPlane.variables.overrides' }] : []),
    ...workers('machineDeployments', topology.workers?.machineDeployments),
    ...workers('machinePools', topology.workers?.machinePools)
  ]
}

/**
 * DefaultAndValidateVariables: defaults the Cluster's variables and overrides in place (overrides only default what
 * they set) and returns the field errors Cluster API reports. `old` is the Cluster before an update (for CEL
 * transition rules).
 */
function defaultAndValidateVariables (cluster: Stored<Cluster, 'namespaced'>, definitions: VariableDefinitions, className: string, old?: Stored<Cluster, 'namespaced'>): FieldError[] {
  const topology = cluster.spec?.topology
  if (!topology) return []
  const errors: FieldError[] = []
  const clusterWide = defaultVariables(topology.variables ?? [], definitions, className, true, 'spec.topology.variables')
  errors.push(...clusterWide.errors)
  if (clusterWide.errors.length === 0) topology.variables = clusterWide.values
  const holders = overrideHolders(cluster)
  for (const { holder, path } of holders) {
    const overrides = holder.variables?.overrides ?? []
    if (overrides.length === 0) continue
    const defaulted = defaultVariables(overrides, definitions, className, false, path)
    errors.push(...defaulted.errors)
    if (defaulted.errors.length === 0 && holder.variables) holder.variables.overrides = defaulted.values
  }
  errors.push(...validateVariables(topology.variables ?? [], old?.spec?.topology?.variables, definitions, className, true, 'spec.topology.variables'))
  const oldHolders = old ? overrideHolders(old) : []
  for (const { holder, path } of holders) {
    const overrides = holder.variables?.overrides ?? []
    if (overrides.length === 0) continue
    errors.push(...validateVariables(overrides, oldHolders.find(h => h.path === path)?.holder.variables?.overrides, definitions, className, false, path))
  }
  return errors
}

/**
 * The Cluster as the Cluster webhook stores it, its variables and every override defaulted and checked against the
 * ClusterClass's definitions; refused as the webhook refuses it (SimulationInputError with its message).
 */
export function defaultClusterVariables (cluster: Stored<Cluster, 'namespaced'>, definitions: VariableDefinitions, className: string, old?: Stored<Cluster, 'namespaced'>): ClusterVariable[] {
  const errors = defaultAndValidateVariables(cluster, definitions, className, old)
  if (errors.length > 0) throw new SimulationInputError(`admission webhook "default.cluster.cluster.x-k8s.io" denied the request: ${invalidObjectMessage('Cluster', 'cluster.x-k8s.io', cluster.metadata.name ?? '', errors)}`)
  return cluster.spec?.topology?.variables ?? []
}
