// A small Kubernetes REST client over undici: JSON requests and streaming watches against the server of a
// kubeconfig (kubeconfig.ts), with its CA, client certificate, credentials (asked per request, so rotated token
// files and exec plugins keep working; a 401 makes the next request fetch fresh ones) and insecure-skip-tls-verify.
// Generic over object types: it knows paths, not kinds.
import type { ConnectionOptions } from 'node:tls'
import type { Dispatcher } from 'undici'
import { Agent, request } from '../shims/undici.js'
import type { KubeCredentials } from './credential-types.js'
import { KubeApiError, type KubeStatus } from './errors.js'
import { fromKubeConfig, type KubeConfigLike, type KubeconfigSelection, type KubeConnection, loadKubeConnection } from './kubeconfig.js'

/** A list of objects as the API server answers a list request. */
export interface KubeList<T> {
  /** apiVersion of the list, e.g. runtime.cluster.x-k8s.io/v1beta2. */
  apiVersion?: string
  /** kind of the list, e.g. ExtensionConfigList. */
  kind?: string
  /** metadata of the list. */
  metadata: {
    /** resourceVersion to watch from to see every change after this list. */
    resourceVersion?: string
    /** continue is the token that gets the next page, when the list was limited. */
    continue?: string
    /** remainingItemCount is how many items the next pages hold, when the server knows. */
    remainingItemCount?: number
  }
  /** items are the objects. */
  items: T[]
}

/** One watch event. ERROR events never reach the handler: they end the watch with a KubeApiError. */
export interface KubeWatchEvent<T> {
  /** type of the event: ADDED, MODIFIED, DELETED, or BOOKMARK (the object carries only a resourceVersion). */
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'
  /** object is the object as it is after the event (as it was before for DELETED). */
  object: T
}

type Query = Record<string, string | number | boolean | undefined>

/** How one request of {@link KubeApi} is made. */
export interface KubeRequestOptions {
  /** query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>
  /** body is a JSON value (serialised) or a string/Buffer sent as is. */
  body?: unknown
  /** contentType of the body (default application/json). */
  contentType?: string
  /** accept header (default application/json). */
  accept?: string
  /** signal aborts the request. */
  signal?: AbortSignal
  /** timeoutMs aborts the request (including reading the body) after this long; 0 = no limit. Default: the client's timeoutMs. */
  timeoutMs?: number
}

/** How {@link KubeApi.watch} watches. */
export interface KubeWatchOptions {
  /** resourceVersion to start after; absent = "start at most recent" (the server sends ADDED for every object first). */
  resourceVersion?: string
  /** allowWatchBookmarks asks the server for BOOKMARK events, which advance the resourceVersion without a change. */
  allowWatchBookmarks?: boolean
  /** timeoutSeconds asks the server to end the watch after this long; the client also gives up 30 s after it (half-open connections). */
  timeoutSeconds?: number
  /** labelSelector limits the watch to objects with these labels, e.g. `app=x`. */
  labelSelector?: string
  /** fieldSelector limits the watch to objects with these fields, e.g. `metadata.name=x`. */
  fieldSelector?: string
  /** accept header (default application/json), e.g. the PartialObjectMetadata form. */
  accept?: string
  /** signal ends the watch: it rejects with the abort reason. */
  signal?: AbortSignal
  /** query holds more query parameters. */
  query?: Record<string, string | number | boolean | undefined>
  /** onOpen is called once the server accepted the watch, before the first event. */
  onOpen?: () => void
}

/** The options of {@link KubeApi}. */
export interface KubeApiOptions {
  /** timeoutMs is the default per-request limit for everything but watches (default 30 000 ms; 0 = none). */
  timeoutMs?: number
  /** userAgent is the User-Agent header (default runtime-sdk-controller). */
  userAgent?: string
}

const JSON_TYPE = 'application/json'
const MERGE_PATCH = 'application/merge-patch+json'
// The server ends a watch at timeoutSeconds; a stream still open this much later is presumed dead.
const WATCH_DEADLINE_GRACE_MS = 30_000

/** How many times a request the API server asks to retry (429, 5xx with Retry-After) is sent again: client-go's. */
const MAX_RETRIES = 10

