// What every HTTP server of the project shares (the extension server, the controller's endpoint, the conversion
// webhook): the operations routes (/healthz, /readyz, /metrics, JSON 404 and 405 with stable codes), JSON errors,
// which request bodies are JSON, the options every app is created with, and listening with the printed URL.
// undici.ts is the client side (the runtime and Kubernetes clients), imported directly, so a server never loads it.
export { isJsonContentType } from './content-type.js'
export { HttpError, sendError } from './errors.js'
export { jsonErrors, listenAt, methodNotAllowed, operationsRoutes, PROBES, serverUrl } from './operations.js'
export { appOptions } from '../shims/fastify-options.js'
