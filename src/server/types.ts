// The public types of the extension server SDK: the handlers an extension declares and the context they run in.
import type { Logger } from 'pino'
import type { HookDefinition } from '../api/hooks/define.js'
import type { HookTypes } from '../api/hooks/v1alpha1/types.generated.js'
import type { FailurePolicy } from '../api/hooks/v1alpha1/types.generated.js'

/**
 * What a handler returns: the hook's response. `retryAfterSeconds` may be left out (0); `kind` and `apiVersion`
 * are filled in by the server. Fields only other hooks' responses have are refused, so the answer of another hook
 * does not compile (TypeScript checks no other unknown fields of a returned object).
 */
export type HandlerResult<Res> = (Res extends {
  /** retryAfterSeconds: the responses of blocking hooks have it. */
  retryAfterSeconds: number
} ? Omit<Res, 'retryAfterSeconds'> & {
  /** retryAfterSeconds asks the caller to call again after this many seconds; 0 (the default) lets the operation go on. */
  retryAfterSeconds?: number
} : Res) &
  // Every field of a v1alpha1 hook response that this one does not have.
  { [K in Exclude<{ [N in keyof HookTypes]: keyof HookTypes[N]['response'] }[keyof HookTypes], keyof Res>]?: never }

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

/**
 * The function implementing a hook: the request and result types come from the hook definition.
 * (A conditional type on purpose: TypeScript then types an inline handler from the `hook` next to it, literals included.)
 *
 * For a handler of any hook (`ExtensionHandler` without a hook type) it is a function of any request returning any
 * hook's result `R`, declared as a method so that it is checked bivariantly: every typed handler function is one. `R`
 * names every v1alpha1 result, which keeps the string literals of a handler without parameters (`patchType:
 * 'JSONPatch'`) while TypeScript still infers which hook it belongs to, and `{ status }`, what every hook response
 * has, which keeps `'Success'` a literal before TypeScript knows the hook.
 */
export type HandlerFunction<H extends HookDefinition> = H extends HookDefinition<infer Req, infer Res extends {
  /** status is Success or Failure: every hook response has it. */
  status: 'Success' | 'Failure'
}>
  ? (request: Req, ctx: HandlerContext) => HandlerResult<Res> | Promise<HandlerResult<Res>>
  : ({
      /** status is Success or Failure: every hook response has it. */
      status: 'Success' | 'Failure'
    } | { [N in keyof HookTypes]: HandlerResult<HookTypes[N]['response']> }[keyof HookTypes]) extends infer R
      ? {
          /** Answers a request of any hook. */
          handler (request: unknown, ctx: HandlerContext): R | Promise<R>
        }['handler']
      : never

/**
 * One handler of an extension (Cluster API's ExtensionHandler): the hook it implements, its name (a DNS-1123
 * label, unique within the extension), the function, and what Discovery announces about it. `ExtensionHandler`
 * without a hook type is a handler of any hook, as a list built at run time holds it: every `ExtensionHandler<H>` is one.
 */
export interface ExtensionHandler<H extends HookDefinition = HookDefinition> {
  /** hook is a hook definition of the server's catalog, e.g. v1alpha1.BeforeClusterCreate; it types the handler. */
  hook: H
  /** name is a DNS-1123 label, unique within the extension; it is the last segment of the handler's path. */
  name: string
  /**
   * handler answers the hook's requests. A thrown error, or a handler still running at its deadline, is answered with
   * status Failure: a HookError's message as is, a generic message for any other error.
   */
  handler: HandlerFunction<H>
  /** timeoutSeconds (0..30) is announced in Discovery; Cluster API uses 10 when absent. */
  timeoutSeconds?: number
  /** failurePolicy (Fail or Ignore) is announced in Discovery; Cluster API uses Fail when absent. */
  failurePolicy?: FailurePolicy
}

/** A list of handlers, each typed by its own hook: what `handlers` options take. */
export type ExtensionHandlers<T extends readonly HookDefinition[]> = { readonly [I in keyof T]: ExtensionHandler<T[I]> }

/** Declares one handler with its request and result typed from `hook` (an identity function). */
export function defineHandler<H extends HookDefinition> (handler: ExtensionHandler<H>): ExtensionHandler<H> {
  return handler
}
