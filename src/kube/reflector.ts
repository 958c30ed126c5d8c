// List + watch of one collection into a local cache, with add/update/delete events (client-go's
// reflector and informer, reduced to what a controller needs). It never throws and never gives up:
// a failed list or watch is reported to onError and retried with backoff; an expired resourceVersion
// (410) leads to a relist whose difference to the cache is emitted, so changes made while
// disconnected (deletions included) are not missed. An API server that cannot be reached is tried again
// at least every second, so the cache catches up within about a second of it coming back; one that
// answers with errors is backed off exponentially. Cached objects carry no metadata.managedFields, as
// controller-runtime's caches can strip them: nothing here reads them, they are often most of an object, and an
// update without them leaves the server's unchanged.
import { isKubeApiError, isResourceExpired } from './errors.js'
import type { Stored } from '../api/kube-object.js'
import type { KubeApi, KubeList, KubeWatchEvent } from './api.js'
import { RetryBackoff, sleep, type BackoffOptions } from '../backoff/backoff.js'

export const PARTIAL_OBJECT_METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1'
export const PARTIAL_OBJECT_METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1'

export interface ReflectorOptions {
  /** Collection path, e.g. /apis/runtime.cluster.x-k8s.io/v1beta2/extensionconfigs or /api/v1/namespaces/ns/secrets. */
  path: string
  labelSelector?: string
  fieldSelector?: string
  /** Cache PartialObjectMetadata only (no spec/data): how Secrets are watched without their contents. */
  metadataOnly?: boolean
  /** Page size of the list (default 500). */
  pageSize?: number
  /** Retry delays after the API server answered with an error (default 200 ms ×2 up to 30 s, 20 % jitter). */
  backoff?: BackoffOptions & { resetAfterMs?: number }
  /** Longest delay between attempts while the API server cannot be reached at all (default 1000 ms). */
  unreachableRetryMaxMs?: number
  /** Base of the server-side watch timeout; each watch picks a value in [base, 2·base) (default 300 s). */
  watchTimeoutSeconds?: number
  /** A watch that ends cleanly sooner than this without any event counts as a failure for backoff (default 1000 ms). */
  minWatchMs?: number
  /** Randomness for timeouts and jitter (tests). */
  random?: () => number
}

/** Listener signatures: the cache already holds the new state when they run. */
interface ReflectorEvents<T> {
  add: (obj: T) => void
  update: (obj: T, old: T) => void
  /** obj is the last state: from the DELETED event, or the cached copy when a relist found it gone. */
  delete: (obj: T) => void
}

/** Where a reported error happened: listing, watching, or in one of the event listeners. */
type ReflectorErrorPhase = 'list' | 'watch' | 'listener'

export interface ReflectorErrorInfo {
  phase: ReflectorErrorPhase
  /** Milliseconds until the next attempt (absent for listener errors). */
  retryInMs?: number
}

/** Since when the cache may miss changes: the last list or watch failed and none succeeded since. */
export interface Staleness {
  /** since is when the first of the failures happened. */
  since: Date
  /** error is the message of the last failure. */
  error: string
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])

/** The request got no answer from the API server (refused, reset, unresolvable): not a sign of its load. */
function isUnreachable (err: unknown): boolean {
  if (isKubeApiError(err)) return false
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true
  }
  return false
}

/** Drops metadata.managedFields from an object about to be cached. */
function withoutManagedFields (obj: Stored): void {
  if (obj.metadata && 'managedFields' in obj.metadata) delete obj.metadata.managedFields
}

/** The cache key: namespace/name, or name for cluster-scoped objects. */
export function objectKey (obj: Stored): string {
  return obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : obj.metadata.name
}

type Listeners<T> = { [E in keyof ReflectorEvents<T>]: Set<ReflectorEvents<T>[E]> }

