// The controller's Kubernetes plumbing against a real kube-apiserver: the REST client and its errors,
// watches, a reflector over Secret metadata and ConfigMaps that survives an apiserver restart without
// losing changes, and leader election between candidates on one Lease.
import { randomBytes } from 'node:crypto'
import t from 'tap'
import type { Stored } from '../../src/api/kube-object.js'
import { KubeApi } from '../../src/kube/api.js'
import { isAlreadyExists, isConflict, isNotFound, isResourceExpired, type KubeApiError } from '../../src/kube/errors.js'
import { formatMicroTime, LeaderElector, type Lease } from '../../src/kube/leader-election.js'
import { objectKey, Reflector, type ReflectorErrorInfo } from '../../src/kube/reflector.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { waitFor } from '../helpers/wait.js'

interface ConfigMap extends Stored { data?: Record<string, string> }
interface Secret extends Stored { data?: Record<string, string>, type?: string }

const cp = await startControlPlane({ log: (message) => t.comment(message) })
const api = new KubeApi(cp.kubeconfigPath)
const namespace = `plumbing-${randomBytes(3).toString('hex')}`
const CONFIGMAPS = `/api/v1/namespaces/${namespace}/configmaps`
const SECRETS = `/api/v1/namespaces/${namespace}/secrets`
const LEASES = `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`

const stoppers: Array<() => Promise<void>> = []
t.teardown(async () => {
  for (const stop of stoppers.reverse()) await stop()
  await api.close()
  await cp.stop()
})

await api.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })

const configMap = (name: string, data: Record<string, string>): ConfigMap =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data })

const until = <T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> =>
  waitFor(check, { timeoutMs, message: what })

// etcd's JSON gateway: what happens to the data while no apiserver is running, and compaction (which
// the apiserver only does every 5 minutes), so that old resourceVersions really are gone.
async function etcd<T = any> (path: string, body: unknown): Promise<T> {
  const res = await fetch(`${cp.etcdUrl}/v3/${path}`, { method: 'POST', body: JSON.stringify(body) })
  if (!res.ok) throw new Error(`etcd ${path}: ${res.status} ${await res.text()}`)
  return await res.json() as T
}
const b64 = (s: string) => Buffer.from(s).toString('base64')
async function etcdDelete (key: string): Promise<number> {
  const res = await etcd<{ header: { revision: string }, deleted?: string }>('kv/deleterange', { key: b64(key) })
  if (res.deleted !== '1') throw new Error(`etcd: ${key} not deleted`)
  return Number(res.header.revision)
}
async function etcdCompact (revision: number): Promise<void> {
  await etcd('kv/compaction', { revision: String(revision), physical: true })
}

const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a failure') }, (err: unknown) => err as KubeApiError)

t.test('KubeApi: CRUD, merge patch and the apiserver\'s errors', async (t) => {
  const created = await api.create<ConfigMap>(CONFIGMAPS, configMap('crud', { a: '1' }))
  t.ok(created.metadata.resourceVersion)
  t.ok(isAlreadyExists(await failure(api.create(CONFIGMAPS, configMap('crud', {})))), 'AlreadyExists')

  const replaced = await api.replace<ConfigMap>(`${CONFIGMAPS}/crud`, { ...created, data: { a: '2' } })
  t.same(replaced.data, { a: '2' })
  const stale = await failure(api.replace(`${CONFIGMAPS}/crud`, { ...created, data: { a: '3' } }))
  t.ok(isConflict(stale), 'a stale resourceVersion is a Conflict')
  t.equal(stale.code, 409)
  t.match(stale.message, /the object has been modified/)

  const patched = await api.mergePatch<ConfigMap>(`${CONFIGMAPS}/crud`, { data: { a: null, b: 'x' }, metadata: { labels: { l: 'v' } } })
  t.same(patched.data, { b: 'x' }, 'merge patch: null removes a key, others merge')
  t.same(patched.metadata.labels, { l: 'v' })

  const invalid = await failure(api.create(CONFIGMAPS, configMap('Not_A_Name', {})))
  t.match(invalid, { code: 422, reason: 'Invalid' })
  t.equal(invalid.status?.kind, 'Status')

  await api.delete(`${CONFIGMAPS}/crud`)
  const gone = await failure(api.get(`${CONFIGMAPS}/crud`))
  t.ok(isNotFound(gone))
  t.equal(gone.message, 'configmaps "crud" not found')

  const list = await api.list<ConfigMap>(CONFIGMAPS, { query: { labelSelector: 'l=v' } })
  t.same(list.items, [])
  t.ok(list.metadata.resourceVersion)
})

