// Handler deadlines of one server on a single timer. Nearly every handler answers long before its deadline, so a
// timer per call (created, inserted, cleared) is work for nothing; one timer, armed for the earliest deadline
// of the calls still running, expires the late ones on time.
//
// The running calls form a list linked through the calls themselves. A Set would empty with nearly every answer,
// and V8 gives a Set a new table each time it empties, in the old generation once the Set lives there: ~60 bytes
// of old-generation garbage per call, a third of what outlived a scavenge under load (sampled).

interface Link {
  prev: Link
  next: Link
}

interface PendingCall extends Link {
  /** at is the deadline in performance.now() milliseconds. */
  at: number
  expire: () => void
}

export class Deadlines {
  /** The list's anchor: its next is the oldest running call, its prev the newest; itself when none runs. */
  readonly #anchor: Link
  #size = 0
  #timer: NodeJS.Timeout | undefined
  #timerAt = Infinity

  constructor () {
    const anchor = {} as Link
    anchor.prev = anchor
    anchor.next = anchor
    this.#anchor = anchor
  }

  /** The number of calls still running against a deadline. */
  get size (): number {
    return this.#size
  }

  /**
   * Runs `expire` once `at` (performance.now() milliseconds) has passed, unless `settle` is called with the
   * returned token first.
   */
  track (at: number, expire: () => void): PendingCall {
    const anchor = this.#anchor
    const call: PendingCall = { prev: anchor.prev, next: anchor, at, expire }
    anchor.prev.next = call
    anchor.prev = call
    this.#size++
    if (at < this.#timerAt) this.#arm(at)
    else if (this.#size === 1) this.#timer?.ref()
    return call
  }

  /** The call answered in time (or was expired already). */
  settle (call: PendingCall): void {
    // An idle server keeps its armed timer but must not be kept alive by it.
    if (this.#unlink(call) && this.#size === 0) this.#timer?.unref()
  }

  /** Takes a call off the list; false if it was off already (an unlinked call links to itself). */
  #unlink (call: PendingCall): boolean {
    if (call.next === call) return false
    call.prev.next = call.next
    call.next.prev = call.prev
    call.prev = call
    call.next = call
    this.#size--
    return true
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
    const expired: PendingCall[] = []
    let next = Infinity
    for (let link = this.#anchor.next; link !== this.#anchor;) {
      const call = link as PendingCall
      link = call.next
      if (call.at <= now) {
        this.#unlink(call)
        expired.push(call)
      } else if (call.at < next) {
        next = call.at
      }
    }
    // Armed before the expiries run, so that a call tracked by one of them keeps its earlier deadline.
    if (next !== Infinity) this.#arm(next)
    for (const call of expired) call.expire()
  }
}
