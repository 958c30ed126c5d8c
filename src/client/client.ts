// The runtime client: discovers extensions and calls their handlers with Cluster API's semantics
// (internal/runtime/client/client.go), plus deterministic order, bounded parallelism, backoff and caching.
import { createHash } from 'node:crypto'
import type { Registry as PromRegistry } from 'prom-client'
import { request as undiciRequest } from 'undici'
import type { HookDefinition, RequestOf, ResponseOf } from '../api/hooks/define.js'
import { schemaProperties } from '../api/schema.js'
import type { ExtensionConfig } from '../api/extension-config.js'
import type { Catalog, CatalogHook } from '../catalog/catalog.js'
import { createCatalog } from '../catalog/default.js'
import { DEFAULT_HANDLER_TIMEOUT_SECONDS, MAX_BODY_BYTES, validateDiscoveredHandlers } from '../catalog/handlers.js'
import { type GroupVersionHook, groupHookString, gvhString } from '../catalog/identity.js'
import { type ExtensionRegistration, nameForHandler, Registry } from '../registry/registry.js'
import { isEmptySelector, type Labels, matchesSelector } from '../registry/selector.js'
import { KeyedBackoff, type BackoffOptions } from '../backoff/backoff.js'
import { RuntimeClientMetrics } from './metrics.js'
import type { CallOptions, CallResult, HandlerOutcome, KubeObject, RuntimeClient } from './runtime-client.js'
import { describeError } from './describe-error.js'
import { AgentPool, CABundleCache, type ClientCertificate, hostLabel, type ResolveUrl, urlForExtension } from './transport.js'

/** Labels of a namespace; undefined when the namespace does not exist. */
export type NamespaceLabelsResolver = (namespace: string) => Promise<Labels | undefined> | Labels | undefined

export interface RuntimeClientOptions {
  /** catalog defaults to createCatalog(). */
  catalog?: Catalog
  /** registry defaults to a new, not yet warmed up, Registry. */
  registry?: Registry
  /** namespaceLabels resolves the labels of the namespace of the object a hook is called for. */
  namespaceLabels?: NamespaceLabelsResolver
  /** resolve rewrites a URL before connecting (e.g. Service DNS name to a port-forward); the TLS server name stays. */
  resolve?: ResolveUrl
  /** clientCertificate is presented to extensions (mTLS). */
  clientCertificate?: ClientCertificate
  /** metricsRegistry receives the capi_runtime_sdk_* metrics; a new one by default. */
  metricsRegistry?: PromRegistry
  /** concurrency bounds parallel calls in callAllExtensions (default 16). */
  concurrency?: number
  /** sequential makes callAllExtensions call handlers one by one like Cluster API (default false). */
  sequential?: boolean
  /** backoff after calling errors, per handler; false disables it (default 1 s doubling up to 60 s). */
  backoff?: BackoffOptions | false
  /** cacheBlockingResponses reuses a blocking response (retryAfterSeconds > 0) for the same request until it expires. */
  cacheBlockingResponses?: boolean
  /** clientCertificateReloadMs: re-read certificate files this often and replace the Agents when they changed (rotation). */
  clientCertificateReloadMs?: number
  /** now is the clock, for tests. */
  now?: () => number
}

/** An error of a call, with the outcome of every handler. */
export class RuntimeCallError extends Error {
  override name = 'RuntimeCallError'
  readonly code = 'ERR_RUNTIME_SDK_CALL'
  constructor (message: string, readonly handlers: HandlerOutcome[] = []) {
    super(message)
  }
}

/** The outcome of a handler that answered: success, or failure (error for an unknown status) unless its status is Success. */
export function answeredOutcome (base: { name: string, gvh: GroupVersionHook }, response: Record<string, unknown>, durationMs: number, cached = false): HandlerOutcome {
  const statusError = checkStatus(response)
  if (statusError) {
    return { ...base, outcome: response['status'] === 'Failure' ? 'failure' : 'error', status: String(response['status']), ...messageOf(response), ignored: false, error: statusError, durationMs, response }
  }
  return {
    ...base,
    outcome: 'success',
    status: 'Success',
    ...messageOf(response),
    ...(typeof response['retryAfterSeconds'] === 'number' ? { retryAfterSeconds: response['retryAfterSeconds'] } : {}),
    ignored: false,
    durationMs,
    ...(cached ? { cached } : {}),
    response
  }
}

