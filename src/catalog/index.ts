// The hook catalog: which hooks exist in which group versions (catalog.ts, default.ts), their identities and paths
// (identity.ts), validation of requests and responses per direction (validate.ts; decoders generated for Cluster
// API's hooks in decoder/, with Go's decoding rules; Ajv for the rest in schema-compiler.ts),
// conversion between versions, the rules for handlers as Discovery announces them (handlers.ts) and the OpenAPI
// document (openapi.ts).
export { Catalog, CatalogError, type CatalogHook, type HookChecks, type ReceivedRequest, type ValidationResult } from './catalog.js'
export { createCatalog, HOOKS_GROUP } from './default.js'
export { apiVersionOf, compareVersions, type GroupVersionHook, groupHookString, gvhString, hookPath, parseApiVersion } from './identity.js'
export { buildOpenAPIDocument, hooksOpenAPIDocument, OPENAPI_VERSION, operationId, type OpenAPIDocument, type OpenAPIOptions } from './openapi.js'
export { validate } from './validate.js'
export {
  type AnnouncedHandler, defaultHandler, dns1123LabelErrors, type Handler, handlerErrors, MAX_BODY_BYTES, validateDiscoveredHandlers
} from './handlers.js'