export class Reflector<T extends Stored> {
  readonly #api: KubeApi
  readonly #options: ReflectorOptions
  readonly #backoff: RetryBackoff
  readonly #unreachableBackoff: RetryBackoff
  readonly #random: () => number
  readonly #cache = new Map<string, T>()
  readonly #listeners: Listeners<T> = { add: new Set(), update: new Set(), delete: new Set() }
  readonly #errorListeners = new Set<(err: Error, info: ReflectorErrorInfo) => void>()
  readonly #stop = new AbortController()
  readonly #synced: Promise<void>
  #resolveSynced!: () => void
  #rejectSynced!: (err: Error) => void
  #hasSynced = false
  #resourceVersion = ''
  #stale: Staleness | undefined
  #running: Promise<void> | undefined

  constructor (api: KubeApi, options: ReflectorOptions) {
    this.#api = api
    this.#options = options
    this.#random = options.random ?? Math.random
    this.#backoff = new RetryBackoff(options.backoff, Date.now, this.#random)
    this.#unreachableBackoff = new RetryBackoff({ maxMs: options.unreachableRetryMaxMs ?? 1000 }, Date.now, this.#random)
    this.#synced = new Promise((resolve, reject) => { this.#resolveSynced = resolve; this.#rejectSynced = reject })
    // Nobody has to await synced(); stopping before the first list must not be an unhandled rejection.
    this.#synced.catch(() => {})
  }

  /** Starts listing and watching in the background; idempotent. Register listeners first to see the initial adds. */
  start (): this {
    if (!this.#running && !this.#stop.signal.aborted) this.#running = this.#run()
    return this
  }

  /** Adds a listener; returns a function that removes it. */
  on<E extends keyof ReflectorEvents<T>> (event: E, listener: ReflectorEvents<T>[E]): () => void {
    const set = this.#listeners[event] as Set<ReflectorEvents<T>[E]>
    set.add(listener)
    return () => { set.delete(listener) }
  }

  /** Observes failures (for logs and metrics); the reflector retries on its own. Returns a remover. */
  onError (listener: (err: Error, info: ReflectorErrorInfo) => void): () => void {
    this.#errorListeners.add(listener)
    return () => { this.#errorListeners.delete(listener) }
  }

  /** Resolves once the first list is in the cache; rejects if stop() comes first. */
  synced (): Promise<void> {
    return this.#synced
  }

  hasSynced (): boolean {
    return this.#hasSynced
  }

  /** undefined while the cache follows the server; otherwise since when it may be missing changes, and why. */
  stale (): Staleness | undefined {
    return this.#stale
  }

  /** The cached objects (a snapshot). */
  list (): T[] {
    return [...this.#cache.values()]
  }

  /** The cached object for a key (namespace/name, or name when cluster-scoped). */
  get (key: string): T | undefined {
    return this.#cache.get(key)
  }

  /** The resourceVersion of the last list, event or bookmark seen ('' before the first list). */
  get lastSyncResourceVersion (): string {
    return this.#resourceVersion
  }

  /** Ends the list/watch loop; resolves when it has stopped. No error is reported for the interruption. */
  async stop (): Promise<void> {
    this.#stop.abort()
    if (!this.#hasSynced) this.#rejectSynced(new Error(`reflector ${this.#options.path}: stopped before the first list`))
    await this.#running
  }

  async #run (): Promise<void> {
    const signal = this.#stop.signal
    let mustList = true
    while (!signal.aborted) {
      let phase: ReflectorErrorPhase = mustList ? 'list' : 'watch'
      try {
        if (mustList) {
          await this.#relist(signal)
          mustList = false
          phase = 'watch'
        }
        const started = Date.now()
        const events = await this.#watch(signal)
        // A server that keeps closing watches at once must not make us spin.
        if (events === 0 && Date.now() - started < (this.#options.minWatchMs ?? 1000)) await sleep(this.#backoff.next(), signal)
      } catch (err) {
        if (signal.aborted) break
        // Too old to resume from (compacted, or the apiserver restarted): a fresh list closes the gap.
        if (isResourceExpired(err)) mustList = true
        this.#stale ??= { since: new Date(), error: '' }
        this.#stale.error = err instanceof Error ? err.message : String(err)
        // Unreachable: retried at a capped pace, and once it answers, errors back off from the start again.
        const unreachable = isUnreachable(err)
        if (unreachable) this.#backoff.reset()
        const delay = unreachable ? this.#unreachableBackoff.next() : this.#backoff.next()
        this.#reportError(err, { phase, retryInMs: delay })
        await sleep(delay, signal)
      }
    }
  }

  /** Lists everything (paginated), then emits the difference to the cache as add/update/delete. */
  async #relist (signal: AbortSignal): Promise<void> {
    const { items, resourceVersion } = await this.#listAll(signal)
    const seen = new Set<string>()
    for (const obj of items) {
      withoutManagedFields(obj)
      const key = objectKey(obj)
      seen.add(key)
      const old = this.#cache.get(key)
      this.#cache.set(key, obj)
      if (!old) this.#emit('add', obj)
      else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) this.#emit('update', obj, old)
    }
    for (const [key, old] of this.#cache) {
      if (seen.has(key)) continue
      this.#cache.delete(key)
      this.#emit('delete', old)
    }
    this.#resourceVersion = resourceVersion
    this.#connected()
    if (!this.#hasSynced) {
      this.#hasSynced = true
      this.#resolveSynced()
    }
  }

  async #listAll (signal: AbortSignal): Promise<{ items: T[], resourceVersion: string }> {
    const limit = this.#options.pageSize ?? 500
    const items: T[] = []
    let cont: string | undefined
    let paginate = true
    for (;;) {
      let page: KubeList<T>
      try {
        page = await this.#api.list<T>(this.#options.path, {
          query: {
            labelSelector: this.#options.labelSelector,
            fieldSelector: this.#options.fieldSelector,
            limit: paginate ? limit : undefined,
            continue: cont
          },
          accept: this.#options.metadataOnly ? PARTIAL_OBJECT_METADATA_LIST : undefined,
          signal
        })
      } catch (err) {
        // The continue token expired between pages: start over in one piece (what client-go's pager does).
        if (cont && isResourceExpired(err)) {
          items.length = 0
          cont = undefined
          paginate = false
          continue
        }
        throw err
      }
      items.push(...(page.items ?? []))
      cont = page.metadata?.continue || undefined
      if (!cont) return { items, resourceVersion: page.metadata?.resourceVersion ?? '' }
    }
  }

