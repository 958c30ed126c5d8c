// Leader election on a coordination.k8s.io/v1 Lease with client-go's semantics: acquire when the lease
// is free, expired or already ours; renew every retryPeriod; step down when renewal has not succeeded
// for renewDeadline; optimistic concurrency through resourceVersion; optional release on stop so a
// standby takes over at once instead of after leaseDuration.
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { ObjectMeta } from '../api/kube-object.js'
import type { KubeApi } from './api.js'
import { isAlreadyExists, isConflict, isNotFound } from './errors.js'
import { sleep } from '../backoff/backoff.js'

interface LeaseSpec {
  holderIdentity?: string
  leaseDurationSeconds?: number
  /** MicroTime: RFC 3339 with exactly 6 fractional digits. */
  acquireTime?: string
  /** MicroTime: RFC 3339 with exactly 6 fractional digits. */
  renewTime?: string
  leaseTransitions?: number
  [field: string]: unknown
}

export interface Lease {
  apiVersion?: string
  kind?: string
  metadata: ObjectMeta
  spec?: LeaseSpec
}

/** The options of a {@link LeaderElector}. */
export interface LeaderElectorOptions {
  /** namespace of the Lease. */
  namespace: string
  /** name of the Lease. */
  name: string
  /** identity is who we are in holderIdentity (default `<hostname>_<random UUID>`). */
  identity?: string
  /**
   * leaseDurationMs is how long a lease stays valid without renewal; others wait this long before taking over
   * (default 15 000 ms; written to the Lease rounded up to whole seconds, at least 1 s).
   */
  leaseDurationMs?: number
  /** renewDeadlineMs: the leader steps down when renewal has not succeeded for this long (default 10 000 ms). */
  renewDeadlineMs?: number
  /**
   * retryPeriodMs is the time between attempts to renew, and the longest between two attempts to acquire (default
   * 2000 ms): candidates wait a random time between half of it and all of it, so a released lease is taken within
   * one retry period.
   */
  retryPeriodMs?: number
  /**
   * onStartedLeading is called when we become leader; signal aborts when leadership ends. A returned promise is
   * awaited before onStoppedLeading and before the lease is released, so work can finish first.
   */
  onStartedLeading?: (signal: AbortSignal) => void | Promise<void>
  /** onStoppedLeading is called after leadership ended (lost or stop()), only if we were leading. */
  onStoppedLeading?: () => void
  /** onNewLeader is called when the observed holder changes (ourselves included); not for a released (empty) lease. */
  onNewLeader?: (identity: string) => void
  /** onError receives failures for logs and metrics (API server errors, callback errors); conflicts with other candidates are not errors. */
  onError?: (err: Error) => void
  /** now is the clock (tests). */
  now?: () => number
  /** random draws the jitter of the retry waits (tests). */
  random?: () => number
}

