// The extension server SDK: serve Runtime Extension handlers over HTTPS.
export { createExtensionServer, DEFAULT_DEADLINE_MARGIN_MS, DEFAULT_LIMITS, type ConnectionLimits, type ExtensionServer, type ExtensionServerOptions, type ListenOptions } from './server.js'
export { defineHandler, HookError, type AnyHandlerRegistration, type HandlerContext, type HandlerFunction, type HandlerRegistration, type HandlerResult } from './types.js'
export { RegistrationError } from './registration.js'
export { parseGoDuration } from './duration.js'
export type { TLSFileOptions } from './tls.js'