/** The outcome of a calling error that failurePolicy Ignore swallows: an empty Success response, as Cluster API answers. */
export function ignoredOutcome (hook: CatalogHook, base: { name: string, gvh: GroupVersionHook }, error: string, durationMs: number): HandlerOutcome {
  const response = { kind: hook.responseKind, apiVersion: hook.apiVersion, status: 'Success', ...(hook.blocking ? { retryAfterSeconds: 0 } : {}) }
  return { ...base, outcome: 'ignored', status: 'Success', ignored: true, error, durationMs, response }
}

/** The catalog entry of the hook a caller names; a RuntimeCallError when the catalog does not hold it. */
export function catalogHook (catalog: Catalog, hook: HookDefinition): CatalogHook {
  const found = catalog.of(hook)
  if (!found) throw new RuntimeCallError(`hook ${String((hook as { hook?: unknown } | undefined)?.hook)} is not registered in catalog "${catalog.name}"`)
  return found
}

/**
 * The aggregate of successful handler outcomes, as Cluster API builds it: status Success, the messages of the handlers
 * that answered joined with ", ", and for blocking hooks the lowest non-zero retryAfterSeconds.
 */
export function aggregateResponses (hook: CatalogHook, outcomes: readonly HandlerOutcome[]): Record<string, unknown> {
  const aggregate: Record<string, unknown> = { kind: hook.responseKind, apiVersion: hook.apiVersion, status: 'Success' }
  const messages = outcomes.map(o => o.ignored ? '' : (o.message ?? '')).filter(m => m !== '')
  if (messages.length > 0) aggregate['message'] = messages.join(', ')
  if (hook.blocking) aggregate['retryAfterSeconds'] = outcomes.reduce((low, o) => lowestNonZero(low, o.ignored ? 0 : o.retryAfterSeconds ?? 0), 0)
  return aggregate
}

function lowestNonZero (a: number, b: number): number {
  return a === 0 ? b : b === 0 ? a : Math.min(a, b)
}

/** A failure in calling a handler (transport, TLS, timeout, HTTP status, body): subject to failurePolicy. */
class CallingError extends Error {}
/** Any other error of one handler call: never ignored. */
class HandlerError extends Error {}
class CancelledError extends HandlerError {}

interface HttpResult { statusCode: number, body: Buffer }

/** The runtime client over HTTPS: Cluster API's runtime client semantics, with bounded parallelism, backoff and caching. */
export class HttpRuntimeClient implements RuntimeClient {
  readonly catalog: Catalog
  readonly registry: Registry
  readonly metrics: RuntimeClientMetrics
  readonly agents: AgentPool
  readonly #options: RuntimeClientOptions
  readonly #backoff: KeyedBackoff | undefined
  readonly #cache = new Map<string, { expires: number, response: Record<string, unknown> }>()
  readonly #caBundles = new CABundleCache()
  readonly #now: () => number
  readonly #reloadTimer: NodeJS.Timeout | undefined

