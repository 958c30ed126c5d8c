import t, { type Test } from 'tap'
import { KubeConfig } from '@kubernetes/client-node'
import { KubeApi } from '../../src/kube/api.js'
import { isResourceExpired } from '../../src/kube/errors.js'
import {
  objectKey,
  PARTIAL_OBJECT_METADATA,
  PARTIAL_OBJECT_METADATA_LIST,
  Reflector,
  type ReflectorErrorInfo,
  type ReflectorOptions
} from '../../src/kube/reflector.js'
import { kubeConfigOptions, startFakeApiServer, type FakeApiServer, type Obj } from '../helpers/fake-apiserver.js'

const SECRETS = '/api/v1/secrets'
const secret = (name: string, value = 'v', namespace = 'ns'): Obj =>
  ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, data: { value } })

interface Setup {
  server: FakeApiServer
  api: KubeApi
  reflector: Reflector<Obj>
  events: string[]
  errors: Array<{ err: Error, info: ReflectorErrorInfo }>
}

async function setup (t: Test, options: Partial<ReflectorOptions> = {}, seed: (s: FakeApiServer) => void = () => {}): Promise<Setup> {
  const server = await startFakeApiServer([SECRETS])
  seed(server)
  const kc = new KubeConfig()
  kc.loadFromOptions(kubeConfigOptions(server.url))
  const api = new KubeApi(kc)
  const reflector = new Reflector<Obj>(api, { path: SECRETS, backoff: { initialMs: 10, maxMs: 100 }, ...options })
  const events: string[] = []
  const errors: Setup['errors'] = []
  // Each listener checks that the cache already holds the new state.
  reflector.on('add', (obj) => {
    t.equal(reflector.get(objectKey(obj)), obj)
    events.push(`add ${objectKey(obj)}`)
  })
  reflector.on('update', (obj, old) => {
    t.equal(reflector.get(objectKey(obj)), obj)
    events.push(`update ${objectKey(obj)} ${(old.data as any)?.value}->${(obj.data as any)?.value}`)
  })
  reflector.on('delete', (obj) => {
    t.equal(reflector.get(objectKey(obj)), undefined)
    events.push(`delete ${objectKey(obj)}`)
  })
  reflector.onError((err, info) => { errors.push({ err, info }) })
  t.teardown(async () => {
    await reflector.stop()
    await api.close()
    await server.close()
  })
  return { server, api, reflector, events, errors }
}

async function until (what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const watches = (s: FakeApiServer) => s.requests.filter((r) => r.query.get('watch') === 'true')
const lists = (s: FakeApiServer) => s.requests.filter((r) => r.method === 'GET' && !r.query.has('watch'))
const values = (r: Reflector<Obj>) => r.list().map((o) => `${objectKey(o)}=${(o.data as any)?.value}`).sort()

t.test('initial list: paginated, every object added, then synced', async (t) => {
  const { server, reflector, events } = await setup(t, { pageSize: 2, labelSelector: 'app=x', fieldSelector: 'type=Opaque' }, (s) => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) s.put(SECRETS, secret(name))
  })
  t.notOk(reflector.hasSynced())
  t.equal(reflector.lastSyncResourceVersion, '')
  reflector.start()
  t.equal(reflector.start(), reflector, 'start() is idempotent')
  await reflector.synced()
  t.ok(reflector.hasSynced())
  t.same(events, ['add ns/a', 'add ns/b', 'add ns/c', 'add ns/d', 'add ns/e'])
  t.same(lists(server).map((r) => [r.query.get('limit'), Boolean(r.query.get('continue'))]), [['2', false], ['2', true], ['2', true]])
  t.ok(lists(server).every((r) => r.query.get('labelSelector') === 'app=x' && r.query.get('fieldSelector') === 'type=Opaque'))
  t.equal(reflector.lastSyncResourceVersion, server.resourceVersion)
  t.equal(reflector.get('ns/c')?.metadata.name, 'c')
  t.equal(reflector.list().length, 5)

  await until('watch', () => server.watcherCount(SECRETS) === 1)
  const watch = watches(server)[0]
  t.equal(watch?.query.get('resourceVersion'), server.resourceVersion, 'watch starts at the list resourceVersion')
  t.equal(watch?.query.get('allowWatchBookmarks'), 'true')
  t.equal(watch?.query.get('labelSelector'), 'app=x')
  const timeout = Number(watch?.query.get('timeoutSeconds'))
  t.ok(timeout >= 300 && timeout < 600, `timeoutSeconds ${timeout} is randomised in [300, 600)`)
  t.equal(watch?.headers.accept, 'application/json')
})

