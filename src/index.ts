// runtime-sdk: the Cluster API Runtime SDK for TypeScript. The root export holds what extension and controller
// authors use every day; each part has its own subpath too: runtime-sdk/server, /client, /controller, /conformance,
// /openapi and /testing.
export * as v1alpha1 from './api/hooks/v1alpha1/index.js'
export { defineHook, type HookConversion, type HookDefinition, type HookGroupVersion, type HookMeta, type RequestOf, type ResponseOf } from './api/hooks/define.js'
export * as schema from './api/schema.js'
export { Catalog, CatalogError, type CatalogHook, createCatalog, type GroupVersionHook, HOOKS_GROUP, type ValidationResult } from './catalog/index.js'
export {
  createExtensionServer, defineHandler, HookError, ExtensionHandlerError, runtimeExtension,
  type ExtensionHandler, type ExtensionServer, type ExtensionServerOptions, type HandlerContext, type HandlerResult, type RuntimeExtensionOptions
} from './server/index.js'
export {
  type CallOptions, type CallResult, type HandlerOutcome, HttpRuntimeClient, type KubeObject, RuntimeCallError, type RuntimeClient, type RuntimeClientOptions
} from './client/index.js'
export { Registry, RegistryError } from './registry/index.js'
export type * from './api/extension-config.js'
export * from './api/constants.js'
export { type ExtensionConfigValidationResult, validateExtensionConfig } from './api/validate.js'
export { ConversionError, convertExtensionConfig, reviewConversion } from './api/conversion.js'
export { extensionConfigCRD } from './api/crd.js'
