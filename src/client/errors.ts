// The errors of the client layer. RuntimeCallError and TransportError reach callers; the others classify one
// handler call inside the client: a CallingError is subject to failurePolicy, a HandlerError never is.
import { codedError } from '../errors/index.js'
import type { HandlerOutcome } from './runtime-client.js'

/** An error of a call, with the outcome of every handler. */
export class RuntimeCallError extends codedError('ERR_RUNTIME_SDK_CALL') {
  /** @param handlers the outcome of every handler of the call (empty when the call failed before any was called). */
  constructor (message: string, readonly handlers: HandlerOutcome[] = []) {
    super(message)
  }
}

/** A CA bundle or client certificate that cannot be used. */
export class TransportError extends codedError('ERR_RUNTIME_SDK_TRANSPORT') {}

/** A failure in calling a handler (transport, TLS, timeout, HTTP status, body): subject to failurePolicy. */
export class CallingError extends Error {}
/** Any other error of one handler call: never ignored. */
export class HandlerError extends Error {}
export class CancelledError extends HandlerError {}
