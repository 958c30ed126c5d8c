import { hostname } from 'node:os'
import t, { type Test } from 'tap'
import { KubeConfig } from '@kubernetes/client-node'
import { KubeApi } from '../../src/kube/api.js'
import { formatMicroTime, LeaderElector, type Lease, type LeaderElectorOptions } from '../../src/kube/leader-election.js'
import { kubeConfigOptions, startFakeApiServer, type FakeApiServer, type Obj } from '../helpers/fake-apiserver.js'

const LEASES = '/apis/coordination.k8s.io/v1/namespaces/ns/leases'
const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/
// Short but proportioned like the defaults (15/10/2 s); the Lease holds whole seconds, hence 1 s.
const FAST = { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 100 }

interface Candidate {
  elector: LeaderElector
  log: string[]
  errors: Error[]
  signals: AbortSignal[]
}

async function fakeServer (t: Test): Promise<FakeApiServer> {
  const server = await startFakeApiServer([LEASES])
  t.teardown(() => server.close())
  return server
}

function candidate (t: Test, server: FakeApiServer, identity: string, options: Partial<LeaderElectorOptions> = {}): Candidate {
  const kc = new KubeConfig()
  kc.loadFromOptions(kubeConfigOptions(server.url, { token: identity }))
  const api = new KubeApi(kc)
  const log: string[] = []
  const errors: Error[] = []
  const signals: AbortSignal[] = []
  const elector = new LeaderElector(api, {
    namespace: 'ns',
    name: 'lock',
    identity,
    ...FAST,
    onStartedLeading: (signal) => { signals.push(signal); log.push('started') },
    onStoppedLeading: () => log.push('stopped'),
    onNewLeader: (id) => log.push(`leader ${id}`),
    onError: (err) => errors.push(err),
    ...options
  })
  t.teardown(async () => {
    await elector.stop()
    await api.close()
  })
  return { elector, log, errors, signals }
}

const lease = (server: FakeApiServer) => server.objects(LEASES)[0] as Lease | undefined
const from = (server: FakeApiServer, identity: string) => server.requests.filter((r) => r.headers.authorization === `Bearer ${identity}`)

