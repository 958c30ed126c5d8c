// What every HTTP server of the project shares (the extension server, the controller's endpoint, the conversion
// webhook): the one server builder with its connection limits, the operations routes (/healthz, /readyz, /metrics,
// JSON 404 and 405 with stable codes), JSON errors, which request bodies are JSON, the options every fastify app is
// created with, and listening with the printed URL. The client side (undici) is in src/shims, so a server never loads it.
export { isJsonContentType } from './content-type.js'
export { HttpError, INTERNAL_ERROR_BODY, sendError } from './errors.js'
export { jsonErrors, listenAt, methodNotAllowed, operationsRoutes, PROBES, serverUrl } from './operations.js'
export { closeServer, type ConnectionLimits, createNodeServer, DEFAULT_LIMITS, listenServer, type NodeServerOptions, nodeServerFactory, type RequestListener } from './server.js'
export { appOptions } from '../shims/fastify-options.js'
