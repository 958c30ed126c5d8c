// The API root, the base layer: every API runtime-sdk speaks and the Kubernetes concepts they share; it imports
// nothing else of the project but the dependency shims. One folder per API, so that no two files share a name:
//   hooks/              what a hook definition is (define.ts) and Cluster API's hooks (v1alpha1/: loaded from the data
//                       in the top-level hooks/ folder; the types generated from it, schemas, the hook list, samples)
//   extension-config/   the ExtensionConfig API (runtime.cluster.x-k8s.io): types and schemas of v1beta2 and v1alpha1,
//                       its admission rules (CEL for the CRD, the same checks in TypeScript), conversion between its
//                       versions, the CRD generated from the schemas, names copied from Cluster API
//   schema/             the schema toolkit: TypeBox building blocks of our schemas and of your own hook groups, and
//                       rules written once as CEL and TypeScript
//   kube-object.ts      the Kubernetes object types: KubeObject, Unstructured and Stored<T>, on Kubernetes' ObjectMeta
export * as v1alpha1 from './hooks/v1alpha1/index.js'
export { defineHook, type HookConversion, type HookDefinition, type HookGroupVersion, type HookMeta, type RequestOf, type ResponseOf } from './hooks/define.js'
export * as schema from './schema/builders.js'
export type * from './extension-config/types.js'
export * from './extension-config/constants.js'
export { type ExtensionConfigValidationResult, validateExtensionConfig } from './extension-config/validate.js'
export { ConversionError, type ConversionReviewResponse, convertExtensionConfig, reviewConversion } from './extension-config/conversion.js'
export { type CustomResourceColumn, type CustomResourceDefinition, type CustomResourceDefinitionVersion, extensionConfigCRD } from './extension-config/crd.js'