/** The wait a 429 or 5xx answer asks for with its Retry-After seconds (client-go's checkWait), or undefined. */
function retryAfterMs (res: Dispatcher.ResponseData): number | undefined {
  if (res.statusCode !== 429 && res.statusCode < 500) return undefined
  const header = res.headers['retry-after']
  const seconds = Number(Array.isArray(header) ? header[0] : header)
  return header !== undefined && Number.isInteger(seconds) && seconds >= 0 ? seconds * 1000 : undefined
}

/**
 * A small Kubernetes REST client: JSON requests and streaming watches against the API server of a kubeconfig, with
 * its CA, client certificate and credentials (asked for per request, so rotated token files and exec plugins keep
 * working). It knows paths, not kinds; a non-2xx answer is a {@link KubeApiError}.
 *
 * @example
 * ```ts
 * import { KubeApi } from 'runtime-sdk/controller'
 *
 * const api = new KubeApi() // KUBECONFIG, ~/.kube/config, then in-cluster
 * const list = await api.list('/apis/runtime.cluster.x-k8s.io/v1beta2/extensionconfigs')
 * console.log(list.items.length, list.metadata.resourceVersion)
 * await api.close()
 * ```
 */
export class KubeApi {
  /** The API server URL from the kubeconfig (no trailing slash). */
  readonly server: string
  readonly #connection: KubeConnection
  readonly #tls: ConnectionOptions
  /** The agent with the static client certificate, if any. */
  readonly #agent: Agent
  /** The agent with the client certificate an exec plugin returned last. */
  #certAgent: { cert: string, key: string, agent: Agent } | undefined
  /** Agents of replaced certificates, closing once their requests (watches too) are done. */
  readonly #retiring = new Set<Agent>()
  readonly #timeoutMs: number
  readonly #userAgent: string
  #closed = false

