// The runtime client: discovers extensions and calls their handlers with Cluster API's semantics
// (internal/runtime/client/client.go), plus deterministic order, bounded parallelism, backoff and caching.
import type { LookupFunction } from 'node:net'
import type { Registry as PromRegistry } from 'prom-client'
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import type { Catalog, CatalogHook } from '../catalog/catalog.js'
import { createCatalog } from '../catalog/default.js'
import { DEFAULT_HANDLER_TIMEOUT_SECONDS } from '../api/hooks/v1alpha1/constants.js'
import { MAX_BODY_BYTES, validateDiscoveredHandlers } from '../catalog/handlers.js'
import { groupHookString, gvhString } from '../catalog/identity.js'
import { type ExtensionRegistration, nameForHandler, ExtensionRegistry } from '../registry/registry.js'
import { isEmptySelector, type Labels, matchesSelector } from '../registry/selector.js'
import { KeyedBackoff, type BackoffOptions } from '../backoff/backoff.js'
import { CallingError, RuntimeCallError } from './errors.js'
import { HandlerInvoker } from './invoke.js'
import { RuntimeClientMetrics } from './metrics.js'
import { aggregateResponses, catalogHook, checkStatus } from './outcomes.js'
import type { CallOptions, CallResult, HandlerOutcome, KubeObject, RuntimeClient } from './runtime-client.js'
import { AgentPool, type ClientCertificate, type ResolveUrl } from './transport.js'
import { hookUrl } from './wire.js'

/** Labels of a namespace; undefined when the namespace does not exist. */
export type NamespaceLabelsResolver = (namespace: string) => Promise<Readonly<Record<string, string>> | undefined> | Readonly<Record<string, string>> | undefined

/** The options of {@link HttpRuntimeClient}. */
export interface RuntimeClientOptions {
  /** catalog defaults to createCatalog(). */
  catalog?: Catalog
  /** registry defaults to a new, not yet warmed up, ExtensionRegistry. */
  registry?: ExtensionRegistry
  /** namespaceLabels resolves the labels of the namespace of the object a hook is called for. */
  namespaceLabels?: NamespaceLabelsResolver
  /** resolve rewrites a URL before connecting (e.g. Service DNS name to a port-forward); the TLS server name stays. */
  resolve?: ResolveUrl
  /** clientCertificate is presented to extensions (mTLS). */
  clientCertificate?: ClientCertificate
  /** lookup resolves host names when connecting (default: dns.lookup, the system resolver); the call's deadline covers it. */
  lookup?: LookupFunction
  /** metricsRegistry receives the capi_runtime_sdk_* metrics; a new one by default. */
  metricsRegistry?: PromRegistry
  /** concurrency bounds parallel calls in callAllExtensions (default 16). */
  concurrency?: number
  /** sequential makes callAllExtensions call handlers one by one like Cluster API (default false). */
  sequential?: boolean
  /**
   * backoff after calling errors, per handler: while a handler backs off it is not called, its outcome says "not
   * sent: backing off until ..." (Cluster API's client always sends). false disables it (default 1 s doubling up to 60 s).
   */
  backoff?: BackoffOptions | false
  /** maxResponseBytes: a longer answer is a calling error (default 20 MiB, the bound of requests; Cluster API's client reads any size: Infinity). */
  maxResponseBytes?: number
  /** cacheBlockingResponses reuses a blocking response (retryAfterSeconds > 0) for the same request until it expires. */
  cacheBlockingResponses?: boolean
  /** clientCertificateReloadMs: re-read certificate files this often and replace the Agents when they changed (rotation). */
  clientCertificateReloadMs?: number
  /** now is the clock, for tests. */
  now?: () => number
}

