// FakeRuntimeClient: a RuntimeClient answering from a script, so a controller can be unit-tested without extensions
// (Cluster API's fake runtime client). Answers are scripted per hook and handler name, every call is recorded, and
// aggregation, failure policies and error messages are the real client's.
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import type { Catalog, CatalogHook } from '../catalog/catalog.js'
import { createCatalog } from '../catalog/default.js'
import { groupHookString } from '../catalog/identity.js'
import { RuntimeCallError } from '../client/errors.js'
import { aggregateResponses, answeredOutcome, catalogHook, ignoredOutcome } from '../client/outcomes.js'
import type { CallResult, HandlerOutcome, KubeObject, RuntimeClient } from '../client/runtime-client.js'
import type { HandlerResult } from '../server/types.js'

/**
 * A scripted answer `S`: the handler's response, or `{ error }` for a call that failed on the way (transport, timeout:
 * subject to the handler's failurePolicy); or a function of the request returning one.
 */
export type FakeAnswer<H extends HookDefinition> = H extends HookDefinition<infer Req, infer Res extends {
  /** status is Success or Failure: every hook response has it. */
  status: 'Success' | 'Failure'
}>
  ? (HandlerResult<Res> | {
      /** error is the calling error, e.g. "connection refused"; the outcome's error is `http call failed: <error>`. */
      error: string
    }) extends infer S
      ? S | ((request: Req) => S | Promise<S>)
      : never
  : never

/** How a scripted handler is registered. */
export interface FakeHandlerOptions {
  /** failurePolicy of the handler (default Fail): Ignore turns `{ error }` answers into ignored outcomes. */
  failurePolicy?: 'Fail' | 'Ignore'
  /** matches says whether the handler's namespaceSelector matches the object (default: every object). */
  matches?: (forObject: KubeObject) => boolean
}

/** One recorded call of a handler. */
export interface FakeCall {
  /** hook is the hook name, e.g. BeforeClusterUpgrade. */
  hook: string
  /** name is the handler's registered name. */
  name: string
  /** request is a copy of the request the handler got. */
  request: unknown
  /** forObject is the object the hook was called for. */
  forObject: KubeObject
}

interface ScriptedHandler {
  hook: CatalogHook
  name: string
  answer: unknown
  options: FakeHandlerOptions
}

/**
 * A RuntimeClient answering from a script (Cluster API's fake runtime client), so that a controller can be unit-tested
 * without extensions. Answers are scripted per hook and handler name, every call is recorded, and the matching of
 * handlers, their order, the aggregation of responses, failure policies and error messages are the real client's.
 * It is ready at once unless `ready: false`.
 *
 * @example
 * ```ts
 * import { v1alpha1 } from 'runtime-sdk'
 * import { FakeRuntimeClient, sampleRequest } from 'runtime-sdk/testing'
 *
 * const client = new FakeRuntimeClient()
 *   .handle(v1alpha1.BeforeClusterUpgrade, 'wait.my-extension', { status: 'Success', retryAfterSeconds: 30 })
 *   .handle(v1alpha1.BeforeClusterUpgrade, 'check.other-extension', { error: 'connection refused' }, { failurePolicy: 'Ignore' })
 * const request = sampleRequest(v1alpha1.BeforeClusterUpgrade)
 * const { response } = await client.callAllExtensions(v1alpha1.BeforeClusterUpgrade, request.cluster, request)
 * // response.retryAfterSeconds === 30; client.callsOf(v1alpha1.BeforeClusterUpgrade).length === 2
 * ```
 */
export class FakeRuntimeClient implements RuntimeClient {
  /** catalog holds the hooks that can be scripted and called. */
  readonly catalog: Catalog
  /** calls lists every handler call in order (each handler of a callAllExtensions is one). */
  readonly calls: FakeCall[] = []
  /** registered holds the ExtensionConfigs given to register and warmUp, by name. */
  readonly registered = new Map<string, ExtensionConfig>()
  readonly #handlers: ScriptedHandler[] = []
  #ready: boolean

  /**
   * @param options.catalog holds the hooks (default: createCatalog(), Cluster API's).
   * @param options.ready false makes the client unready until warmUp, as a real one is (default true).
   */
  constructor (options: { catalog?: Catalog, ready?: boolean } = {}) {
    this.catalog = options.catalog ?? createCatalog()
    this.#ready = options.ready ?? true
  }

  /** Scripts the answer of a handler `name` (`<handler>.<ExtensionConfig>`) of a hook; a second call replaces it. */
  handle<H extends HookDefinition> (hook: H, name: string, answer: FakeAnswer<H>, options: FakeHandlerOptions = {}): this {
    const entry = this.#hook(hook)
    const existing = this.#handlers.findIndex(h => h.name === name)
    const scripted = { hook: entry, name, answer, options }
    if (existing >= 0) this.#handlers[existing] = scripted
    else this.#handlers.push(scripted)
    return this
  }

  /** The recorded calls of one hook. */
  callsOf (hook: HookDefinition): FakeCall[] {
    const name = this.#hook(hook).gvh.hook
    return this.calls.filter(c => c.hook === name)
  }

  warmUp (extensionConfigs: readonly ExtensionConfig[]): void {
    for (const ec of extensionConfigs) this.register(ec)
    this.#ready = true
  }

