// A small cache of answers that expire, bounded in size: the authentication and authorization decisions of the
// controller's secure endpoint, so that a scrape every few seconds does not cost two API calls each time.
interface ExpiringCacheOptions {
  /** maxEntries bounds memory: beyond it the oldest entries go first (a flood of random tokens only churns). */
  maxEntries: number
  /** now is the clock (tests move it). */
  now?: () => number
}

export class ExpiringCache<V> {
  readonly #entries = new Map<string, { value: V, expiresAt: number }>()
  // Concurrent lookups of one key share one load (a burst of scrapes makes one API call).
  readonly #loading = new Map<string, Promise<V>>()
  readonly #maxEntries: number
  readonly #now: () => number

  constructor (options: ExpiringCacheOptions) {
    this.#maxEntries = options.maxEntries
    this.#now = options.now ?? Date.now
  }

  get size (): number {
    return this.#entries.size
  }

  /** The cached value of key, or load's, kept for ttlMs(value) (0 keeps nothing). A failed load is not kept. */
  async get (key: string, load: () => Promise<V>, ttlMs: (value: V) => number): Promise<V> {
    const entry = this.#entries.get(key)
    if (entry && entry.expiresAt > this.#now()) return entry.value
    if (entry) this.#entries.delete(key)
    const pending = this.#loading.get(key)
    if (pending) return pending
    const loading = load().then(value => {
      this.#set(key, value, ttlMs(value))
      return value
    }).finally(() => this.#loading.delete(key))
    this.#loading.set(key, loading)
    return loading
  }

  #set (key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return
    this.#entries.delete(key) // re-inserted last: the Map's order is the eviction order
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs })
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break
      this.#entries.delete(oldest)
    }
  }
}