t.test('watch: add, update, delete, bookmarks; listener errors are reported and do not stop it', async (t) => {
  const { server, reflector, events, errors } = await setup(t, {}, (s) => { s.put(SECRETS, secret('a', '1')) })
  await reflector.start().synced()
  await until('watch', () => server.watcherCount(SECRETS) === 1)
  server.put(SECRETS, secret('b', '1'))
  server.put(SECRETS, secret('a', '2'))
  server.remove(SECRETS, 'ns/b')
  await until('three events', () => events.length === 4)
  t.same(events, ['add ns/a', 'add ns/b', 'update ns/a 1->2', 'delete ns/b'])
  t.same(values(reflector), ['ns/a=2'])
  t.equal(reflector.lastSyncResourceVersion, server.resourceVersion)

  server.put(SECRETS, secret('unrelated', 'x', 'other'))
  await until('event', () => events.length === 5)
  server.bookmark(SECRETS)
  server.remove(SECRETS, 'other/unrelated')
  await until('event', () => events.length === 6)
  t.equal(reflector.lastSyncResourceVersion, server.resourceVersion)

  const off = reflector.on('add', () => { throw new Error('listener broke') })
  server.put(SECRETS, secret('c'))
  await until('event', () => events.length === 7)
  t.equal(errors.length, 1)
  t.equal(errors[0]?.err.message, 'listener broke')
  t.same(errors[0]?.info, { phase: 'listener' })
  off()
  // Non-Error throws are wrapped; a throwing error listener does not stop the others.
  const offString = reflector.on('add', () => { throw 'plain string' }) // eslint-disable-line no-throw-literal
  const offBroken = reflector.onError(() => { throw new Error('observer broke') })
  server.put(SECRETS, secret('s'))
  await until('event', () => events.length === 8)
  t.equal(errors[1]?.err.message, 'plain string')
  offString()
  offBroken()
  server.put(SECRETS, secret('d'))
  await until('event', () => events.length === 9)
  t.equal(errors.length, 2, 'a removed listener is not called')
  t.equal(watches(server).length, 1, 'one watch throughout')
})

t.test('bookmarks move the resourceVersion without events', async (t) => {
  const { server, reflector, events } = await setup(t)
  await reflector.start().synced()
  await until('watch', () => server.watcherCount(SECRETS) === 1)
  server.quietly(() => server.put(SECRETS, secret('hidden')))
  server.bookmark(SECRETS)
  await until('bookmark', () => reflector.lastSyncResourceVersion === server.resourceVersion)
  t.same(events, [])
})

t.test('after the server ends a watch: re-watch from the last resourceVersion, nothing missed', async (t) => {
  const { server, reflector, events, errors } = await setup(t, {}, (s) => { s.put(SECRETS, secret('a', '1')) })
  await reflector.start().synced()
  await until('watch', () => server.watcherCount(SECRETS) === 1)
  server.put(SECRETS, secret('a', '2'))
  await until('update', () => events.length === 2)
  const last = reflector.lastSyncResourceVersion
  // Ended, and changes happen before the client is back: the re-watch must replay them.
  server.endWatches(SECRETS)
  server.put(SECRETS, secret('b'))
  server.remove(SECRETS, 'ns/a')
  await until('replayed', () => events.length === 4)
  t.same(events.slice(2), ['add ns/b', 'delete ns/a'])
  t.equal(watches(server)[1]?.query.get('resourceVersion'), last)
  t.equal(lists(server).length, 1, 'no relist')
  t.same(errors, [], 'a clean end is not an error')
})