async function until (what: string, check: () => boolean, timeoutMs = 10_000): Promise<number> {
  const began = Date.now()
  while (!check()) {
    if (Date.now() - began > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return Date.now() - began
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

t.test('formatMicroTime: RFC 3339 with 6 fractional digits', async (t) => {
  t.equal(formatMicroTime(new Date('2024-01-02T03:04:05.678Z')), '2024-01-02T03:04:05.678000Z')
  t.equal(formatMicroTime(Date.UTC(2024, 0, 2)), '2024-01-02T00:00:00.000000Z')
  t.match(formatMicroTime(Date.now()), MICRO_TIME)
})

t.test('the fake apiserver rejects 3-digit MicroTimes as the real one does', async (t) => {
  const server = await fakeServer(t)
  const kc = new KubeConfig()
  kc.loadFromOptions(kubeConfigOptions(server.url))
  const api = new KubeApi(kc)
  t.teardown(() => api.close())
  await t.rejects(api.create(LEASES, { metadata: { name: 'x', namespace: 'ns' }, spec: { renewTime: new Date().toISOString() } }),
    { code: 422, reason: 'Invalid', message: /cannot parse/ })
})

t.test('acquire an absent lease, then renew it', async (t) => {
  const server = await fakeServer(t)
  const a = candidate(t, server, 'a')
  t.notOk(a.elector.isLeader())
  t.equal(a.elector.leader(), '')
  a.elector.start()
  t.equal(a.elector.start(), a.elector, 'start() is idempotent')
  await until('leading', () => a.elector.isLeader())
  t.same(a.log, ['leader a', 'started'])
  t.equal(a.elector.leader(), 'a')
  const first = lease(server)
  t.match(first?.spec, { holderIdentity: 'a', leaseDurationSeconds: 1, leaseTransitions: 0 })
  t.match(first?.spec?.renewTime, MICRO_TIME)
  t.match(first?.spec?.acquireTime, MICRO_TIME)

  await until('renewed twice', () => Number(lease(server)?.metadata.resourceVersion) >= Number(first?.metadata.resourceVersion) + 2)
  const renewed = lease(server)
  t.equal(renewed?.spec?.acquireTime, first?.spec?.acquireTime, 'acquireTime kept on renewal')
  t.ok(Date.parse(renewed?.spec?.renewTime as string) > Date.parse(first?.spec?.renewTime as string), 'renewTime moves')
  t.equal(renewed?.spec?.leaseTransitions, 0)
  t.same(a.errors, [])
  t.notOk(a.signals[0]?.aborted)
})

t.test('a standby waits while the leader renews, and learns who leads', async (t) => {
  const server = await fakeServer(t)
  const a = candidate(t, server, 'a')
  a.elector.start()
  await until('a leads', () => a.elector.isLeader())
  const b = candidate(t, server, 'b')
  b.elector.start()
  await sleep(FAST.leaseDurationMs * 1.5)
  t.notOk(b.elector.isLeader())
  t.ok(a.elector.isLeader())
  t.same(b.log, ['leader a'])
  t.equal(b.elector.leader(), 'a')
  t.ok(from(server, 'b').every((r) => r.method === 'GET'), 'the standby only reads a valid lease')
  t.same(b.errors, [])
})

t.test('release on stop: the standby takes over within about two retry periods', async (t) => {
  const server = await fakeServer(t)
  const order: string[] = []
  const a = candidate(t, server, 'a', {
    // Work that takes a moment to wind down: the lease must not be released before it has.
    onStartedLeading: async (signal) => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve))
      await sleep(50)
      order.push('work done')
    },
    onStoppedLeading: () => order.push('stopped')
  })
  a.elector.start()
  await until('a leads', () => a.elector.isLeader())
  const b = candidate(t, server, 'b')
  b.elector.start()
  await until('b sees a', () => b.log.includes('leader a'))
  server.intercept = (r) => {
    if (r.method === 'PUT' && r.headers.authorization === 'Bearer a' && !r.body.spec.holderIdentity) order.push('released')
    return undefined
  }
  await a.elector.stop({ release: true })
  t.same(order, ['work done', 'stopped', 'released'])
  t.notOk(a.elector.isLeader())
  const released = lease(server)
  t.equal(released?.spec?.holderIdentity, undefined, 'holderIdentity cleared')
  t.equal(released?.spec?.leaseDurationSeconds, 1)
  t.ok(released?.metadata.resourceVersion, 'the lease is kept')

  const took = await until('b leads', () => b.elector.isLeader())
  t.ok(took <= 2 * (1 + 1.2) * FAST.retryPeriodMs + 200, `b took over after ${took} ms`)
  t.match(lease(server)?.spec, { holderIdentity: 'b', leaseTransitions: 1 })
  t.same(b.log, ['leader a', 'leader b', 'started'])
  await a.elector.stop({ release: true })
  t.equal(from(server, 'a').filter((r) => r.method === 'PUT' && !r.body.spec.holderIdentity).length, 1, 'stopping twice releases once')
})

t.test('stop without release (a crash): the standby takes over after leaseDuration', async (t) => {
  const server = await fakeServer(t)
  const a = candidate(t, server, 'a')
  a.elector.start()
  await until('a leads', () => a.elector.isLeader())
  const b = candidate(t, server, 'b')
  b.elector.start()
  await until('b sees a', () => b.log.includes('leader a'))
  await a.elector.stop()
  t.equal(lease(server)?.spec?.holderIdentity, 'a', 'the lease still names the old leader')
  t.same(a.log, ['leader a', 'started', 'stopped'])
  t.ok(a.signals[0]?.aborted, 'the leadership signal aborted')
  const took = await until('b leads', () => b.elector.isLeader())
  t.ok(took >= FAST.leaseDurationMs - 2 * FAST.retryPeriodMs, `not before the lease expired (${took} ms)`)
  t.match(lease(server)?.spec, { holderIdentity: 'b', leaseTransitions: 1 })
})

