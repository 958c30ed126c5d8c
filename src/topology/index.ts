/**
 * Writing topology mutation extensions (GeneratePatches, ValidateTopology, DiscoverVariables) without hand-made JSON
 * Patch: Cluster API's exp/runtime/topologymutation for TypeScript ({@link walkTemplates}, typed variable getters,
 * typed template kinds) and a typed builder of ClusterClass variable schemas, checked as Cluster API checks them.
 *
 * @packageDocumentation
 */
// The files:
//   walk.ts             walkTemplates / validateTemplates: each template with its merged variables, patches computed
//   variables.ts        getVariable and typed getters on dotted paths, mergeVariables, the typed builtin variable
//   holders.ts          which template an item is (infrastructure cluster, control plane, ...), class globs
//   templates.ts        template kinds: typed templates by apiVersion and kind, or a type guard
//   templates.generated.ts  the types of Cluster API's own template kinds
//   variable-schema.ts  a typed builder of ClusterClass variable schemas for DiscoverVariables, checked as Cluster API does
//   json-patch.ts       RFC 6902 patches from a side-by-side walk of the template as received and as mutated
//   merge-patch.ts, json.ts  RFC 7386 patches and JSON copies and comparisons, safe for a key named __proto__
//   errors.ts           VariableError, VariableTypeError, VariableSchemaError, TemplateMutationError
export { createTemplatePatch, templateItems, validateTemplates, walkTemplates } from './walk.js'
export type { JsonPatchOperation } from './json-patch.js'
export type { MutateFunction, PatchFormat, TemplateContext, TemplateItem, WalkOptions, WalkTemplatesOptions } from './walk.js'
export { getBoolean, getNumber, getObject, getString, getValue, getVariable, mergeVariables, toVariables, type ValueCheck, type Variables } from './variables.js'
export {
  isControlPlaneMachineInfrastructureTemplate, isControlPlaneTemplate, isInfrastructureClusterTemplate, isMachineDeploymentBootstrapTemplate,
  isMachineDeploymentInfrastructureTemplate, isMachinePoolBootstrapTemplate, isMachinePoolInfrastructureTemplate, matchesClass, templateRole, type TemplateRole
} from './holders.js'
export { ensurePath, isKind, templateKind, type KindType, type TemplateBase, type TemplateKind, type TemplateKindRef, type TemplateKinds, type TemplateOf } from './templates.js'
export type { Unstructured } from '../api/kube-object.js'
export * as templates from './templates.generated.js'
export * as variableSchema from './variable-schema.js'
export { defineVariables, type AnyVariableSchema, type VariableDefinition, type VariableSchema, type VariableValue } from './variable-schema.js'
export { TemplateMutationError, VariableError, VariableSchemaError, VariableTypeError } from './errors.js'
