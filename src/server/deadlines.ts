// Handler deadlines of one server on a single timer. Nearly every handler answers long before its deadline, so a
// timer per call (created, inserted, cleared) is work for nothing; one timer, armed for the earliest deadline
// of the calls still running, expires the late ones on time.

interface PendingCall {
  /** at is the deadline in performance.now() milliseconds. */
  at: number
  expire: () => void
}

export class Deadlines {
  readonly #pending = new Set<PendingCall>()
  #timer: NodeJS.Timeout | undefined
  #timerAt = Infinity

  /** The number of calls still running against a deadline. */
  get size (): number {
    return this.#pending.size
  }

  /**
   * Runs `expire` once `at` (performance.now() milliseconds) has passed, unless `settle` is called with the
   * returned token first.
   */
  track (at: number, expire: () => void): PendingCall {
    const call = { at, expire }
    this.#pending.add(call)
    if (at < this.#timerAt) this.#arm(at)
    else if (this.#pending.size === 1) this.#timer?.ref()
    return call
  }

  /** The call answered in time (or was expired already). */
  settle (call: PendingCall): void {
    // An idle server keeps its armed timer but must not be kept alive by it.
    if (this.#pending.delete(call) && this.#pending.size === 0) this.#timer?.unref()
  }

  #arm (at: number): void {
    clearTimeout(this.#timer)
    this.#timerAt = at
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, Math.ceil(at - performance.now())))
  }

  #fire (): void {
    this.#timer = undefined
    this.#timerAt = Infinity
    // A timer may fire a fraction of a millisecond before performance.now() reaches its target.
    const now = performance.now() + 1
    let next = Infinity
    for (const call of this.#pending) {
      if (call.at <= now) {
        this.#pending.delete(call)
        call.expire()
      } else if (call.at < next) {
        next = call.at
      }
    }
    if (next !== Infinity) this.#arm(next)
  }
}
