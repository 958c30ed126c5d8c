// The public types of the extension server SDK: handler registrations and the context a handler runs in.
import type { Logger } from 'pino'
import type { HookDefinition, RequestOf, ResponseOf } from '../../hooks/define.js'
import type { FailurePolicy } from '../catalog/handlers.js'

/** What a handler returns: the hook's response; kind, apiVersion and retryAfterSeconds (0) are filled in when absent. */
export type HandlerResult<H> = AllowReadonly<Omit<ResponseOf<H>, 'kind' | 'apiVersion' | 'retryAfterSeconds'> & { kind?: string, apiVersion?: string, retryAfterSeconds?: number }>

/** The server only reads what a handler returns, so readonly arrays (e.g. from `as const`) are fine. */
type AllowReadonly<T> = T extends ReadonlyArray<infer U> ? ReadonlyArray<AllowReadonly<U>> : T extends object ? { [K in keyof T]: AllowReadonly<T[K]> } : T

/** Everything a handler gets besides the request. */
export interface HandlerContext {
  /** log is a pino child logger carrying the hook, handler name and request id (made when it first writes). */
  log: Logger
  /** signal aborts when the deadline passes (or the server is forced down); pass it to I/O the handler does. */
  signal: AbortSignal
  /** deadline is when the server stops waiting for the handler and answers Failure. */
  deadline: Date
  /** requestId identifies the call in logs (the x-request-id header when the caller sent one). */
  requestId: string
  /** name is the handler's registered name. */
  name: string
}

export type HandlerFunction<H extends HookDefinition> = (request: RequestOf<H>, ctx: HandlerContext) => HandlerResult<H> | Promise<HandlerResult<H>>

/** One handler of an extension: the hook it implements, its name (a DNS-1123 label) and the function. */
export interface HandlerRegistration<H extends HookDefinition = HookDefinition> {
  /** hook is a hook definition registered in the server's catalog, e.g. v1alpha1.BeforeClusterCreate. */
  hook: H
  /** name is a DNS-1123 label, unique within the extension; it is the last segment of the handler's path. */
  name: string
  handler: HandlerFunction<H>
  /** timeoutSeconds (0..30) is announced in Discovery; Cluster API uses 10 when absent. */
  timeoutSeconds?: number
  /** failurePolicy (Fail or Ignore) is announced in Discovery; Cluster API uses Fail when absent. */
  failurePolicy?: FailurePolicy
}

/** A registration of any hook, for lists mixing hooks (and for hooks typed by hand, e.g. from your own group). */
export interface AnyHandlerRegistration {
  hook: HookDefinition
  name: string
  handler: (request: any, ctx: HandlerContext) => unknown
  timeoutSeconds?: number
  failurePolicy?: FailurePolicy
}

/**
 * Declares a handler with full typing of request and response (an identity function, like defineHook).
 * The result type is a `const` type parameter so that `{ status: 'Success' }` keeps its literal type.
 */
export function defineHandler<H extends HookDefinition, const R extends HandlerResult<H>> (
  registration: Omit<HandlerRegistration<H>, 'handler'> & { handler: (request: RequestOf<H>, ctx: HandlerContext) => R | Promise<R> }
): HandlerRegistration<H> {
  return registration as HandlerRegistration<H>
}

/**
 * HookError is an error whose message is meant for the caller: thrown by a handler, its message becomes the
 * Failure message as is. Any other error is reported with a generic message (details go to the log only),
 * so stack traces, URLs or secrets in error messages never reach Cluster API conditions.
 */
export class HookError extends Error {
  override name = 'HookError'
}