t.test('lose leadership when renewal fails for renewDeadline', async (t) => {
  const server = await fakeServer(t)
  const a = candidate(t, server, 'a')
  a.elector.start()
  await until('a leads', () => a.elector.isLeader())
  const failingSince = Date.now()
  server.intercept = (r) => r.headers.authorization === 'Bearer a' ? 500 : undefined
  await until('a steps down', () => !a.elector.isLeader())
  const after = Date.now() - failingSince
  t.ok(after >= FAST.renewDeadlineMs - FAST.retryPeriodMs - 50, `not before the deadline (${after} ms)`)
  t.ok(after <= FAST.renewDeadlineMs + 2 * FAST.retryPeriodMs + 500, `soon after it (${after} ms)`)
  await until('stopped callback', () => a.log.includes('stopped'))
  t.ok(a.signals[0]?.aborted)
  // The last attempt may instead run out of time: each renewal is bounded by the deadline.
  t.ok(a.errors.filter((e) => (e as any).code === 500).length >= 2, 'renewal failures are reported')
  t.ok(a.errors.every((e) => (e as any).code === 500 || e.name === 'TimeoutError'), a.errors.map(String).join('; '))

  // The apiserver is back and nobody took over: it campaigns again and leads once more.
  server.intercept = undefined
  await until('a leads again', () => a.elector.isLeader())
  t.equal(a.signals.length, 2)
  t.notOk(a.signals[1]?.aborted, 'a fresh signal for the new term')
  t.equal(lease(server)?.spec?.leaseTransitions, 0, 'still the same holder: no transition')
})

t.test('the leader steps down at once when another holder took the lease', async (t) => {
  const server = await fakeServer(t)
  const a = candidate(t, server, 'a')
  a.elector.start()
  await until('a leads', () => a.elector.isLeader())
  const current = lease(server) as Obj
  const now = formatMicroTime(Date.now())
  server.put(LEASES, { ...current, spec: { ...(current.spec as object), holderIdentity: 'usurper', renewTime: now, acquireTime: now } })
  const took = await until('a steps down', () => !a.elector.isLeader())
  t.ok(took < FAST.renewDeadlineMs, `without waiting for the renew deadline (${took} ms)`)
  t.ok(a.log.includes('leader usurper'))
  t.same(a.errors, [])
})

t.test('takeover of an expired lease: by its renewTime, and by observation with an injected clock', async (t) => {
  const server = await fakeServer(t)
  const old = formatMicroTime(Date.now() - 3_600_000)
  server.put(LEASES, {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'lock', namespace: 'ns' },
    spec: { holderIdentity: 'dead', leaseDurationSeconds: 15, acquireTime: old, renewTime: old, leaseTransitions: 3 }
  })
  const a = candidate(t, server, 'a', { leaseDurationMs: 15_000, renewDeadlineMs: 600 })
  a.elector.start()
  const took = await until('a leads', () => a.elector.isLeader())
  t.ok(took < 1000, `renewed an hour ago: taken at once (${took} ms)`)
  t.match(lease(server)?.spec, { holderIdentity: 'a', leaseTransitions: 4, leaseDurationSeconds: 15 })
  t.not(lease(server)?.spec?.acquireTime, old)
  await a.elector.stop()

  // A holder whose renewTime looks fresh (e.g. its clock is ahead) but which stopped renewing: the
  // candidate's own clock decides once the lease has not changed for leaseDuration.
  const server2 = await fakeServer(t)
  const future = formatMicroTime(Date.now() + 3_600_000)
  server2.put(LEASES, {
    metadata: { name: 'lock', namespace: 'ns' },
    spec: { holderIdentity: 'skewed', leaseDurationSeconds: 1, acquireTime: future, renewTime: future, leaseTransitions: 0 }
  })
  let offset = 0
  const b = candidate(t, server2, 'b', { now: () => Date.now() + offset })
  b.elector.start()
  await until('b sees the holder', () => b.log.includes('leader skewed'))
  await sleep(3 * FAST.retryPeriodMs)
  t.notOk(b.elector.isLeader(), 'within leaseDuration of first seeing it')
  offset = 1500
  await until('b leads', () => b.elector.isLeader())
  t.match(lease(server2)?.spec, { holderIdentity: 'b', leaseTransitions: 1 })
})

