// The public API of runtime-sdk.
export * from './catalog/index.js'
export { defineHook, type HookConversion, type HookDefinition, type HookGroupVersion, type HookMeta, type RequestOf, type ResponseOf } from '../hooks/define.js'
export * as v1alpha1 from '../hooks/v1alpha1/index.js'
export * as schema from '../hooks/schema.js'
export * from './client/index.js'
export * from './registry/index.js'
export type * from './api/extension-config.js'
export * from './server/index.js'