  constructor (options: RuntimeClientOptions = {}) {
    this.#options = options
    this.catalog = options.catalog ?? createCatalog()
    this.registry = options.registry ?? new Registry()
    this.#now = options.now ?? Date.now
    this.#backoff = options.backoff === false ? undefined : new KeyedBackoff(options.backoff, this.#now)
    this.metrics = new RuntimeClientMetrics(options.metricsRegistry, () => this.#backoff?.active() ?? 0)
    this.agents = new AgentPool({ clientCertificate: options.clientCertificate })
    if (options.clientCertificateReloadMs && options.clientCertificate && 'certFile' in options.clientCertificate) {
      this.#reloadTimer = setInterval(() => {
        try { this.agents.reloadClientCertificate() } catch { /* keep the current certificate while files are being replaced */ }
      }, options.clientCertificateReloadMs).unref()
    }
  }

  warmUp (list: readonly ExtensionConfig[]): void { this.registry.warmUp(list) }
  isReady (): boolean { return this.registry.isReady() }
  register (ec: ExtensionConfig): void { this.registry.add(ec) }
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
      const ca = this.#caBundles.load(ec.spec.clientConfig)
      const url = urlForExtension(ec.spec.clientConfig, this.catalog.path(hook.gvh))
      const body = JSON.stringify({ kind: hook.requestKind, apiVersion: hook.apiVersion })
      response = await this.#httpCall(ec.spec.clientConfig, url, ca, hook, hook, body, DEFAULT_HANDLER_TIMEOUT_SECONDS, options.signal)
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
    const outcome = await this.#invoke(entry, registration, request as Record<string, unknown>, options, options.signal ?? new AbortController().signal, undefined)
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
        const outcome = await this.#invoke(entry, registration, request as Record<string, unknown>, options, AbortSignal.any([outer, controller.signal]), controller.signal)
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

  /** Calls one registered handler; never throws: the outcome says what happened. */
  async #invoke (entry: CatalogHook, registration: ExtensionRegistration, request: Record<string, unknown>, options: CallOptions,
    signal: AbortSignal, cancel: AbortSignal | undefined): Promise<HandlerOutcome> {
    const started = performance.now()
    const base = { name: registration.name, gvh: registration.gvh }
    const durationMs = () => Math.round((performance.now() - started) * 1000) / 1000
    const regHook = this.catalog.find(registration.gvh)
    try {
      if (!regHook) throw new HandlerError(`http call failed: hook ${gvhString(registration.gvh)} of handler "${registration.name}" is not in the Runtime SDK catalog`)
      const wire = this.#wireRequest(entry, regHook, registration, request)
      const useCache = entry.blocking && (options.cacheBlockingResponses ?? this.#options.cacheBlockingResponses ?? false)
      const cacheKey = useCache ? createHash('sha256').update(`${registration.name}\0${registration.extensionConfigResourceVersion}\0${stableJson(wire)}`).digest('hex') : ''
      if (useCache) {
        const hit = this.#cache.get(cacheKey)
        if (hit && hit.expires > this.#now()) return answeredOutcome(base, structuredClone(hit.response), durationMs(), true)
        if (hit) this.#cache.delete(cacheKey)
      }
      let ca: string | undefined
      try {
        ca = this.#caBundles.load(registration.clientConfig)
      } catch (err) {
        throw new HandlerError(`failed to get http client: ${(err as Error).message}`)
      }
      let url: URL
      try {
        url = urlForExtension(registration.clientConfig, this.catalog.path(registration.gvh, registration.handlerName))
      } catch (err) {
        throw new HandlerError(`http call failed: ${(err as Error).message}`)
      }
      const backingOff = this.#backoff?.check(registration.name)
      if (backingOff) {
        this.metrics.backoffRejections.inc({ ...gvhLabels(entry.gvh), name: registration.name })
        throw new CallingError(`backing off after a failed call, next attempt in ${Math.ceil(backingOff.remainingMs)}ms; last error: ${backingOff.lastError}`)
      }
      let local: Record<string, unknown>
      try {
        local = await this.#httpCall(registration.clientConfig, url, ca, entry, regHook, JSON.stringify(wire), registration.timeoutSeconds, signal)
      } catch (err) {
        if (cancel?.aborted) throw new CancelledError('call cancelled after another handler failed')
        if (err instanceof CallingError) this.#backoff?.failure(registration.name, err.message)
        throw err
      }
      this.#backoff?.success(registration.name)
      let response: Record<string, unknown>
      try {
        response = regHook === entry ? local : this.catalog.convertResponse(entry.gvh.group, entry.gvh.hook, local, regHook.gvh.version, entry.gvh.version) as Record<string, unknown>
      } catch (err) {
        throw new HandlerError(`http call failed: failed to convert response from ${regHook.apiVersion}.${regHook.responseKind} to ${entry.apiVersion}.${entry.responseKind}: ${(err as Error).message}`)
      }
      response = { kind: entry.responseKind, apiVersion: entry.apiVersion, ...response }
      const outcome = answeredOutcome(base, response, durationMs())
      const retry = outcome.retryAfterSeconds ?? 0
      if (useCache && outcome.outcome === 'success' && retry > 0) this.#cache.set(cacheKey, { expires: this.#now() + retry * 1000, response: structuredClone(response) })
      return outcome
    } catch (err) {
      const message = (err instanceof CallingError ? 'http call failed: ' : '') + (err as Error).message
      if (err instanceof CallingError && registration.failurePolicy === 'Ignore') {
        this.metrics.ignoredFailures.inc({ host: hostOf(registration), ...gvhLabels(entry.gvh), name: registration.name })
        return ignoredOutcome(entry, base, message, durationMs())
      }
      return { ...base, outcome: err instanceof CancelledError ? 'cancelled' : 'error', ignored: false, error: message, durationMs: durationMs() }
    }
  }

  /**
   * The request as sent: settings merged (request wins), down-converted, kind and apiVersion of the handler's version.
   * It shares nested values with the caller's request and is only serialized; a conversion, which may change what
   * it is given, gets a deep copy.
   */
  #wireRequest (entry: CatalogHook, regHook: CatalogHook, registration: ExtensionRegistration, request: Record<string, unknown>): Record<string, unknown> {
    const { kind: _k, apiVersion: _a, settings: requestSettings, ...rest } = regHook === entry ? request : structuredClone(request)
    const settings = { ...registration.settings, ...(requestSettings as Record<string, string> | undefined) }
    let converted: Record<string, unknown> = rest
    if (regHook !== entry) {
      try {
        converted = this.catalog.convertRequest(entry.gvh.group, entry.gvh.hook, rest, entry.gvh.version, regHook.gvh.version) as Record<string, unknown>
      } catch (err) {
        throw new HandlerError(`http call failed: failed to convert request from ${entry.apiVersion}.${entry.requestKind} to ${regHook.apiVersion}.${regHook.requestKind}: ${(err as Error).message}`)
      }
    }
    return { kind: regHook.requestKind, apiVersion: regHook.apiVersion, ...(Object.keys(settings).length > 0 ? { settings } : {}), ...converted }
  }

  /**
   * POSTs a request and decodes the response of the handler's hook version; errors in calling are CallingErrors.
   * Metrics are labelled with the caller's hook version.
   */
  async #httpCall (config: ExtensionRegistration['clientConfig'], url: URL, ca: string | undefined, hookEntry: CatalogHook, regHook: CatalogHook,
    body: string, timeoutSeconds: number, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
    const timeout = timeoutSeconds || DEFAULT_HANDLER_TIMEOUT_SECONDS
    url.searchParams.set('timeout', `${timeout}s`)
    url.searchParams.sort()
    const target = this.#options.resolve ? new URL(String(this.#options.resolve(new URL(url)))) : url
    const servername = url.hostname.replace(/^\[|\]$/g, '')
    const agent = this.agents.get(target.host, servername, ca)
    const labels = { host: hostLabel(config, url), ...gvhLabels(hookEntry.gvh) }
    const deadline = AbortSignal.timeout(timeout * 1000)
    const combined = signal ? AbortSignal.any([deadline, signal]) : deadline
    const end = this.metrics.requestDuration.startTimer(labels)
    let code = '<error>'
    let status = 'Unknown'
    try {
      let result: HttpResult
      try {
        result = await post(target, agent, body, combined, timeout)
      } catch (err) {
        if (deadline.aborted) throw new CallingError(`Post "${url}": context deadline exceeded (http request timeout expired after ${timeout}s)`)
        if (signal?.aborted) throw new CancelledError(`Post "${url}": context canceled`)
        throw new CallingError(`Post "${url}": ${describeError(err)}`)
      }
      code = String(result.statusCode)
      if (result.statusCode !== 200) {
        if (result.body.length > MAX_BODY_BYTES) throw new CallingError(`got response with status code ${code} != 200: failed to read response body`)
        let text = result.body.toString('utf8')
        if (text.length > 512) text = `${text.slice(0, 512)}...`
        throw new CallingError(`got response with status code ${code} != 200: response : ${JSON.stringify(text)}`)
      }
      if (result.body.length > MAX_BODY_BYTES) throw new CallingError('failed to decode response: http: request body too large')
      const response = decodeResponse(this.catalog, regHook, result.body)
      if (typeof response['status'] === 'string' && response['status'] !== '') status = response['status']
      return response
    } finally {
      end()
      if (code !== '<error>' || !(signal?.aborted ?? false) || deadline.aborted) this.metrics.requestsTotal.inc({ code, ...labels, status })
    }
  }
}