t.test('410 ERROR event: relist and emit the difference, deletions included', async (t) => {
  const { server, reflector, events, errors } = await setup(t, {}, (s) => {
    for (const name of ['keep', 'change', 'drop']) s.put(SECRETS, secret(name, '1'))
  })
  await reflector.start().synced()
  await until('watch', () => server.watcherCount(SECRETS) === 1)
  server.quietly(() => {
    server.put(SECRETS, secret('change', '2'))
    server.remove(SECRETS, 'ns/drop')
    server.put(SECRETS, secret('new', '1'))
  })
  server.compact()
  server.watchError(SECRETS)
  await until('relist', () => events.length === 6)
  t.same(events.slice(3).sort(), ['add ns/new', 'delete ns/drop', 'update ns/change 1->2'])
  t.same(values(reflector), ['ns/change=2', 'ns/keep=1', 'ns/new=1'])
  t.equal(lists(server).length, 2)
  t.equal(errors.length, 1)
  t.ok(isResourceExpired(errors[0]?.err))
  t.equal(errors[0]?.info.phase, 'watch')
  t.equal(reflector.lastSyncResourceVersion, server.resourceVersion)
  await until('new watch', () => server.watcherCount(SECRETS) === 1)
})

t.test('too old to resume after a disconnect: the re-watch gets 410 and a relist closes the gap', async (t) => {
  const { server, reflector, events } = await setup(t, {}, (s) => { s.put(SECRETS, secret('a')) })
  await reflector.start().synced()
  await until('watch', () => server.watcherCount(SECRETS) === 1)
  server.quietly(() => {
    server.remove(SECRETS, 'ns/a')
    server.put(SECRETS, secret('b'))
  })
  server.compact()
  server.endWatches(SECRETS)
  await until('relist', () => events.length === 3)
  t.same(events, ['add ns/a', 'add ns/b', 'delete ns/a'])
})

t.test('continue token expired mid-list: the list starts over in one piece', async (t) => {
  const { server, reflector, events } = await setup(t, { pageSize: 1 }, (s) => {
    for (const name of ['a', 'b', 'c']) s.put(SECRETS, secret(name))
  })
  let compacted = false
  server.intercept = (r) => {
    if (r.query.get('continue') && !compacted) {
      compacted = true
      server.quietly(() => server.put(SECRETS, secret('d')))
      server.compact()
    }
    return undefined
  }
  await reflector.start().synced()
  t.same(events, ['add ns/a', 'add ns/b', 'add ns/c', 'add ns/d'], 'each object once, from the fresh list')
  t.same(lists(server).map((r) => r.query.get('limit')), ['1', '1', null])
})

t.test('list failures (500) back off and retry without throwing', async (t) => {
  const { server, reflector, errors, events } = await setup(t, {}, (s) => { s.put(SECRETS, secret('a')) })
  let failures = 3
  server.intercept = (r) => !r.query.has('watch') && failures-- > 0 ? 500 : undefined
  await reflector.start().synced()
  t.same(events, ['add ns/a'])
  t.equal(errors.length, 3)
  t.ok(errors.every((e) => e.info.phase === 'list' && (e.err as any).code === 500))
  const delays = errors.map((e) => e.info.retryInMs as number)
  t.ok(delays[0]! >= 10 && delays[0]! <= 12, `first delay ${delays[0]} is the initial one plus jitter`)
  t.ok(delays[1]! >= 20 && delays[2]! >= 40, `delays grow: ${delays}`)
})