/**
 * The runtime client over HTTPS: Cluster API's runtime client semantics (which handlers are called, in which order,
 * how their answers aggregate, the errors' messages), with bounded parallelism, backoff and caching. Call
 * {@link HttpRuntimeClient.close} when done: it closes the pooled connections.
 *
 * @example
 * ```ts
 * import { HttpRuntimeClient, v1alpha1 } from 'runtime-sdk'
 * import { loadExtensionConfig } from 'runtime-sdk/client'
 * import { sampleRequest } from 'runtime-sdk/testing'
 *
 * const client = new HttpRuntimeClient()
 * const extensionConfig = await client.discover(await loadExtensionConfig('extension-config.yaml'))
 * client.warmUp([extensionConfig])
 * const request = sampleRequest(v1alpha1.BeforeClusterCreate)
 * const { response, handlers } = await client.callAllExtensions(v1alpha1.BeforeClusterCreate, request.cluster, request)
 * console.log(response.retryAfterSeconds, handlers.map(h => `${h.name}: ${h.outcome}`))
 * await client.close()
 * ```
 */
export class HttpRuntimeClient implements RuntimeClient {
  /** catalog holds the hooks the client can call. */
  readonly catalog: Catalog
  /** registry holds the handlers of the registered ExtensionConfigs. */
  readonly registry: ExtensionRegistry
  /** metrics are the client's Prometheus metrics (capi_runtime_sdk_*). */
  readonly metrics: RuntimeClientMetrics
  /** agents are the pooled connections to extensions. */
  readonly agents: AgentPool
  readonly #options: RuntimeClientOptions
  readonly #invoker: HandlerInvoker
  readonly #reloadTimer: NodeJS.Timeout | undefined