  /** One watch from the last resourceVersion until the server ends it; returns the number of events. */
  async #watch (signal: AbortSignal): Promise<number> {
    const base = this.#options.watchTimeoutSeconds ?? 300
    let events = 0
    await this.#api.watch<T>(this.#options.path, {
      resourceVersion: this.#resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: Math.floor(base * (1 + this.#random())),
      labelSelector: this.#options.labelSelector,
      fieldSelector: this.#options.fieldSelector,
      accept: this.#options.metadataOnly ? PARTIAL_OBJECT_METADATA : undefined,
      signal,
      onOpen: () => this.#connected()
    }, (event) => {
      events++
      this.#apply(event)
    })
    return events
  }

  /** The server answered a list or accepted a watch: the cache follows it again. */
  #connected (): void {
    this.#stale = undefined
    this.#unreachableBackoff.reset()
  }

  #apply (event: KubeWatchEvent<T>): void {
    const obj = event.object
    const rv = obj.metadata?.resourceVersion
    if (event.type !== 'BOOKMARK') {
      withoutManagedFields(obj)
      const key = objectKey(obj)
      const old = this.#cache.get(key)
      if (event.type === 'DELETED') {
        this.#cache.delete(key)
        this.#emit('delete', obj)
      } else {
        this.#cache.set(key, obj)
        if (old) this.#emit('update', obj, old)
        else this.#emit('add', obj)
      }
    }
    if (rv) this.#resourceVersion = rv
  }

  #emit<E extends keyof ReflectorEvents<T>> (event: E, ...args: Parameters<ReflectorEvents<T>[E]>): void {
    for (const listener of this.#listeners[event]) {
      try {
        (listener as (...a: unknown[]) => void)(...args)
      } catch (err) {
        this.#reportError(err, { phase: 'listener' })
      }
    }
  }

  #reportError (err: unknown, info: ReflectorErrorInfo): void {
    const error = err instanceof Error ? err : new Error(String(err))
    for (const listener of this.#errorListeners) {
      try {
        listener(error, info)
      } catch {}
    }
  }
}