t.test('watch failures (500) retry the watch from the same resourceVersion, no relist', async (t) => {
  const { server, reflector, errors, events } = await setup(t)
  await reflector.start().synced()
  const rv = reflector.lastSyncResourceVersion
  let failures = 2
  server.intercept = (r) => r.query.has('watch') && failures-- > 0 ? 500 : undefined
  await until('watch', () => server.watcherCount(SECRETS) === 1)
  t.equal(errors.length, 2)
  t.ok(errors.every((e) => e.info.phase === 'watch'))
  t.ok(watches(server).every((w) => w.query.get('resourceVersion') === rv))
  t.equal(lists(server).length, 1)
  server.put(SECRETS, secret('x'))
  await until('add', () => events.length === 1)
})

t.test('apiserver gone (connection refused) and back on the same port: changes made meanwhile are seen', async (t) => {
  const { server, reflector, errors, events } = await setup(t, {}, (s) => { s.put(SECRETS, secret('a', '1')) })
  await reflector.start().synced()
  await until('watch', () => server.watcherCount(SECRETS) === 1)
  const port = server.port
  await server.close()
  await until('refused attempts', () => errors.length >= 3)
  t.ok(errors.every((e) => e.info.phase === 'watch' && e.info.retryInMs! > 0), 'reported with a retry delay')
  server.put(SECRETS, secret('a', '2'))
  server.put(SECRETS, secret('b', '1'))
  await server.listen(port)
  await until('caught up', () => events.length === 3)
  t.same(events, ['add ns/a', 'update ns/a 1->2', 'add ns/b'])
})

t.test('an unreachable apiserver is retried at a capped pace; the cache says it is stale until it is back', async (t) => {
  // Answered errors back off from 1 s up to a minute: an outage must not push the retries that far apart.
  const { server, reflector, errors, events } = await setup(t, { backoff: { initialMs: 1000, maxMs: 60_000 }, unreachableRetryMaxMs: 300 })
  await reflector.start().synced()
  await until('watch', () => server.watcherCount(SECRETS) === 1)
  t.equal(reflector.stale(), undefined, 'current while watching')
  const port = server.port
  const down = Date.now()
  await server.close()
  await new Promise((resolve) => setTimeout(resolve, 2500))
  const stale = reflector.stale()
  t.ok(stale && stale.since.getTime() >= down - 50, `stale since the outage: ${stale?.since.toISOString()}`)
  t.match(stale?.error, /ECONNREFUSED|other side closed|socket/i, 'with the last error')
  const delays = errors.map((e) => e.info.retryInMs as number)
  t.ok(delays.length >= 6 && delays.every((d) => d <= 360), `retried every ≤ 300 ms (+ jitter): ${delays}`)
  server.put(SECRETS, secret('b'))
  // Back, but answering errors at first (as an apiserver still starting does): they back off from the start.
  let failures = 1
  server.intercept = (r) => r.query.has('watch') && failures-- > 0 ? 503 : undefined
  await server.listen(port)
  const back = Date.now()
  await until('caught up', () => events.includes('add ns/b'))
  const answered = errors.at(-1)!
  t.equal((answered.err as any).code, 503)
  t.ok(answered.info.retryInMs! <= 1200, `the first answered error waits the initial delay: ${answered.info.retryInMs} ms`)
  t.ok(Date.now() - back < 2000, `caught up ${Date.now() - back} ms after the apiserver was back`)
  await until('current again', () => reflector.stale() === undefined)
})

t.test('a server that closes every watch at once is retried with backoff, not in a tight loop', async (t) => {
  const { server, reflector } = await setup(t, { backoff: { initialMs: 50, maxMs: 200, jitter: 0 } })
  server.endWatchesAtOnce = true
  await reflector.start().synced()
  await new Promise((resolve) => setTimeout(resolve, 600))
  const count = watches(server).length
  t.ok(count >= 2 && count <= 8, `${count} watches in 600 ms`)
})