  /**
   * From the path of a kubeconfig file, a kubeconfig selection ({ kubeconfig?, context? }), a loaded client-node
   * KubeConfig (its current context), a connection, or nothing: KUBECONFIG, ~/.kube/config, then in-cluster.
   */
  constructor (config?: KubeConfigLike | KubeConnection | KubeconfigSelection | string, options: KubeApiOptions = {}) {
    const connection = toConnection(config)
    const server = new URL(connection.server)
    // Bearer tokens must not travel in clear text unless the kubeconfig explicitly gives up on TLS.
    if (server.protocol === 'http:' && !connection.insecureSkipTLSVerify) {
      throw new Error(`kube api: plain HTTP server ${connection.server} needs insecure-skip-tls-verify in the kubeconfig`)
    }
    this.server = server.origin + server.pathname.replace(/\/+$/, '')
    this.#connection = connection
    this.#timeoutMs = options.timeoutMs ?? 30_000
    this.#userAgent = options.userAgent ?? 'runtime-sdk-controller'
    this.#tls = {
      ...(connection.ca ? { ca: connection.ca } : {}),
      ...(connection.servername ? { servername: connection.servername } : {}),
      rejectUnauthorized: !connection.insecureSkipTLSVerify
    }
    this.#agent = newAgent({ ...this.#tls, ...(connection.cert && connection.key ? { cert: connection.cert, key: connection.key } : {}) })
  }

  /** One request; a JSON answer is parsed, an empty one gives undefined. Non-2xx answers throw KubeApiError. */
  async request<T = unknown> (method: string, path: string, options: KubeRequestOptions = {}): Promise<T> {
    const what = `${method} ${path}`
    for (let retries = 0; ; retries++) {
      const { res, done } = await this.#send(method, path, options, options.timeoutMs ?? this.#timeoutMs, {})
      const wait = retries < MAX_RETRIES ? retryAfterMs(res) : undefined
      if (wait === undefined) return await this.#answer<T>(res, done, what)
      // Asked to come back (a CRD's storage initializing, priority and fairness): as client-go, after Retry-After.
      await res.body.dump().finally(done)
      await new Promise(resolve => setTimeout(resolve, wait))
    }
  }

  async #answer<T> (res: Dispatcher.ResponseData, done: () => void, what: string): Promise<T> {
    try {
      const text = await res.body.text()
      if (res.statusCode < 200 || res.statusCode >= 300) throw KubeApiError.fromResponse(res.statusCode, text, what)
      if (!text) return undefined as T
      try {
        return JSON.parse(text) as T
      } catch {
        throw new Error(`${what}: answer is not JSON: ${text.slice(0, 200)}`)
      }
    } finally {
      done()
    }
  }

  /** GET an object (or any path); throws KubeApiError (404 NotFound, ...) when the server refuses. */
  get<T = unknown> (path: string, options?: KubeRequestOptions): Promise<T> {
    return this.request<T>('GET', path, options)
  }

  /** GET a collection path: the list of its objects. */
  list<T = unknown> (path: string, options?: KubeRequestOptions): Promise<KubeList<T>> {
    return this.request<KubeList<T>>('GET', path, options)
  }

  /** POST to a collection path. */
  create<T = unknown> (path: string, body: unknown, options?: KubeRequestOptions): Promise<T> {
    return this.request<T>('POST', path, { ...options, body })
  }

  /** PUT: a full replacement; optimistic concurrency when body.metadata.resourceVersion is set (409 Conflict). */
  replace<T = unknown> (path: string, body: unknown, options?: KubeRequestOptions): Promise<T> {
    return this.request<T>('PUT', path, { ...options, body })
  }

  /** PATCH with a JSON merge patch (RFC 7386): null deletes a field, objects merge, lists are replaced. */
  mergePatch<T = unknown> (path: string, patch: unknown, options?: KubeRequestOptions): Promise<T> {
    return this.request<T>('PATCH', path, { ...options, body: patch, contentType: MERGE_PATCH })
  }

  /** DELETE; options.body may carry DeleteOptions (preconditions, propagationPolicy). */
  delete<T = unknown> (path: string, options?: KubeRequestOptions): Promise<T> {
    return this.request<T>('DELETE', path, options)
  }

  /**
   * Watches a collection path, calling onEvent for each ADDED/MODIFIED/DELETED/BOOKMARK event in order.
   * Resolves when the server ends the stream; rejects with a KubeApiError on a failed response or an
   * ERROR event (e.g. 410 Expired: the resourceVersion is too old), with the abort reason when the
   * signal fires, and with whatever onEvent throws (the stream is closed first).
   */
  async watch<T = unknown> (path: string, options: KubeWatchOptions, onEvent: (event: KubeWatchEvent<T>) => void): Promise<void> {
    const query: Query = {
      ...options.query,
      watch: 'true',
      resourceVersion: options.resourceVersion || undefined,
      allowWatchBookmarks: options.allowWatchBookmarks ? 'true' : undefined,
      timeoutSeconds: options.timeoutSeconds,
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector
    }
    const deadlineMs = options.timeoutSeconds ? options.timeoutSeconds * 1000 + WATCH_DEADLINE_GRACE_MS : 0
    const { res, done } = await this.#send('GET', path, { query, accept: options.accept, signal: options.signal }, deadlineMs, { bodyTimeout: 0 })
    try {
      if (res.statusCode < 200 || res.statusCode >= 300) {
        throw KubeApiError.fromResponse(res.statusCode, await res.body.text(), `watch ${path}`)
      }
      options.onOpen?.()
      const lines = new LineSplitter()
      const handle = (line: string): void => onEvent(parseWatchEvent<T>(line, path))
      for await (const chunk of res.body) lines.push(chunk as Buffer, handle)
      lines.end(handle)
    } finally {
      // Closes the stream when onEvent threw or an ERROR event ended the watch early.
      res.body.destroy()
      done()
    }
  }

  /** Closes the connection pool; in-flight requests fail. */
  async close (): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    const agents = [this.#agent, ...this.#retiring, ...(this.#certAgent ? [this.#certAgent.agent] : [])]
    this.#certAgent = undefined
    await Promise.all(agents.map(agent => agent.destroy()))
  }

  async #send (method: string, path: string, options: KubeRequestOptions, timeoutMs: number,
    extra: Partial<Dispatcher.RequestOptions>): Promise<{ res: Dispatcher.ResponseData, done: () => void }> {
    if (this.#closed) throw new Error(`kube api: closed (${method} ${path})`)
    const url = new URL(this.server + path)
    for (const [k, v] of Object.entries(options.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v))
    }
    const credentials = await this.#connection.credentials()
    const headers: Record<string, string> = {
      ...credentials.headers,
      accept: options.accept ?? JSON_TYPE,
      'user-agent': this.#userAgent
    }
    let body: string | Buffer | undefined
    if (options.body !== undefined) {
      body = typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body)
      headers['content-type'] = options.contentType ?? JSON_TYPE
    }
    // A timer we can clear (AbortSignal.timeout cannot be cancelled), combined with the caller's signal.
    const timeout = new AbortController()
    const timer = timeoutMs > 0
      ? setTimeout(() => timeout.abort(new DOMException(`${method} ${path} timed out after ${timeoutMs} ms`, 'TimeoutError')), timeoutMs)
      : undefined
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal
    const done = () => clearTimeout(timer)
    try {
      const dispatcher = this.#agentFor(credentials, method, path)
      const res = await request(dispatcher, url, { ...extra, method: method as Dispatcher.HttpMethod, headers, body, signal })
      // Revoked or expired early: the next request gets fresh credentials (an exec plugin runs again).
      if (res.statusCode === 401) this.#connection.invalidate?.(credentials)
      return { res, done }
    } catch (err) {
      done()
      throw err
    }
  }

  /** The agent presenting the credentials' client certificate: a new one when an exec plugin returned a new one. */
  #agentFor (credentials: KubeCredentials, method: string, path: string): Agent {
    // Closed while the credentials were fetched: a new agent now would never be closed.
    if (this.#closed) throw new Error(`kube api: closed (${method} ${path})`)
    const { cert, key } = credentials
    if (!cert || !key) return this.#agent
    if (this.#certAgent?.cert === cert && this.#certAgent.key === key) return this.#certAgent.agent
    const old = this.#certAgent?.agent
    this.#certAgent = { cert, key, agent: newAgent({ ...this.#tls, cert, key }) }
    if (old) {
      // close() lets requests in flight on the old certificate finish, watches included.
      this.#retiring.add(old)
      old.close().catch(() => {}).finally(() => this.#retiring.delete(old))
    }
    return this.#certAgent.agent
  }
}

function toConnection (config: KubeConfigLike | KubeConnection | KubeconfigSelection | string | undefined): KubeConnection {
  if (config === undefined) return loadKubeConnection()
  if (typeof config === 'string') return loadKubeConnection({ kubeconfig: config })
  if ('getCurrentCluster' in config) return fromKubeConfig(config)
  if ('server' in config) return config
  return loadKubeConnection(config)
}

const newAgent = (connect: ConnectionOptions) => new Agent({ connect, keepAliveTimeout: 30_000 })

function parseWatchEvent<T> (line: string, path: string): KubeWatchEvent<T> {
  let event: { type?: string, object?: unknown }
  try {
    event = JSON.parse(line)
  } catch {
    throw new Error(`watch ${path}: undecodable event: ${line.slice(0, 200)}`)
  }
  switch (event.type) {
    case 'ADDED':
    case 'MODIFIED':
    case 'DELETED':
    case 'BOOKMARK':
      if (!event.object || typeof event.object !== 'object') throw new Error(`watch ${path}: ${event.type} event without an object`)
      return event as KubeWatchEvent<T>
    case 'ERROR':
      throw KubeApiError.fromStatus((event.object ?? {}) as KubeStatus)
    default:
      throw new Error(`watch ${path}: unknown event type ${JSON.stringify(event.type)}`)
  }
}

/** Splits a byte stream into lines; multi-byte characters and lines may span chunks. */
export class LineSplitter {
  readonly #decoder = new TextDecoder()
  #buffer = ''

  push (chunk: Uint8Array, onLine: (line: string) => void): void {
    // Only the new text can hold the next newline: big objects arriving in many chunks stay linear.
    let scanFrom = this.#buffer.length
    this.#buffer += this.#decoder.decode(chunk, { stream: true })
    let start = 0
    for (let nl = this.#buffer.indexOf('\n', scanFrom); nl !== -1; nl = this.#buffer.indexOf('\n', scanFrom)) {
      const line = this.#buffer.slice(start, nl)
      start = nl + 1
      scanFrom = start
      if (line.trim()) onLine(line)
    }
    if (start > 0) this.#buffer = this.#buffer.slice(start)
  }

  end (onLine: (line: string) => void): void {
    const rest = this.#buffer + this.#decoder.decode()
    this.#buffer = ''
    if (rest.trim()) onLine(rest)
  }
}
