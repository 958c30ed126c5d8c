/**
 * The Cluster API Runtime SDK for TypeScript. The root export holds what extension and controller authors use every
 * day: Cluster API's hooks and their types (`v1alpha1`), the extension server, the runtime client, the ExtensionConfig
 * API and the hook catalog. Each part has its own subpath too: runtime-sdk/server, /client, /controller,
 * /conformance, /openapi, /testing and /topology (also here as the `topology` namespace).
 *
 * @packageDocumentation
 */
export * from './api/index.js'
export { Catalog, CatalogError, type CatalogHook, createCatalog, type GroupVersionHook, type HookChecks, HOOKS_GROUP, type ReceivedRequest, type ValidationResult } from './catalog/index.js'
export {
  createExtensionServer, createInProcessExtension, defineHandler, HookError, ExtensionHandlerError, runtimeExtension,
  type ExtensionHandler, type ExtensionServer, type ExtensionServerOptions, type RecordingOptions, type HandlerContext, type HandlerResult, type InProcessExtension, type RuntimeExtensionOptions
} from './server/index.js'
export {
  type CallOptions, type CallResult, type HandlerOutcome, HttpRuntimeClient, type KubeObject, RuntimeCallError, type RuntimeClient, type RuntimeClientOptions
} from './client/index.js'
export { type ExtensionRegistration, ExtensionRegistry, RegistryError } from './registry/index.js'
export * as topology from './topology/index.js'
export type { CodedError } from './errors/index.js'