  constructor (options: RuntimeClientOptions = {}) {
    this.#options = options
    this.catalog = options.catalog ?? createCatalog()
    this.registry = options.registry ?? new ExtensionRegistry()
    const now = options.now ?? Date.now
    const backoff = options.backoff === false ? undefined : new KeyedBackoff(options.backoff, now)
    this.metrics = new RuntimeClientMetrics(options.metricsRegistry, () => backoff?.active() ?? 0)
    this.agents = new AgentPool({ clientCertificate: options.clientCertificate, lookup: options.lookup })
    this.#invoker = new HandlerInvoker({ catalog: this.catalog, agents: this.agents, metrics: this.metrics, backoff, now, resolve: options.resolve, maxResponseBytes: options.maxResponseBytes ?? MAX_BODY_BYTES })
    if (options.clientCertificateReloadMs && options.clientCertificate && 'certFile' in options.clientCertificate) {
      this.#reloadTimer = setInterval(() => {
        try { this.agents.reloadClientCertificate() } catch { /* keep the current certificate while files are being replaced */ }
      }, options.clientCertificateReloadMs).unref()
    }
  }

  /** Registers the handlers of every ExtensionConfig at once (all or nothing) and makes the client ready. */
  warmUp (list: readonly ExtensionConfig[]): void { this.registry.warmUp(list) }
  /** Whether warmUp succeeded: hooks can be called. */
  isReady (): boolean { return this.registry.isReady() }
  /** Adds or replaces the handlers of a discovered ExtensionConfig (its status.handlers), atomically. */
  register (ec: ExtensionConfig): void { this.registry.add(ec) }
  /** Removes every handler of an ExtensionConfig. */
  unregister (ec: ExtensionConfig): void { this.registry.remove(ec) }

  /** Closes every pooled connection. */
  async close (): Promise<void> {
    if (this.#reloadTimer) clearInterval(this.#reloadTimer)
    await this.agents.close()
  }

  /**
   * Calls the Discovery hook of an extension and returns a copy of the ExtensionConfig whose status.handlers
   * are the validated, defaulted handlers named `<handler>.<ExtensionConfig name>`.
   */
  async discover (ec: ExtensionConfig, options: { signal?: AbortSignal } = {}): Promise<ExtensionConfig> {
    const ecName = ec.metadata.name
    const fail = (message: string) => new Error(`failed to discover extension "${ecName}": ${message}`)
    const hook = this.catalog.discoveryHook()
    let response: Record<string, unknown>
    try {
      const ca = this.#invoker.caBundle(ec.spec.clientConfig)
      const url = hookUrl(ec.spec.clientConfig, this.catalog.path(hook.gvh), DEFAULT_HANDLER_TIMEOUT_SECONDS)
      const body = JSON.stringify({ kind: hook.requestKind, apiVersion: hook.apiVersion })
      response = await this.#invoker.httpCall(ec.spec.clientConfig, url, ca, hook, hook, body, DEFAULT_HANDLER_TIMEOUT_SECONDS, options.signal, ec.metadata.name)
    } catch (err) {
      throw fail((err instanceof CallingError ? 'http call failed: ' : '') + (err as Error).message)
    }
    const statusError = checkStatus(response)
    if (statusError) throw fail(statusError)
    const validated = validateDiscoveredHandlers(this.catalog, (response['handlers'] ?? []) as never)
    if ('error' in validated) throw fail(validated.error)
    const copy = structuredClone(ec)
    copy.status = {
      ...copy.status,
      handlers: validated.handlers.map(h => ({
        name: nameForHandler(h.name, ecName),
        requestHook: { apiVersion: h.requestHook.apiVersion, hook: h.requestHook.hook },
        timeoutSeconds: h.timeoutSeconds,
        failurePolicy: h.failurePolicy
      }))
    }
    return copy
  }

  /** The registered names of the handlers of a hook (any version) whose namespaceSelector matches the object. */
  async getAllExtensions (hook: HookDefinition, forObject: KubeObject): Promise<string[]> {
    const entry = this.#hook(hook)
    const registrations = await this.#matching(entry, forObject, new Map())
    return registrations.map(r => r.name)
  }

  /**
   * Calls one handler by registered name. Returns the response (up-converted to the hook's version) and the
   * handler's outcome; throws a RuntimeCallError with Cluster API's message otherwise.
   */
  async callExtension<H extends HookDefinition> (hook: H, forObject: KubeObject, name: string, request: RequestOf<H>,
    options: CallOptions = {}): Promise<CallResult<ResponseOf<H>>> {
    const entry = this.#hook(hook)
    const fail = (message: string, handlers: HandlerOutcome[] = []) => new RuntimeCallError(`failed to call extension handler "${name}": ${message}`, handlers)
    const invalid = this.catalog.validateRequest(entry.gvh, request)
    if (!invalid.valid) throw fail(`request object is invalid for hook "${gvhString(entry.gvh)}": ${invalid.message}`)
    let registration: ExtensionRegistration
    try {
      registration = this.registry.get(name)
    } catch (err) {
      throw fail(`failed to get extension handler "${name}" from registry: ${(err as Error).message}`)
    }
    if (registration.gvh.group !== entry.gvh.group || registration.gvh.hook !== entry.gvh.hook) {
      throw fail(`handler does not match GroupHook "${groupHookString(entry.gvh)}"`)
    }
    let matches: boolean
    try {
      matches = await this.#matchNamespace(registration, forObject, new Map())
    } catch (err) {
      throw fail((err as Error).message)
    }
    if (!matches) throw fail(`namespaceSelector did not match object ${objectKey(forObject)}`)
    const outcome = await this.#invoker.invoke(entry, registration, request as Record<string, unknown>, this.#useCache(entry, options), options.signal ?? new AbortController().signal, undefined)
    if (outcome.error && !outcome.ignored) throw fail(outcome.error, [outcome])
    return { response: outcome.response as ResponseOf<H>, handlers: [outcome] }
  }

  /**
   * Calls every handler of a hook whose namespaceSelector matches the object, in name order, and aggregates their
   * responses: status Success, messages joined with ", ", the lowest non-zero retryAfterSeconds. The first error
   * (in name order) fails the call; handlers after it are cancelled or not called.
   */
  async callAllExtensions<H extends HookDefinition> (hook: H, forObject: KubeObject, request: RequestOf<H>,
    options: CallOptions = {}): Promise<CallResult<ResponseOf<H>>> {
    const entry = this.#hook(hook)
    const gh = groupHookString(entry.gvh)
    const fail = (message: string, handlers: HandlerOutcome[] = []) => new RuntimeCallError(`failed to call extension handlers for hook "${gh}": ${message}`, handlers)
    const invalid = this.catalog.validateRequest(entry.gvh, request)
    if (!invalid.valid) throw fail(`request object is invalid for hook: ${invalid.message}`)
    let registrations: ExtensionRegistration[]
    try {
      registrations = await this.#matching(entry, forObject, new Map())
    } catch (err) {
      throw fail((err as Error).message.replace(/^failed to get extension handlers for hook "[^"]*": /, ''))
    }
    const sequential = options.sequential ?? this.#options.sequential ?? false
    const limit = sequential ? 1 : Math.max(1, options.concurrency ?? this.#options.concurrency ?? 16)
    const outer = options.signal ?? new AbortController().signal
    const controllers = registrations.map(() => new AbortController())
    const outcomes: HandlerOutcome[] = new Array(registrations.length)
    let firstError = Infinity
    let next = 0
    const worker = async () => {
      for (let i = next++; i < registrations.length; i = next++) {
        const registration = registrations[i] as ExtensionRegistration
        if (i > firstError || outer.aborted) {
          outcomes[i] = { name: registration.name, gvh: registration.gvh, outcome: 'skipped', ignored: false, durationMs: 0 }
          continue
        }
        const controller = controllers[i] as AbortController
        const outcome = await this.#invoker.invoke(entry, registration, request as Record<string, unknown>, this.#useCache(entry, options), AbortSignal.any([outer, controller.signal]), controller.signal)
        outcomes[i] = outcome
        if (outcome.error && !outcome.ignored && outcome.outcome !== 'cancelled' && i < firstError) {
          firstError = i
          for (let j = i + 1; j < controllers.length; j++) (controllers[j] as AbortController).abort()
        }
      }
    }
    await Promise.all(Array.from({ length: Math.min(limit, registrations.length) }, worker))
    if (firstError !== Infinity) {
      const failed = outcomes[firstError] as HandlerOutcome
      throw fail(`failed to call extension handler "${failed.name}": ${failed.error as string}`, outcomes)
    }
    const cancelled = outcomes.find(o => o.outcome === 'cancelled' || o.outcome === 'skipped')
    if (cancelled) throw fail(cancelled.error ?? 'context canceled', outcomes)
    return { response: aggregateResponses(entry, outcomes) as ResponseOf<H>, handlers: outcomes }
  }

  #useCache (entry: CatalogHook, options: CallOptions): boolean {
    return entry.blocking && (options.cacheBlockingResponses ?? this.#options.cacheBlockingResponses ?? false)
  }

  #hook (hook: HookDefinition): CatalogHook {
    return catalogHook(this.catalog, hook)
  }

  async #matching (entry: CatalogHook, forObject: KubeObject, namespaces: Map<string, Promise<Labels | undefined>>): Promise<ExtensionRegistration[]> {
    const gh = groupHookString(entry.gvh)
    const result: ExtensionRegistration[] = []
    for (const registration of this.registry.list(entry.gvh)) {
      try {
        if (await this.#matchNamespace(registration, forObject, namespaces)) result.push(registration)
      } catch (err) {
        throw new Error(`failed to get extension handlers for hook "${gh}": failed to get extension handler "${registration.name}": ${(err as Error).message}`)
      }
    }
    return result
  }

  async #matchNamespace (registration: ExtensionRegistration, forObject: KubeObject, namespaces: Map<string, Promise<Labels | undefined>>): Promise<boolean> {
    if (isEmptySelector(registration.namespaceSelector)) return true
    const namespace = forObject.metadata?.namespace ?? ''
    let labels = namespaces.get(namespace)
    if (!labels) {
      const resolver = this.#options.namespaceLabels
      labels = resolver ? Promise.resolve().then(() => resolver(namespace)) : Promise.reject(new Error('no namespace label resolver configured'))
      namespaces.set(namespace, labels)
    }
    let resolved: Labels | undefined
    try {
      resolved = await labels
    } catch (err) {
      throw new Error(`failed to match namespace: failed to get namespace ${namespace}: ${(err as Error).message}`)
    }
    if (resolved === undefined) throw new Error(`failed to match namespace: failed to get namespace ${namespace}: namespaces "${namespace}" not found`)
    return matchesSelector(registration.namespaceSelector, resolved)
  }
}

function objectKey (o: KubeObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`
}
