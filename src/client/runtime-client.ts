// RuntimeClient: what a controller needs to call Runtime Hooks (Cluster API's runtimeclient.Client). HttpRuntimeClient
// calls extensions over HTTPS; FakeRuntimeClient (runtime-sdk/testing) answers from a script, for controllers' unit tests.
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import type { KubeObject } from '../api/kube-object.js'
import type { GroupVersionHook } from '../catalog/identity.js'

/** The object a hook is called for: its namespace is matched against the handlers' namespaceSelectors. */
export type { KubeObject }

/** How one call of a hook is made; each option overrides the client's setting for this call. */
export interface CallOptions {
  /** signal cancels the call: handlers not yet called are skipped, the call rejects with a RuntimeCallError. */
  signal?: AbortSignal
  /** sequential calls handlers one by one in name order, like Cluster API (default: the client's setting). */
  sequential?: boolean
  /** concurrency bounds how many handlers callAllExtensions calls at once (default: the client's setting). */
  concurrency?: number
  /** cacheBlockingResponses reuses a blocking response (retryAfterSeconds > 0) for the same request until it expires. */
  cacheBlockingResponses?: boolean
}

/**
 * What a handler call came to: `success` (status Success), `failure` (status Failure), `error` (a calling error, or an
 * answer with an unknown status), `ignored` (a calling error failurePolicy Ignore turned into an empty Success),
 * `cancelled` (stopped because another handler failed) or `skipped` (not called: another handler failed first, or the
 * call was aborted).
 */
export type HandlerOutcomeKind = 'success' | 'failure' | 'error' | 'ignored' | 'cancelled' | 'skipped'

/** What happened when one handler was (or was not) called. */
export interface HandlerOutcome {
  /** name is the registered handler name, `<handler>.<ExtensionConfig>`. */
  name: string
  /** gvh is the hook version the handler is registered for. */
  gvh: GroupVersionHook
  /** outcome is what the call came to. */
  outcome: HandlerOutcomeKind
  /** status is the response's status (Success or Failure) when the handler answered or its error was ignored. */
  status?: string
  /** message is the response's message, when it has one. */
  message?: string
  /** retryAfterSeconds is a successful blocking response's retryAfterSeconds. */
  retryAfterSeconds?: number
  /** ignored: a calling error swallowed by failurePolicy Ignore. */
  ignored: boolean
  /** error: the full error (also for ignored errors). */
  error?: string
  /** durationMs is how long the call took, in milliseconds (0 when skipped). */
  durationMs: number
  /** cached is true when the response is a cached blocking response (see cacheBlockingResponses), not a new call. */
  cached?: boolean
  /** response: the handler's response, up-converted to the caller's hook version. */
  response?: Record<string, unknown>
}

/** A call's result: the (aggregated) response, typed by the hook, and the outcome of every handler called. */
export interface CallResult<R> {
  /** response is the hook's response: for callAllExtensions, the successful responses aggregated as Cluster API does. */
  response: R
  /** handlers are the outcomes of the handlers called, in name order. */
  handlers: HandlerOutcome[]
}

/**
 * What a controller needs to call Runtime Hooks (Cluster API's runtimeclient.Client): {@link HttpRuntimeClient}
 * calls extensions over HTTPS, FakeRuntimeClient (runtime-sdk/testing) answers from a script in unit tests.
 */
export interface RuntimeClient {
  /** warmUp registers every ExtensionConfig at once and makes the client ready. */
  warmUp (extensionConfigs: readonly ExtensionConfig[]): void
  /** Whether warmUp succeeded: hooks can be called. */
  isReady (): boolean
  /** discover calls an extension's Discovery hook and returns the ExtensionConfig with status.handlers filled in. */
  discover (extensionConfig: ExtensionConfig, options?: { signal?: AbortSignal }): Promise<ExtensionConfig>
  /** register adds or replaces the handlers of a discovered ExtensionConfig (its status.handlers). */
  register (extensionConfig: ExtensionConfig): void
  /** unregister removes every handler of an ExtensionConfig. */
  unregister (extensionConfig: ExtensionConfig): void
  /** The registered names of the handlers of a hook whose namespaceSelector matches the object. */
  getAllExtensions (hook: HookDefinition, forObject: KubeObject): Promise<string[]>
  /**
   * Calls every matching handler of a hook and aggregates their responses; rejects with a RuntimeCallError
   * (carrying every handler's outcome) when one fails and its failurePolicy does not ignore it.
   */
  callAllExtensions<H extends HookDefinition> (hook: H, forObject: KubeObject, request: RequestOf<H>, options?: CallOptions): Promise<CallResult<ResponseOf<H>>>
  /** Calls one handler by its registered name. */
  callExtension<H extends HookDefinition> (hook: H, forObject: KubeObject, name: string, request: RequestOf<H>, options?: CallOptions): Promise<CallResult<ResponseOf<H>>>
}
