// The one exponential backoff: per key for calls and work items (KeyedBackoff), per stream for list/watch loops
// (RetryBackoff, with jitter and a reset after a quiet period), and the delay rule both use.

/** How long to wait after consecutive failures: initialMs, multiplied by factor after each further failure, up to maxMs. */
export interface BackoffOptions {
  /** initialMs is the first delay after a failure. */
  initialMs?: number
  /** maxMs caps the delay before jitter. */
  maxMs?: number
  /** factor multiplies the delay after each failure (default 2). */
  factor?: number
  /** jitter adds up to this fraction of the delay at random (default 0). */
  jitter?: number
}

/** The delay after the n-th consecutive failure (n >= 1): initialMs, times factor per further failure, capped, jittered. */
export function backoffDelay (failures: number, options: BackoffOptions & { initialMs: number, maxMs: number }, random: () => number = Math.random): number {
  const base = Math.min(options.maxMs, options.initialMs * (options.factor ?? 2) ** (failures - 1))
  return options.jitter ? Math.round(base * (1 + options.jitter * random())) : base
}

interface KeyState { failures: number, until: number, lastError: string }

/** Backoff per key: while a key backs off, callers fail fast with the error that caused it. */
export class KeyedBackoff {
  readonly #state = new Map<string, KeyState>()
  readonly #options: BackoffOptions & { initialMs: number, maxMs: number }
  readonly #now: () => number

  /** Defaults: 1 s doubling up to 60 s. */
  constructor (options: BackoffOptions = {}, now: () => number = Date.now) {
    this.#options = { ...options, initialMs: options.initialMs ?? 1000, maxMs: options.maxMs ?? 60_000 }
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
    const delay = backoffDelay(failures, this.#options)
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

/** Backoff of one retry loop; a failure resetAfterMs after the previous one starts again at initialMs. */
export class RetryBackoff {
  readonly #options: BackoffOptions & { initialMs: number, maxMs: number }
  readonly #resetAfter: number
  readonly #now: () => number
  readonly #random: () => number
  #failures = 0
  #lastFailureAt = -Infinity

  /** Defaults: 200 ms doubling up to 30 s, 20 % jitter, reset after a minute without failures. */
  constructor (options: BackoffOptions & { resetAfterMs?: number } = {}, now: () => number = Date.now, random: () => number = Math.random) {
    const { resetAfterMs, ...rest } = options
    this.#options = { jitter: 0.2, ...rest, initialMs: rest.initialMs ?? 200, maxMs: rest.maxMs ?? 30_000 }
    this.#resetAfter = resetAfterMs ?? 60_000
    this.#now = now
    this.#random = random
  }

  /** Forgets past failures: the next delay is initialMs again. */
  reset (): void {
    this.#failures = 0
    this.#lastFailureAt = -Infinity
  }

  /** Records a failure; returns how long to wait before the next attempt. */
  next (): number {
    const now = this.#now()
    if (now - this.#lastFailureAt > this.#resetAfter) this.#failures = 0
    this.#lastFailureAt = now
    return backoffDelay(++this.#failures, this.#options, this.#random)
  }
}

/** Resolves after ms, or early (without error) when the signal aborts. */
export function sleep (ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const onAbort = () => { clearTimeout(timer); resolve() }
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve() }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
