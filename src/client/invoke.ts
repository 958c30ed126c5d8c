// Calling one registered handler, as Cluster API's client does: settings merged into the request, converted down to
// the handler's version and up again, POSTed within the handler's timeout, decoded and checked; failurePolicy
// Ignore applied to calling errors. Around it: per-handler backoff, the blocking-response cache and metrics.
import { createHash } from 'node:crypto'
import type { ClientConfig } from '../api/extension-config/types.js'
import type { Catalog, CatalogHook } from '../catalog/catalog.js'
import { DEFAULT_HANDLER_TIMEOUT_SECONDS } from '../api/hooks/v1alpha1/constants.js'
import { type GroupVersionHook, gvhString } from '../catalog/identity.js'
import type { ExtensionRegistration } from '../registry/registry.js'
import type { KeyedBackoff } from '../backoff/backoff.js'
import { CallingError, CancelledError, HandlerError } from './errors.js'
import type { RuntimeClientMetrics } from './metrics.js'
import { answeredOutcome, ignoredOutcome } from './outcomes.js'
import type { HandlerOutcome } from './runtime-client.js'
import { type AgentPool, CABundleCache, hostLabel, type ResolveUrl, urlForExtension } from './transport.js'
import { decodeResponse, describeError, hookUrl, type HttpResult, postHook, stableJson } from './wire.js'
import { ATTRIBUTES, endSpan, outgoingHeaders, SpanKind, tracer } from '../telemetry/trace.js'

interface InvokerOptions {
  catalog: Catalog
  agents: AgentPool
  metrics: RuntimeClientMetrics
  backoff: KeyedBackoff | undefined
  now: () => number
  resolve: ResolveUrl | undefined
  /** maxResponseBytes: a longer answer is a calling error (Cluster API's client reads any size). */
  maxResponseBytes: number
}

export class HandlerInvoker {
  readonly #options: InvokerOptions
  readonly #catalog: Catalog
  readonly #cache = new Map<string, { expires: number, response: Record<string, unknown> }>()
  readonly #caBundles = new CABundleCache()

  constructor (options: InvokerOptions) {
    this.#options = options
    this.#catalog = options.catalog
  }

  /** The CA bundle of a client config, read once per content. */
  caBundle (config: ClientConfig): string | undefined {
    return this.#caBundles.load(config)
  }