t.test('Lease MicroTimes: 3 fractional digits are rejected, formatMicroTime\'s 6 are accepted', async (t) => {
  const now = new Date()
  const lease = (name: string, time: string) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace },
    spec: { holderIdentity: 'x', leaseDurationSeconds: 15, acquireTime: time, renewTime: time }
  })
  const rejected = await failure(api.create(LEASES, lease('iso', now.toISOString())))
  t.equal(rejected.code, 400)
  t.match(rejected.message, /cannot parse/, rejected.message)
  const accepted = await api.create<Lease>(LEASES, lease('micro', formatMicroTime(now)))
  t.equal(accepted.spec?.renewTime, formatMicroTime(now))
  await api.delete(`${LEASES}/micro`)
})

t.test('watch: events from a resourceVersion', async (t) => {
  const list = await api.list<ConfigMap>(CONFIGMAPS)
  const events: string[] = []
  const controller = new AbortController()
  const watching = api.watch<ConfigMap>(CONFIGMAPS, { resourceVersion: list.metadata.resourceVersion, timeoutSeconds: 60, signal: controller.signal }, (e) => {
    events.push(`${e.type} ${e.object.metadata.name}`)
  })
  await api.create(CONFIGMAPS, configMap('watched', { k: 'v' }))
  await api.mergePatch(`${CONFIGMAPS}/watched`, { data: { k: 'w' } })
  await api.delete(`${CONFIGMAPS}/watched`)
  await until('three events', () => events.length === 3)
  t.same(events, ['ADDED watched', 'MODIFIED watched', 'DELETED watched'])
  controller.abort()
  await t.rejects(watching, { name: 'AbortError' })
})

t.test('reflector over Secrets, metadata only: add, update, delete without the data', async (t) => {
  const reflector = new Reflector<Secret>(api, { path: SECRETS, metadataOnly: true })
  stoppers.push(() => reflector.stop())
  const events: string[] = []
  reflector.on('add', (s) => events.push(`add ${s.metadata.name}`))
  reflector.on('update', (s, old) => events.push(`update ${s.metadata.name} ${old.metadata.labels?.v ?? '-'}->${s.metadata.labels?.v}`))
  reflector.on('delete', (s) => events.push(`delete ${s.metadata.name}`))
  await api.create(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'before', namespace }, data: { password: Buffer.from('hunter2').toString('base64') } })
  await reflector.start().synced()
  t.same(events, ['add before'])

  await api.create(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'during', namespace, labels: { v: '1' } }, stringData: { token: 'secret-token' } })
  await until('add during', () => events.includes('add during'))
  await api.mergePatch(`${SECRETS}/during`, { metadata: { labels: { v: '2' } } })
  await until('update', () => events.includes('update during 1->2'))
  await api.delete(`${SECRETS}/before`)
  await until('delete', () => events.includes('delete before'))
  t.same(events, ['add before', 'add during', 'update during 1->2', 'delete before'])

  const cached = reflector.get(`${namespace}/during`) as Secret
  t.equal(cached.kind, 'PartialObjectMetadata')
  t.equal(cached.data, undefined, 'no Secret data in the cache')
  t.notOk(JSON.stringify(reflector.list()).includes('secret-token'))
  t.equal(cached.metadata.labels?.v, '2')
  await reflector.stop()
})

t.test('reflector over ConfigMaps survives an apiserver restart; changes right after it are not lost', async (t) => {
  const reflector = new Reflector<ConfigMap>(api, { path: CONFIGMAPS, backoff: { initialMs: 200, maxMs: 2000 } })
  stoppers.push(() => reflector.stop())
  const events: string[] = []
  const errors: Array<{ err: Error, info: ReflectorErrorInfo }> = []
  reflector.on('add', (c) => events.push(`add ${c.metadata.name}`))
  reflector.on('update', (c, old) => events.push(`update ${c.metadata.name} ${old.data?.v}->${c.data?.v}`))
  reflector.on('delete', (c) => events.push(`delete ${c.metadata.name}`))
  reflector.onError((err, info) => errors.push({ err, info }))
  for (const name of ['keep', 'change', 'drop']) await api.create(CONFIGMAPS, configMap(name, { v: '1' }))
  await reflector.start().synced()
  t.same(events.sort(), ['add change', 'add drop', 'add keep'])
  events.length = 0

  // While the apiserver is down, "drop" disappears (straight from etcd) and history is compacted, so
  // the reflector cannot resume from its resourceVersion: it must relist and notice the deletion.
  const restarting = cp.restartApiServer()
  await until('apiserver down', async () => await api.get('/api/v1/namespaces/default', { timeoutMs: 1000 }).then(() => false, () => true), 30_000)
  await etcdCompact(await etcdDelete(`/registry/configmaps/${namespace}/drop`))
  await restarting
  // Just back: the reflector is still reconnecting (or backing off) while these happen.
  await api.mergePatch(`${CONFIGMAPS}/change`, { data: { v: '2' } })
  await api.create(CONFIGMAPS, configMap('new', { v: '1' }))
  await until('caught up', () => events.length >= 3)
  t.same(events.sort(), ['add new', 'delete drop', 'update change 1->2'])
  t.ok(errors.length >= 1, `the restart was noticed (${errors.map((e) => `${e.info.phase}: ${e.err.message}`).join('; ')})`)
  t.ok(errors.every((e) => e.info.retryInMs !== undefined), 'every failure was retried')
  t.ok(errors.some((e) => isResourceExpired(e.err)), 'resuming was refused with 410, so it relisted')

  // Still watching after the restart, and the cache matches the apiserver.
  await api.mergePatch(`${CONFIGMAPS}/keep`, { data: { v: '3' } })
  await until('update after restart', () => events.includes('update keep 1->3'))
  const fresh = await api.list<ConfigMap>(CONFIGMAPS)
  const summary = (items: ConfigMap[]) => items.map((c) => `${objectKey(c)}@${c.metadata.resourceVersion}`).sort()
  t.same(summary(reflector.list()), summary(fresh.items))
  await reflector.stop()

  // The restarted apiserver's watch cache begins after the old resourceVersions: 410 Expired.
  const expired = await failure(api.watch(CONFIGMAPS, { resourceVersion: '1', timeoutSeconds: 10 }, () => {}))
  t.ok(isResourceExpired(expired), `${expired.code} ${expired.reason}: ${expired.message}`)
})