/** POST with the body as JSON (no Content-Type, like Cluster API), reading at most MAX_BODY_BYTES + 1 bytes. */
async function post (url: URL, dispatcher: ReturnType<AgentPool['get']>, body: string, signal: AbortSignal, timeoutSeconds: number): Promise<HttpResult> {
  const backstop = timeoutSeconds * 1000 + 5000
  const res = await undiciRequest(url, { method: 'POST', body, dispatcher, signal, headersTimeout: backstop, bodyTimeout: backstop })
  const chunks: Buffer[] = []
  let total = 0
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    total += chunk.length
    if (total > MAX_BODY_BYTES) {
      res.body.destroy()
      chunks.push(chunk)
      break
    }
    chunks.push(chunk)
  }
  return { statusCode: res.statusCode, body: Buffer.concat(chunks) }
}

/**
 * Decodes a response like Go's encoding/json into the hook's type: unknown fields are ignored, top-level keys match
 * case-insensitively, absent status is "" and absent retryAfterSeconds 0; the result is checked against the schema
 * (except status, which is checked by the caller with Cluster API's messages).
 */
function decodeResponse (catalog: Catalog, hook: CatalogHook, body: Buffer): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch (err) {
    throw new CallingError(`failed to decode response: ${(err as Error).message}`)
  }
  if (parsed === null) parsed = {}
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CallingError(`failed to decode response: json: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type ${hook.responseKind}`)
  }
  const properties = schemaProperties(hook.definition.response)
  const response: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    const target = properties.includes(key) ? key : properties.find(p => p.toLowerCase() === key.toLowerCase()) ?? key
    if (target === key || !(target in (parsed as Record<string, unknown>))) response[target] = value
  }
  delete response['kind']
  delete response['apiVersion']
  if (response['status'] === undefined || response['status'] === null) response['status'] = ''
  if (typeof response['status'] !== 'string') throw new CallingError(`failed to decode response: status: must be a string, got ${typeof response['status']}`)
  if (hook.blocking && (response['retryAfterSeconds'] === undefined || response['retryAfterSeconds'] === null)) response['retryAfterSeconds'] = 0
  const check: Record<string, unknown> = { ...response, status: 'Success' }
  if (hook.gvh.hook === 'Discovery') {
    // Discovery's handler constraints are reported with Cluster API's discovery validation messages instead.
    const handlerError = discoveryHandlerShapeError(check['handlers'])
    if (handlerError) throw new CallingError(`failed to decode response: ${handlerError}`)
    delete check['handlers']
  }
  const result = catalog.validateResponse(hook.gvh, check, 'decode')
  if (!result.valid) throw new CallingError(`failed to decode response: ${result.message}`)
  return response
}