  /**
   * Calls one registered handler for a request of the caller's hook version (entry); never throws: the outcome
   * says what happened. `cancel` is aborted when another handler's failure makes this call pointless.
   */
  async invoke (entry: CatalogHook, registration: ExtensionRegistration, request: Record<string, unknown>, useCache: boolean,
    signal: AbortSignal, cancel: AbortSignal | undefined): Promise<HandlerOutcome> {
    const started = performance.now()
    const base = { name: registration.name, gvh: registration.gvh }
    const durationMs = () => Math.round((performance.now() - started) * 1000) / 1000
    const regHook = this.#catalog.find(registration.gvh)
    const backoff = this.#options.backoff
    try {
      if (!regHook) throw new HandlerError(`http call failed: hook ${gvhString(registration.gvh)} of handler "${registration.name}" is not in the Runtime SDK catalog`)
      const wire = this.#wireRequest(entry, regHook, registration, request)
      const cacheKey = useCache ? createHash('sha256').update(`${registration.name}\0${registration.extensionConfigResourceVersion}\0${stableJson(wire)}`).digest('hex') : ''
      if (useCache) {
        const hit = this.#cache.get(cacheKey)
        if (hit && hit.expires > this.#options.now()) return answeredOutcome(base, structuredClone(hit.response), durationMs(), true)
        if (hit) this.#cache.delete(cacheKey)
      }
      let ca: string | undefined
      try {
        ca = this.caBundle(registration.clientConfig)
      } catch (err) {
        throw new HandlerError(`failed to get http client: ${(err as Error).message}`)
      }
      const timeout = registration.timeoutSeconds || DEFAULT_HANDLER_TIMEOUT_SECONDS
      let url: URL
      try {
        url = hookUrl(registration.clientConfig, this.#catalog.path(registration.gvh, registration.handlerName), timeout)
      } catch (err) {
        throw new HandlerError(`http call failed: ${(err as Error).message}`)
      }
      const backingOff = backoff?.check(registration.name)
      if (backingOff) {
        this.#options.metrics.backoffRejections.inc({ ...gvhLabels(entry.gvh), name: registration.name })
        throw new CallingError(`not sent: backing off until ${new Date(this.#options.now() + backingOff.remainingMs).toISOString()} after a failed call`)
      }
      let local: Record<string, unknown>
      try {
        local = await this.httpCall(registration.clientConfig, url, ca, entry, regHook, JSON.stringify(wire), timeout, signal, registration.name)
      } catch (err) {
        if (cancel?.aborted) throw new CancelledError('call cancelled after another handler failed')
        if (err instanceof CallingError) backoff?.failure(registration.name, err.message)
        throw err
      }
      backoff?.success(registration.name)
      let response: Record<string, unknown>
      try {
        response = regHook === entry ? local : this.#catalog.convertResponse(entry.gvh.group, entry.gvh.hook, local, regHook.gvh.version, entry.gvh.version) as Record<string, unknown>
      } catch (err) {
        throw new HandlerError(`http call failed: failed to convert response from ${regHook.apiVersion}.${regHook.responseKind} to ${entry.apiVersion}.${entry.responseKind}: ${(err as Error).message}`)
      }
      response = { kind: entry.responseKind, apiVersion: entry.apiVersion, ...response }
      const outcome = answeredOutcome(base, response, durationMs())
      const retry = outcome.retryAfterSeconds ?? 0
      if (useCache && outcome.outcome === 'success' && retry > 0) this.#cache.set(cacheKey, { expires: this.#options.now() + retry * 1000, response: structuredClone(response) })
      return outcome
    } catch (err) {
      const message = (err instanceof CallingError ? 'http call failed: ' : '') + (err as Error).message
      if (err instanceof CallingError && registration.failurePolicy === 'Ignore') {
        this.#options.metrics.ignoredFailures.inc({ host: hostOf(registration), ...gvhLabels(entry.gvh), name: registration.name })
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
        converted = this.#catalog.convertRequest(entry.gvh.group, entry.gvh.hook, rest, entry.gvh.version, regHook.gvh.version) as Record<string, unknown>
      } catch (err) {
        throw new HandlerError(`http call failed: failed to convert request from ${entry.apiVersion}.${entry.requestKind} to ${regHook.apiVersion}.${regHook.requestKind}: ${(err as Error).message}`)
      }
    }
    return { kind: regHook.requestKind, apiVersion: regHook.apiVersion, ...(Object.keys(settings).length > 0 ? { settings } : {}), ...converted }
  }

  /**
   * POSTs a request to a hook URL (see hookUrl) and decodes the response of the handler's hook version; errors in
   * calling are CallingErrors. Metrics are labelled with the caller's hook version; the call is a span (named by
   * `handler`, the registered handler or the ExtensionConfig discovered) whose traceparent the request carries.
   */
  async httpCall (config: ClientConfig, url: URL, ca: string | undefined, hookEntry: CatalogHook, regHook: CatalogHook,
    body: string, timeoutSeconds: number, signal: AbortSignal | undefined, handler: string): Promise<Record<string, unknown>> {
    const { metrics, resolve, maxResponseBytes } = this.#options
    const target = resolve ? new URL(String(resolve(new URL(url)))) : url
    const servername = url.hostname.replace(/^\[|\]$/g, '')
    const agent = this.#options.agents.get(target.host, servername, ca)
    const labels = { host: hostLabel(config, url), ...gvhLabels(hookEntry.gvh) }
    const deadline = AbortSignal.timeout(timeoutSeconds * 1000)
    const combined = signal ? AbortSignal.any([deadline, signal]) : deadline
    const end = metrics.requestDuration.startTimer(labels)
    const span = tracer.startSpan(`${hookEntry.gvh.hook} ${handler}`, { kind: SpanKind.CLIENT, attributes: { [ATTRIBUTES.hook]: hookEntry.gvh.hook, [ATTRIBUTES.handler]: handler, [ATTRIBUTES.serverAddress]: url.host } })
    let code = '<error>'
    let status = 'Unknown'
    let failed: string | undefined
    try {
      let result: HttpResult
      try {
        result = await postHook(target, { dispatcher: agent, body, signal: combined, backstopMs: timeoutSeconds * 1000 + 5000, maxBytes: maxResponseBytes, headers: outgoingHeaders(span) })
      } catch (err) {
        if (deadline.aborted) throw new CallingError(`Post "${url}": context deadline exceeded (http request timeout expired after ${timeoutSeconds}s)`)
        if (signal?.aborted) throw new CancelledError(`Post "${url}": context canceled`)
        throw new CallingError(`Post "${url}": ${describeError(err)}`)
      }
      code = String(result.statusCode)
      if (result.statusCode !== 200) {
        if (result.body.length > maxResponseBytes) throw new CallingError(`got response with status code ${code} != 200: failed to read response body`)
        let text = result.body.toString('utf8')
        if (text.length > 512) text = `${text.slice(0, 512)}...`
        throw new CallingError(`got response with status code ${code} != 200: response : ${JSON.stringify(text)}`)
      }
      if (result.body.length > maxResponseBytes) throw new CallingError(`failed to decode response: the response is larger than ${maxResponseBytes} bytes (maxResponseBytes)`)
      const response = decodeResponse(this.#catalog, regHook, result.body)
      if (typeof response['status'] === 'string' && response['status'] !== '') status = response['status']
      if (status === 'Failure') failed = String(response['message'] ?? 'Failure')
      return response
    } catch (err) {
      failed = (err as Error).message
      throw err
    } finally {
      end()
      if (span.isRecording()) span.setAttributes({ ...(code !== '<error>' ? { [ATTRIBUTES.httpStatus]: Number(code) } : {}), [ATTRIBUTES.status]: status })
      endSpan(span, failed)
      if (code !== '<error>' || !(signal?.aborted ?? false) || deadline.aborted) metrics.requestsTotal.inc({ code, ...labels, status })
    }
  }
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
