// Retry delays for list/watch loops: exponential with jitter, starting over after a quiet period so a
// failure hours after the last one is retried quickly again.

export interface BackoffOptions {
  /** initialMs is the first delay (default 200). */
  initialMs?: number
  /** factor multiplies the delay after each failure (default 2). */
  factor?: number
  /** maxMs caps the delay before jitter (default 30 000). */
  maxMs?: number
  /** jitter adds up to this fraction of the delay at random (default 0.2). */
  jitter?: number
  /** resetAfterMs: a failure this long after the previous one starts again at initialMs (default 60 000). */
  resetAfterMs?: number
}

export class RetryBackoff {
  readonly #initial: number
  readonly #factor: number
  readonly #max: number
  readonly #jitter: number
  readonly #resetAfter: number
  readonly #now: () => number
  readonly #random: () => number
  #failures = 0
  #lastFailureAt = -Infinity

  constructor (options: BackoffOptions = {}, now: () => number = Date.now, random: () => number = Math.random) {
    this.#initial = options.initialMs ?? 200
    this.#factor = options.factor ?? 2
    this.#max = options.maxMs ?? 30_000
    this.#jitter = options.jitter ?? 0.2
    this.#resetAfter = options.resetAfterMs ?? 60_000
    this.#now = now
    this.#random = random
  }

  /** Records a failure; returns how long to wait before the next attempt. */
  next (): number {
    const now = this.#now()
    if (now - this.#lastFailureAt > this.#resetAfter) this.#failures = 0
    this.#lastFailureAt = now
    const base = Math.min(this.#max, this.#initial * this.#factor ** this.#failures)
    this.#failures++
    return Math.round(base * (1 + this.#jitter * this.#random()))
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
