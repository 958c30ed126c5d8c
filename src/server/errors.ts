// The errors of the extension server SDK, each with a stable code.
import { codedError } from '../errors/index.js'

/**
 * HookError is an error whose message is meant for the caller: thrown by a handler, its message becomes the
 * Failure message as is. Any other error is reported with a generic message (details go to the log only),
 * so stack traces, URLs or secrets in error messages never reach Cluster API conditions.
 */
export class HookError extends codedError('ERR_RUNTIME_SDK_HOOK') {}

/** An extension's handlers are invalid: names, timeouts, failure policies, hooks not in the catalog. */
export class ExtensionHandlerError extends codedError('ERR_RUNTIME_SDK_EXTENSION_HANDLER') {}