t.test('conflicts are retried quietly; a deleted lease is recreated', async (t) => {
  const server = await fakeServer(t)
  server.put(LEASES, { metadata: { name: 'lock', namespace: 'ns' }, spec: {} })
  let raced = false
  server.intercept = (r) => {
    // Someone else writes between our GET and PUT: our PUT carries a stale resourceVersion.
    if (r.method === 'PUT' && !raced) {
      raced = true
      server.put(LEASES, lease(server) as Obj)
    }
    return undefined
  }
  const a = candidate(t, server, 'a')
  a.elector.start()
  await until('a leads', () => a.elector.isLeader())
  t.ok(raced)
  t.same(a.errors, [], 'a 409 Conflict is not an error')
  t.equal(lease(server)?.spec?.leaseTransitions, 1, 'an empty holder is taken over')

  server.remove(LEASES, 'ns/lock')
  await until('recreated', () => lease(server)?.spec?.holderIdentity === 'a')
  t.ok(a.elector.isLeader())
  t.same(a.errors, [])
})

t.test('release after a renewal whose answer stop() cut short: the lease is freed all the same', async (t) => {
  const server = await fakeServer(t)
  const a = candidate(t, server, 'a')
  a.elector.start()
  await until('a leads', () => a.elector.isLeader())
  // The renewal reached the apiserver, but its answer never reached us: the lease is a version ahead.
  const [held] = server.objects(LEASES)
  if (!held) throw new Error('no lease')
  server.put(LEASES, { ...held, spec: { ...held.spec as object, renewTime: formatMicroTime(Date.now()) } })
  await a.elector.stop({ release: true })
  t.equal(lease(server)?.spec?.holderIdentity, undefined, 'released')
  t.same(a.errors, [])
})

t.test('a release that fails is reported; stop() still resolves', async (t) => {
  const server = await fakeServer(t)
  const a = candidate(t, server, 'a')
  a.elector.start()
  await until('a leads', () => a.elector.isLeader())
  server.intercept = () => 503
  await a.elector.stop({ release: true })
  t.equal(lease(server)?.spec?.holderIdentity, 'a', 'not released')
  t.match(a.errors.at(-1), { code: 503 })
  t.same(a.log, ['leader a', 'started', 'stopped'])
})

t.test('callback failures are reported, not thrown', async (t) => {
  const server = await fakeServer(t)
  const a = candidate(t, server, 'a', {
    onStartedLeading: () => { throw new Error('start failed') },
    onStoppedLeading: () => { throw new Error('stop failed') },
    onNewLeader: () => { throw new Error('observer failed') },
    onError: undefined
  })
  a.elector.start()
  await until('a leads', () => a.elector.isLeader())
  await a.elector.stop()
  const reported: string[] = []
  const b = candidate(t, server, 'b', {
    onStartedLeading: () => { throw new Error('start failed') },
    onStoppedLeading: () => { throw new Error('stop failed') },
    onNewLeader: () => { throw new Error('observer failed') },
    onError: (err) => { reported.push(err.message); throw new Error('even the reporter') }
  })
  b.elector.start()
  await until('b leads', () => b.elector.isLeader())
  await b.elector.stop({ release: true })
  t.same(reported, ['observer failed', 'observer failed', 'start failed', 'stop failed'])
})

t.test('options: defaults and validation', async (t) => {
  const server = await fakeServer(t)
  const kc = new KubeConfig()
  kc.loadFromOptions(kubeConfigOptions(server.url))
  const api = new KubeApi(kc)
  t.teardown(() => api.close())
  const elector = new LeaderElector(api, { namespace: 'ns', name: 'lock' })
  t.match(elector.identity, new RegExp(`^${hostname()}_[0-9a-f-]{36}$`))
  t.not(new LeaderElector(api, { namespace: 'ns', name: 'lock' }).identity, elector.identity, 'random per elector')
  await elector.stop({ release: true })
  t.equal(server.requests.length, 0, 'stop() before start() does nothing')
  elector.start()
  await sleep(20)
  t.equal(server.requests.length, 0, 'a stopped elector does not start')
  t.throws(() => new LeaderElector(api, { namespace: 'ns', name: 'l', leaseDurationMs: 10_000, renewDeadlineMs: 10_000 }), /leaseDuration must be greater than renewDeadline/)
  t.throws(() => new LeaderElector(api, { namespace: 'ns', name: 'l', renewDeadlineMs: 2000, retryPeriodMs: 2000 }), /renewDeadline must be greater than retryPeriod/)
  t.throws(() => new LeaderElector(api, { namespace: 'ns', name: 'l', leaseDurationMs: 900, renewDeadlineMs: 500, retryPeriodMs: 100 }), /at least 1 s/)
})