function discoveryHandlerShapeError (handlers: unknown): string | undefined {
  if (handlers === undefined || handlers === null) return undefined
  if (!Array.isArray(handlers)) return 'handlers: must be an array'
  for (const [i, h] of handlers.entries()) {
    const at = `handlers[${i}]`
    if (typeof h !== 'object' || h === null || Array.isArray(h)) return `${at}: must be an object`
    const { name, requestHook, timeoutSeconds, failurePolicy } = h as Record<string, unknown>
    if (typeof name !== 'string') return `${at}.name: must be a string`
    if (typeof requestHook !== 'object' || requestHook === null) return `${at}.requestHook: must be an object`
    const rh = requestHook as Record<string, unknown>
    if (typeof rh['apiVersion'] !== 'string' || typeof rh['hook'] !== 'string') return `${at}.requestHook: apiVersion and hook must be strings`
    if (timeoutSeconds !== undefined && timeoutSeconds !== null && (!Number.isInteger(timeoutSeconds) || Math.abs(timeoutSeconds as number) > 2 ** 31)) return `${at}.timeoutSeconds: must be an int32`
    if (failurePolicy !== undefined && failurePolicy !== null && typeof failurePolicy !== 'string') return `${at}.failurePolicy: must be a string`
  }
  return undefined
}

/** Cluster API's status check: Success passes, Failure and anything else are errors (never ignored). */
function checkStatus (response: Record<string, unknown>): string | undefined {
  const status = response['status']
  const message = typeof response['message'] === 'string' ? response['message'] : ''
  if (status === 'Success') return undefined
  if (status === 'Failure') return `got failure response with message: ${message}`
  return `got unknown response status ${JSON.stringify(status ?? '')} with message: ${message}`
}

function messageOf (response: Record<string, unknown>): { message?: string } {
  return typeof response['message'] === 'string' && response['message'] !== '' ? { message: response['message'] } : {}
}

function gvhLabels (gvh: GroupVersionHook): { group: string, version: string, hook: string } {
  return { group: gvh.group, version: gvh.version, hook: gvh.hook }
}

function hostOf (registration: ExtensionRegistration): string {
  try {
    return hostLabel(registration.clientConfig, urlForExtension(registration.clientConfig, '/'))
  } catch {
    return ''
  }
}

function objectKey (o: KubeObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`
}

/** JSON with object keys sorted, for cache keys. */
export function stableJson (value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map(k => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