t.test('metadataOnly: PartialObjectMetadata Accept headers; cached objects have no data', async (t) => {
  const { server, reflector, events } = await setup(t, { metadataOnly: true }, (s) => { s.put(SECRETS, secret('a')) })
  await reflector.start().synced()
  await until('watch', () => server.watcherCount(SECRETS) === 1)
  server.put(SECRETS, secret('b'))
  await until('add', () => events.length === 2)
  t.equal(lists(server)[0]?.headers.accept, PARTIAL_OBJECT_METADATA_LIST)
  t.equal(watches(server)[0]?.headers.accept, PARTIAL_OBJECT_METADATA)
  t.equal(PARTIAL_OBJECT_METADATA_LIST, 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1')
  t.equal(PARTIAL_OBJECT_METADATA, 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1')
  for (const obj of reflector.list()) {
    t.equal(obj.kind, 'PartialObjectMetadata')
    t.notOk('data' in obj, `${obj.metadata.name} has no data`)
  }
})

t.test('stop(): ends the watch without an error; synced() rejects when stopped first', async (t) => {
  const { server, reflector, errors } = await setup(t)
  await reflector.start().synced()
  await until('watch', () => server.watcherCount(SECRETS) === 1)
  await reflector.stop()
  await until('watch closed', () => server.watcherCount(SECRETS) === 0)
  t.same(errors, [])
  const requests = server.requests.length
  await new Promise((resolve) => setTimeout(resolve, 50))
  t.equal(server.requests.length, requests, 'no requests after stop()')
  reflector.start()
  t.equal(server.requests.length, requests, 'a stopped reflector does not start again')
  await reflector.stop()

  const never = new Reflector<Obj>(kubeApi('http://127.0.0.1:1'), { path: SECRETS })
  const synced = never.synced()
  await never.stop()
  await t.rejects(synced, /stopped before the first list/)

  // Stopped while backing off after errors: resolves promptly and reports nothing more.
  server.intercept = () => 500
  const failingApi = kubeApi(server.url)
  t.teardown(() => failingApi.close())
  const failing = new Reflector<Obj>(failingApi, { path: SECRETS, backoff: { initialMs: 60_000 } })
  const seen: Error[] = []
  failing.onError((err) => seen.push(err))
  failing.start()
  await until('first failure', () => seen.length === 1)
  const began = Date.now()
  await failing.stop()
  t.ok(Date.now() - began < 1000, 'stop() does not wait for the backoff')
  t.equal(seen.length, 1)
})

t.test('objectKey: namespace/name, or name for cluster-scoped objects', async (t) => {
  t.equal(objectKey({ metadata: { name: 'n', namespace: 'ns' } }), 'ns/n')
  t.equal(objectKey({ metadata: { name: 'cluster-wide' } }), 'cluster-wide')
})

function kcFor (server: string): KubeConfig {
  const kc = new KubeConfig()
  kc.loadFromOptions(kubeConfigOptions(server))
  return kc
}

function kubeApi (server: string): KubeApi {
  return new KubeApi(kcFor(server))
}

t.test('cached objects carry no managedFields, from the list or from a watch', async (t) => {
  const managed = (name: string, value: string): Obj => {
    const obj = secret(name, value)
    obj.metadata['managedFields'] = [{ manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:value': {} } } }]
    return obj
  }
  const { server, reflector, events } = await setup(t, {}, (s) => { s.put(SECRETS, managed('listed', '1')) })
  await reflector.start().synced()
  server.put(SECRETS, managed('watched', '1'))
  await until('the watched object', () => events.includes('add ns/watched'))
  t.same(reflector.list().map((o) => [objectKey(o), 'managedFields' in o.metadata, (o.data as any).value]).sort(),
    [['ns/listed', false, '1'], ['ns/watched', false, '1']])
})
