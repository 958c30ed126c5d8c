// A keyed work queue in the manner of client-go's workqueue: a key waits at most once, is processed by one
// worker at a time (an add while it runs re-queues it afterwards), fails into per-key exponential backoff, and
// starts no sooner than a minimum interval after its previous start. Waits are measured on the monotonic clock: a
// step of the wall clock (NTP, a VM resumed) neither shortens nor stretches them.
import { backoffDelay } from '../backoff/backoff.js'

interface WorkQueueOptions {
  /** concurrency is the number of keys processed at once (default 10, like Cluster API's --extensionconfig-concurrency). */
  concurrency?: number
  /** baseDelayMs is the first retry delay after an error (default 5 ms); it doubles per consecutive failure. */
  baseDelayMs?: number
  /** maxDelayMs caps the retry delay (default 5 minutes; client-go's 1000 s is too long for discovery). */
  maxDelayMs?: number
  /** minIntervalMs is the least time between two starts of the same key (default 1 s). */
  minIntervalMs?: number
  /** onMetrics observes queue activity (metrics). */
  observer?: QueueObserver
}

interface QueueObserver {
  added?: () => void
  retried?: () => void
  depth?: (depth: number) => void
  processed?: (durationMs: number) => void
}

/** What a processed key asks for: nothing, or to be looked at again after a delay. */
export type ProcessResult = void | { requeueAfterMs: number }

type Processor = (key: string) => Promise<ProcessResult>

interface KeyState {
  failures: number
  lastStart: number
  timer?: NodeJS.Timeout
  /** dueAt of the pending timer, so an earlier request can replace a later one. */
  dueAt?: number
}

export class WorkQueue {
  readonly #queue: string[] = []
  readonly #queued = new Set<string>()
  readonly #running = new Set<string>()
  /** Keys added while running: queued again when their run ends. */
  readonly #dirty = new Set<string>()
  readonly #state = new Map<string, KeyState>()
  readonly #idle: Array<() => void> = []
  readonly #concurrency: number
  readonly #baseDelayMs: number
  readonly #maxDelayMs: number
  readonly #minIntervalMs: number
  readonly #observer: QueueObserver
  #processor: Processor | undefined
  #stopped = false

  constructor (options: WorkQueueOptions = {}) {
    this.#concurrency = Math.max(1, options.concurrency ?? 10)
    this.#baseDelayMs = options.baseDelayMs ?? 5
    this.#maxDelayMs = options.maxDelayMs ?? 300_000
    this.#minIntervalMs = options.minIntervalMs ?? 1000
    this.#observer = options.observer ?? {}
  }

  /** Starts processing keys with `processor`; keys added before are processed now. */
  start (processor: Processor): void {
    this.#processor = processor
    this.#pump()
  }

  /** Queues a key now (subject to its minimum interval). */
  add (key: string): void {
    if (this.#stopped) return
    this.#observer.added?.()
    const wait = this.#intervalWait(key)
    if (wait > 0) return this.addAfter(key, wait)
    if (this.#running.has(key)) {
      this.#dirty.add(key)
      return
    }
    if (this.#queued.has(key)) return
    this.#clearTimer(key)
    this.#queued.add(key)
    this.#queue.push(key)
    this.#observer.depth?.(this.#queue.length)
    this.#pump()
  }

  /** Queues a key after a delay; an earlier pending request for the key wins. */
  addAfter (key: string, delayMs: number): void {
    if (this.#stopped) return
    if (delayMs <= 0) return this.add(key)
    const state = this.#stateOf(key)
    const dueAt = performance.now() + delayMs
    if (state.timer && state.dueAt !== undefined && state.dueAt <= dueAt) return
    this.#clearTimer(key)
    state.dueAt = dueAt
    state.timer = setTimeout(() => {
      state.timer = undefined
      state.dueAt = undefined
      this.add(key)
    }, delayMs)
    state.timer.unref()
  }

  /** The number of consecutive failures of a key. */
  failures (key: string): number {
    return this.#state.get(key)?.failures ?? 0
  }

  /** Forgets a key entirely (its object is gone): no pending timer, no backoff history. */
  forget (key: string): void {
    this.#clearTimer(key)
    this.#state.delete(key)
  }

  get length (): number {
    return this.#queue.length
  }

  /** Resolves when nothing is queued or running (timers may still be pending). */
  idle (): Promise<void> {
    if (this.#queue.length === 0 && this.#running.size === 0) return Promise.resolve()
    return new Promise(resolve => this.#idle.push(resolve))
  }

  /** Stops taking keys and waits for running ones to finish. */
  async stop (): Promise<void> {
    this.#stopped = true
    for (const key of this.#state.keys()) this.#clearTimer(key)
    this.#queue.length = 0
    this.#queued.clear()
    this.#dirty.clear()
    await this.idle()
  }

  #stateOf (key: string): KeyState {
    let state = this.#state.get(key)
    if (!state) {
      state = { failures: 0, lastStart: -Infinity }
      this.#state.set(key, state)
    }
    return state
  }

  #clearTimer (key: string): void {
    const state = this.#state.get(key)
    if (state?.timer) clearTimeout(state.timer)
    if (state) {
      state.timer = undefined
      state.dueAt = undefined
    }
  }

  #intervalWait (key: string): number {
    const last = this.#state.get(key)?.lastStart ?? -Infinity
    return Math.ceil(last + this.#minIntervalMs - performance.now())
  }

  #pump (): void {
    const processor = this.#processor
    if (!processor) return
    while (!this.#stopped && this.#running.size < this.#concurrency && this.#queue.length > 0) {
      const key = this.#queue.shift() as string
      this.#queued.delete(key)
      this.#observer.depth?.(this.#queue.length)
      this.#running.add(key)
      this.#stateOf(key).lastStart = performance.now()
      this.#run(processor, key).catch(() => {}) // #run settles every outcome itself
    }
    if (this.#queue.length === 0 && this.#running.size === 0) for (const resolve of this.#idle.splice(0)) resolve()
  }

  async #run (processor: Processor, key: string): Promise<void> {
    const started = performance.now()
    let retryAfter: number | undefined
    try {
      const result = await processor(key)
      const state = this.#state.get(key)
      if (state) state.failures = 0
      if (result && result.requeueAfterMs >= 0) retryAfter = result.requeueAfterMs
    } catch {
      // The processor reports its own errors; the queue only schedules the retry.
      const state = this.#stateOf(key)
      retryAfter = backoffDelay(++state.failures, { initialMs: this.#baseDelayMs, maxMs: this.#maxDelayMs })
      this.#observer.retried?.()
    }
    this.#observer.processed?.(performance.now() - started)
    this.#running.delete(key)
    if (this.#dirty.delete(key)) this.add(key)
    else if (retryAfter !== undefined) this.addAfter(key, retryAfter)
    this.#pump()
  }
}