/** A MicroTime as the apiserver accepts it: toISOString() has 3 fractional digits, MicroTime needs 6. */
export function formatMicroTime (time: Date | number): string {
  return new Date(time).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease with client-go's semantics: acquire when the lease is free,
 * expired or already ours; renew every retryPeriod; step down when renewal has not succeeded for renewDeadline;
 * optimistic concurrency through resourceVersion. Expiry is judged by our own clock from when we last saw the lease
 * change, so clock skew between candidates does not matter. It needs get, create and update on leases.
 */
export class LeaderElector {
  /** identity is who we are in the Lease's holderIdentity. */
  readonly identity: string
  readonly #api: KubeApi
  readonly #options: LeaderElectorOptions
  readonly #path: string
  readonly #collectionPath: string
  readonly #leaseDurationMs: number
  readonly #renewDeadlineMs: number
  readonly #retryPeriodMs: number
  readonly #now: () => number
  readonly #random: () => number
  readonly #stop = new AbortController()
  #running: Promise<boolean> | undefined
  #leading = false
  // The last lease we read or wrote, and when (our clock) its content last changed: expiry is judged
  // from our own observation, as client-go does, so clock skew between candidates does not matter.
  #observed: Lease | undefined
  #observedAt = 0
  #reportedLeader = ''

  constructor (api: KubeApi, options: LeaderElectorOptions) {
    this.#api = api
    this.#options = options
    this.identity = options.identity ?? `${hostname()}_${randomUUID()}`
    this.#leaseDurationMs = options.leaseDurationMs ?? 15_000
    this.#renewDeadlineMs = options.renewDeadlineMs ?? 10_000
    this.#retryPeriodMs = options.retryPeriodMs ?? 2000
    this.#now = options.now ?? Date.now
    this.#random = options.random ?? Math.random
    if (this.#leaseDurationMs <= this.#renewDeadlineMs) throw new Error('leader election: leaseDuration must be greater than renewDeadline')
    if (this.#renewDeadlineMs <= this.#retryPeriodMs) throw new Error('leader election: renewDeadline must be greater than retryPeriod')
    if (this.#leaseDurationMs < 1000) throw new Error('leader election: leaseDuration must be at least 1 s (the Lease holds whole seconds)')
    this.#collectionPath = `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(options.namespace)}/leases`
    this.#path = `${this.#collectionPath}/${encodeURIComponent(options.name)}`
  }

  /** Starts campaigning in the background; idempotent. */
  start (): this {
    if (!this.#running && !this.#stop.signal.aborted) this.#running = this.#run()
    return this
  }

  /** Whether we hold the lease now. */
  isLeader (): boolean {
    return this.#leading
  }

  /** The holder last seen on the lease ('' when free or not read yet). */
  leader (): string {
    return this.#observed?.spec?.holderIdentity ?? ''
  }

  /**
   * Stops campaigning and renewing; when leading, ends leadership (signal, onStoppedLeading). With
   * release: true the lease is then freed (holderIdentity cleared, leaseDurationSeconds 1) so another
   * candidate takes over at its next attempt; without, others wait until the lease expires.
   */
  async stop (options: { release?: boolean } = {}): Promise<void> {
    const wasRunning = this.#running !== undefined && !this.#stop.signal.aborted
    this.#stop.abort()
    const ledToTheEnd = await this.#running
    if (wasRunning && ledToTheEnd && options.release) await this.#release()
  }

  /** Campaign until stopped; resolves true when stopped while leading. */
  async #run (): Promise<boolean> {
    const signal = this.#stop.signal
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew(this.#now() + this.#renewDeadlineMs)) {
        // Stopped just as we got it: hold it without starting work (stop() may release it).
        if (signal.aborted || await this.#lead()) return true
        continue
      }
      // client-go waits up to 2.2 periods; waiting at most one, a standby takes a released lease within a period.
      await sleep(this.#retryPeriodMs * (0.5 + 0.5 * this.#random()), signal)
    }
    return false
  }

  /** Leads until renewal fails for renewDeadline or the lease is taken, or stop(); resolves true on stop(). */
  async #lead (): Promise<boolean> {
    const signal = this.#stop.signal
    const leadership = new AbortController()
    this.#leading = true
    const work = this.#startWork(leadership.signal)
    let lastRenew = this.#now()
    while (!signal.aborted) {
      await sleep(this.#retryPeriodMs, signal)
      if (signal.aborted) break
      const deadline = lastRenew + this.#renewDeadlineMs
      if (await this.#tryAcquireOrRenew(deadline)) {
        lastRenew = this.#now()
        continue
      }
      // Someone else holds a valid lease: no point in trying until the deadline.
      if (this.#now() >= deadline || this.leader() !== this.identity) break
    }
    this.#leading = false
    leadership.abort()
    await work
    try {
      this.#options.onStoppedLeading?.()
    } catch (err) {
      this.#report(err)
    }
    return signal.aborted
  }

  async #startWork (signal: AbortSignal): Promise<void> {
    try {
      await this.#options.onStartedLeading?.(signal)
    } catch (err) {
      this.#report(err)
    }
  }

  /** One attempt to create, take over or renew the lease before deadline (our clock); false when we do not hold it. */
  async #tryAcquireOrRenew (deadline: number): Promise<boolean> {
    const signal = this.#stop.signal
    const timeoutMs = () => Math.max(1, deadline - this.#now())
    try {
      let lease: Lease
      try {
        lease = await this.#api.get<Lease>(this.#path, { signal, timeoutMs: timeoutMs() })
      } catch (err) {
        if (!isNotFound(err)) throw err
        const now = this.#now()
        const created = await this.#api.create<Lease>(this.#collectionPath, {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.#options.name, namespace: this.#options.namespace },
          spec: { ...this.#spec(now, {}), leaseTransitions: 0 }
        }, { signal, timeoutMs: timeoutMs() })
        this.#observe(created)
        return true
      }
      this.#observe(lease)
      const spec = lease.spec ?? {}
      const holder = spec.holderIdentity ?? ''
      if (holder && holder !== this.identity && !this.#expired(spec)) return false
      const updated = await this.#api.replace<Lease>(this.#path, { ...lease, spec: this.#spec(this.#now(), spec) }, { signal, timeoutMs: timeoutMs() })
      this.#observe(updated)
      return true
    } catch (err) {
      // Another candidate won the race for this version of the lease: try again next period.
      if (!signal.aborted && !isConflict(err) && !isAlreadyExists(err)) this.#report(err)
      return false
    }
  }

  /** The spec that makes us the holder, renewing or taking over from `old`. */
  #spec (now: number, old: LeaseSpec): LeaseSpec {
    const renewing = old.holderIdentity === this.identity
    return {
      ...old,
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.ceil(this.#leaseDurationMs / 1000),
      acquireTime: renewing && old.acquireTime ? old.acquireTime : formatMicroTime(now),
      renewTime: formatMicroTime(now),
      leaseTransitions: renewing ? old.leaseTransitions ?? 0 : (old.leaseTransitions ?? 0) + 1
    }
  }

  /**
   * Free, or not renewed for its duration: either since we first saw this version (our clock), or by
   * its own renewTime (so a standby started after the holder died need not wait a further duration).
   */
  #expired (spec: LeaseSpec): boolean {
    if (!spec.holderIdentity) return true
    const durationMs = (spec.leaseDurationSeconds ?? Math.ceil(this.#leaseDurationMs / 1000)) * 1000
    const now = this.#now()
    if (now >= this.#observedAt + durationMs) return true
    const renewed = spec.renewTime ? Date.parse(spec.renewTime) : NaN
    return Number.isFinite(renewed) && renewed + durationMs < now
  }

  #observe (lease: Lease): void {
    if (lease.metadata.resourceVersion !== this.#observed?.metadata.resourceVersion) this.#observedAt = this.#now()
    this.#observed = lease
    const holder = lease.spec?.holderIdentity ?? ''
    if (holder && holder !== this.#reportedLeader) {
      this.#reportedLeader = holder
      try {
        this.#options.onNewLeader?.(holder)
      } catch (err) {
        this.#report(err)
      }
    }
  }

  /**
   * Frees the lease if it is still ours. It is read afresh: a renewal cut short by stop() may have
   * landed without our seeing the answer, so the last lease we observed can be one version behind.
   * The resourceVersion still guards against a takeover between the read and the write.
   */
  async #release (): Promise<void> {
    const options = { timeoutMs: this.#renewDeadlineMs }
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const lease = await this.#api.get<Lease>(this.#path, options)
        this.#observe(lease)
        if (lease.spec?.holderIdentity !== this.identity) return
        const now = formatMicroTime(this.#now())
        const { holderIdentity: _, ...spec } = lease.spec
        this.#observe(await this.#api.replace<Lease>(this.#path, {
          ...lease,
          spec: { ...spec, leaseDurationSeconds: 1, acquireTime: now, renewTime: now }
        }, options))
        return
      } catch (err) {
        if (isNotFound(err)) return
        if (!isConflict(err)) return this.#report(err)
      }
    }
  }

  #report (err: unknown): void {
    try {
      this.#options.onError?.(err instanceof Error ? err : new Error(String(err)))
    } catch {}
  }
}