  isReady (): boolean { return this.#ready }
  register (extensionConfig: ExtensionConfig): void { this.registered.set(extensionConfig.metadata.name, extensionConfig) }
  unregister (extensionConfig: ExtensionConfig): void { this.registered.delete(extensionConfig.metadata.name) }

  /** Discovery lists the scripted handlers named `<handler>.<ExtensionConfig name>`. */
  async discover (extensionConfig: ExtensionConfig): Promise<ExtensionConfig> {
    const suffix = `.${extensionConfig.metadata.name}`
    const handlers = this.#handlers.filter(h => h.name.endsWith(suffix)).map(h => ({
      name: h.name,
      requestHook: { apiVersion: h.hook.apiVersion, hook: h.hook.gvh.hook },
      timeoutSeconds: 10,
      failurePolicy: h.options.failurePolicy ?? 'Fail'
    }))
    return { ...structuredClone(extensionConfig), status: { ...extensionConfig.status, handlers } }
  }

  async getAllExtensions (hook: HookDefinition, forObject: KubeObject): Promise<string[]> {
    this.#checkReady(this.#hook(hook))
    return this.#matching(this.#hook(hook), forObject).map(h => h.name)
  }

  async callAllExtensions<H extends HookDefinition> (hook: H, forObject: KubeObject, request: RequestOf<H>): Promise<CallResult<ResponseOf<H>>> {
    const entry = this.#hook(hook)
    const fail = (message: string, handlers: HandlerOutcome[] = []) => new RuntimeCallError(`failed to call extension handlers for hook "${groupHookString(entry.gvh)}": ${message}`, handlers)
    this.#checkReady(entry)
    const invalid = this.catalog.validateRequest(entry.gvh, request)
    if (!invalid.valid) throw fail(`request object is invalid for hook: ${invalid.message}`)
    const outcomes: HandlerOutcome[] = []
    for (const handler of this.#matching(entry, forObject)) {
      const outcome = await this.#call(handler, forObject, request)
      outcomes.push(outcome)
      if (outcome.error && !outcome.ignored) throw fail(`failed to call extension handler "${outcome.name}": ${outcome.error}`, outcomes)
    }
    return { response: aggregateResponses(entry, outcomes) as ResponseOf<H>, handlers: outcomes }
  }

  async callExtension<H extends HookDefinition> (hook: H, forObject: KubeObject, name: string, request: RequestOf<H>): Promise<CallResult<ResponseOf<H>>> {
    const entry = this.#hook(hook)
    const fail = (message: string, handlers: HandlerOutcome[] = []) => new RuntimeCallError(`failed to call extension handler "${name}": ${message}`, handlers)
    this.#checkReady(entry)
    const handler = this.#handlers.find(h => h.name === name)
    if (!handler) throw fail(`failed to get extension handler "${name}" from registry: handler with name "${name}" has not been registered`)
    if (handler.hook.gvh.group !== entry.gvh.group || handler.hook.gvh.hook !== entry.gvh.hook) throw fail(`handler does not match GroupHook "${groupHookString(entry.gvh)}"`)
    if (!(handler.options.matches?.(forObject) ?? true)) throw fail(`namespaceSelector did not match object ${forObject.metadata?.namespace ?? ''}/${forObject.metadata?.name ?? ''}`)
    const outcome = await this.#call(handler, forObject, request)
    if (outcome.error && !outcome.ignored) throw fail(outcome.error, [outcome])
    return { response: outcome.response as ResponseOf<H>, handlers: [outcome] }
  }

  #hook (hook: HookDefinition): CatalogHook {
    return catalogHook(this.catalog, hook)
  }

  #checkReady (entry: CatalogHook): void {
    if (!this.#ready) throw new RuntimeCallError(`failed to call extension handlers for hook "${groupHookString(entry.gvh)}": invalid operation: List cannot be called on a registry which has not been warmed up`)
  }

  #matching (entry: CatalogHook, forObject: KubeObject): ScriptedHandler[] {
    return this.#handlers
      .filter(h => h.hook.gvh.group === entry.gvh.group && h.hook.gvh.hook === entry.gvh.hook && (h.options.matches?.(forObject) ?? true))
      .sort((a, b) => a.name.localeCompare(b.name))
  }

  async #call (handler: ScriptedHandler, forObject: KubeObject, request: unknown): Promise<HandlerOutcome> {
    const { hook, name } = handler
    this.calls.push({ hook: hook.gvh.hook, name, request: structuredClone(request), forObject })
    const started = performance.now()
    const base = { name, gvh: hook.gvh, durationMs: 0 }
    const answer = typeof handler.answer === 'function' ? await (handler.answer as (r: unknown) => unknown)(structuredClone(request)) : structuredClone(handler.answer)
    base.durationMs = performance.now() - started
    if (typeof answer === 'object' && answer !== null && 'error' in answer) {
      const error = `http call failed: ${String((answer as { error: unknown }).error)}`
      if (handler.options.failurePolicy === 'Ignore') return ignoredOutcome(hook, base, error, base.durationMs)
      return { ...base, outcome: 'error', ignored: false, error }
    }
    return answeredOutcome(base, { kind: hook.responseKind, apiVersion: hook.apiVersion, ...(hook.blocking ? { retryAfterSeconds: 0 } : {}), ...answer as Record<string, unknown> }, base.durationMs)
  }
}
