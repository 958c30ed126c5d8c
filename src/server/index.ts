// The extension server SDK: serve Runtime Extension handlers over HTTPS, standalone or as a fastify plugin.
export { type ConnectionLimits, DEFAULT_LIMITS } from './node-server.js'
export { createExtensionServer, type ExtensionServer, type ExtensionServerOptions, type ListenOptions } from './server.js'
export { DEFAULT_DEADLINE_MARGIN_MS, runtimeExtension, type RuntimeExtensionOptions } from './plugin.js'
export { defineHandler, type ExtensionHandler, type ExtensionHandlers, type HandlerContext, type HandlerFunction, type HandlerResult } from './types.js'
export { ExtensionHandlerError, HookError } from './errors.js'
export { parseGoDuration } from './duration.js'
export type { TLSFileOptions } from '../tls/index.js'
