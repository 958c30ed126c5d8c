// RuntimeClient: what a controller needs to call Runtime Hooks (Cluster API's runtimeclient.Client). HttpRuntimeClient
// calls extensions over HTTPS; FakeRuntimeClient (runtime-sdk/testing) answers from a script, for controllers' unit tests.
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import type { KubeObject } from '../api/kube-object.js'
import type { GroupVersionHook } from '../catalog/identity.js'

/** The object a hook is called for: its namespace is matched against the handlers' namespaceSelectors. */
export type { KubeObject }

export interface CallOptions {
  signal?: AbortSignal
  /** sequential calls handlers one by one in name order, like Cluster API (default: the client's setting). */
  sequential?: boolean
  concurrency?: number
  cacheBlockingResponses?: boolean
}

export type HandlerOutcomeKind = 'success' | 'failure' | 'error' | 'ignored' | 'cancelled' | 'skipped'

/** What happened when one handler was (or was not) called. */
export interface HandlerOutcome {
  /** name is the registered handler name, `<handler>.<ExtensionConfig>`. */
  name: string
  /** gvh is the hook version the handler is registered for. */
  gvh: GroupVersionHook
  outcome: HandlerOutcomeKind
  status?: string
  message?: string
  retryAfterSeconds?: number
  /** ignored: a calling error swallowed by failurePolicy Ignore. */
  ignored: boolean
  /** error: the full error (also for ignored errors). */
  error?: string
  durationMs: number
  cached?: boolean
  /** response: the handler's response, up-converted to the caller's hook version. */
  response?: Record<string, unknown>
}

/** A call's result: the (aggregated) response, typed by the hook, and the outcome of every handler called. */
export interface CallResult<R> {
  response: R
  handlers: HandlerOutcome[]
}

export interface RuntimeClient {
  /** warmUp registers every ExtensionConfig at once and makes the client ready. */
  warmUp (extensionConfigs: readonly ExtensionConfig[]): void
  isReady (): boolean
  /** discover calls an extension's Discovery hook and returns the ExtensionConfig with status.handlers filled in. */
  discover (extensionConfig: ExtensionConfig, options?: { signal?: AbortSignal }): Promise<ExtensionConfig>
  register (extensionConfig: ExtensionConfig): void
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
