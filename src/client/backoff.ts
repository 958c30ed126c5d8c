// Exponential backoff per handler after calling errors: while it lasts, calls fail fast.

export interface BackoffOptions {
  /** initialMs is the first delay after an error (default 1000). */
  initialMs?: number
  /** maxMs caps the delay (default 60000). */
  maxMs?: number
}

interface State { failures: number, until: number, lastError: string }

export class Backoff {
  readonly #state = new Map<string, State>()
  readonly #initial: number
  readonly #max: number
  readonly #now: () => number

  constructor (options: BackoffOptions = {}, now: () => number = Date.now) {
    this.#initial = options.initialMs ?? 1000
    this.#max = options.maxMs ?? 60_000
    this.#now = now
  }

  /** When `key` is backing off: the milliseconds left and the error that caused it. */
  check (key: string): { remainingMs: number, lastError: string } | undefined {
    const s = this.#state.get(key)
    if (!s) return undefined
    const remainingMs = s.until - this.#now()
    return remainingMs > 0 ? { remainingMs, lastError: s.lastError } : undefined
  }

  /** Records an error; returns the delay before the next attempt. */
  failure (key: string, error: string): number {
    const failures = (this.#state.get(key)?.failures ?? 0) + 1
    const delay = Math.min(this.#max, this.#initial * 2 ** (failures - 1))
    this.#state.set(key, { failures, until: this.#now() + delay, lastError: error })
    return delay
  }

  success (key: string): void {
    this.#state.delete(key)
  }

  /** The number of keys backing off now. */
  active (): number {
    const now = this.#now()
    let n = 0
    for (const s of this.#state.values()) if (s.until > now) n++
    return n
  }
}
