// The API root, the base layer: every API runtime-sdk speaks and the Kubernetes concepts they share; it imports
// nothing else of the project.
//   hooks/            what a hook definition is (define.ts) and Cluster API's hooks (v1alpha1/: the definitions dumped
//                     from Cluster API, the types generated from them, schemas, the hook list, sample requests)
//   schema.ts         the TypeBox building blocks of our schemas and of your own hook groups
//   type-builder.ts   the TypeBox constructors those use, without loading TypeBox at run time
//   extension-config.ts, v1beta2.ts, v1alpha1.ts, meta.ts   the ExtensionConfig API: types and schemas
//   validate.ts, extension-config-rules.ts, rules.ts, go-url.ts   its validation, as CEL for the CRD and in TypeScript
//   conversion.ts, crd.ts   conversion between its versions, the CRD generated from the schemas
//   constants.ts      names and condition words copied from Cluster API
//   kube-object.ts    the one KubeObject, on Kubernetes' ObjectMeta
//   ajv.ts            Ajv, loaded on first use with our schemas' formats (here and for the catalog's hook schemas)
export * as v1alpha1 from './hooks/v1alpha1/index.js'
export { defineHook, type HookConversion, type HookDefinition, type HookGroupVersion, type HookMeta, type RequestOf, type ResponseOf } from './hooks/define.js'
export * as schema from './schema.js'
export type * from './extension-config.js'
export * from './constants.js'
export { type ExtensionConfigValidationResult, validateExtensionConfig } from './validate.js'
export { ConversionError, convertExtensionConfig, reviewConversion } from './conversion.js'
export { extensionConfigCRD } from './crd.js'