t.test('leader election: one leader; release hands over within two retry periods; a crash after leaseDuration', async (t) => {
  const timing = { leaseDurationMs: 4000, renewDeadlineMs: 3000, retryPeriodMs: 500 }
  const candidates = new Map<string, { elector: LeaderElector, api: KubeApi, started: number }>()
  function campaign (identity: string): LeaderElector {
    const own = new KubeApi(cp.kubeconfigPath)
    const elector = new LeaderElector(own, {
      namespace,
      name: 'controller-lock',
      identity,
      ...timing,
      onStartedLeading: () => { const c = candidates.get(identity); if (c) c.started++ },
      onError: (err) => t.comment(`${identity}: ${err.message}`)
    })
    candidates.set(identity, { elector, api: own, started: 0 })
    stoppers.push(async () => { await elector.stop(); await own.close() })
    return elector.start()
  }
  const leaders = () => [...candidates.entries()].filter(([, c]) => c.elector.isLeader()).map(([id]) => id)
  const lease = () => api.get<Lease>(`${LEASES}/controller-lock`)

  const a = campaign('a')
  const b = campaign('b')
  await until('a leader', () => leaders().length === 1)
  // Watch for two leaders at once over a few renewals.
  let most = 0
  for (let i = 0; i < 60; i++) {
    most = Math.max(most, leaders().length)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  t.equal(most, 1, 'never two leaders over 3 s')
  t.equal(leaders().length, 1, 'exactly one leads')
  const [first] = leaders()
  const [leader, standby] = first === 'a' ? [a, b] : [b, a]
  const held = await lease()
  t.equal(held.spec?.holderIdentity, first)
  t.match(held.spec?.renewTime, /\.\d{6}Z$/)
  t.equal(held.spec?.leaseDurationSeconds, 4)

  // Graceful stop with release: the standby takes over at its next attempt.
  const releasedAt = Date.now()
  await leader.stop({ release: true })
  await until('standby leads', () => standby.isLeader())
  const handover = Date.now() - releasedAt
  t.ok(handover <= 2 * (1 + 1.2) * timing.retryPeriodMs + 500, `released: taken over after ${handover} ms`)
  const second = await lease()
  t.equal(second.spec?.holderIdentity, standby.identity)
  t.equal(second.spec?.leaseTransitions, (held.spec?.leaseTransitions ?? 0) + 1)

  // A new standby, then the leader "crashes": stops renewing and keeps the lease.
  const c = campaign('c')
  await until('c sees the leader', () => c.leader() === standby.identity)
  const crashedAt = Date.now()
  await standby.stop()
  t.equal((await lease()).spec?.holderIdentity, standby.identity, 'the lease still names the crashed leader')
  await until('c leads', () => c.isLeader(), 30_000)
  const takeover = Date.now() - crashedAt
  t.ok(takeover >= timing.leaseDurationMs - timing.retryPeriodMs - 300, `not before the lease expired (${takeover} ms)`)
  t.ok(takeover <= timing.leaseDurationMs + 2 * (1 + 1.2) * timing.retryPeriodMs + 1000, `soon after (${takeover} ms)`)
  t.equal(leaders().length, 1)
  const third = await lease()
  t.equal(third.spec?.holderIdentity, 'c')
  t.equal(third.spec?.leaseTransitions, (held.spec?.leaseTransitions ?? 0) + 2)
  t.same([...candidates.values()].map((x) => x.started), [1, 1, 1], 'each led exactly once')
})
