/**
 * The extension server SDK: serve Runtime Extension handlers over HTTPS, standalone ({@link createExtensionServer})
 * or as a fastify plugin ({@link runtimeExtension}), or call them in process ({@link createInProcessExtension});
 * every entrance answers through the same serving core.
 *
 * @packageDocumentation
 */
export { type ConnectionLimits, DEFAULT_LIMITS } from '../http/index.js'
export { createExtensionServer, type ExtensionServer, type ExtensionServerOptions, type ListenOptions, type MetricsView } from './server.js'
export type { RecordingOptions } from './recording.js'
export { DEFAULT_DEADLINE_MARGIN_MS, type ExtensionOptions, type RuntimeExtensionOptions } from './extension.js'
export { createInProcessExtension, type InProcessCallOptions, type InProcessExtension } from './in-process.js'
export { runtimeExtension, type RuntimeExtensionPlugin } from './plugin.js'
export { defineHandler, type ExtensionHandler, type ExtensionHandlers, type HandlerContext, type HandlerFunction, type HandlerResult } from './types.js'
export { ExtensionHandlerError, HookError } from './errors.js'
export { parseGoDuration } from '../go/time.js'
export type { TLSFileOptions } from '../tls/index.js'
export type { AnnouncedHandler } from '../catalog/handlers.js'
export type { OpenAPIDocument } from '../catalog/openapi.js'
