// Timeouts are precise; k dead Ignore handlers cost one timeout in parallel, k sequentially.
import t from 'tap'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { HttpRuntimeClient } from '../../src/client/index.js'
import { cluster, createPki, hang, json, startExtension } from '../helpers/test-extension.js'
import { extensionConfig } from '../../tools/harness/extension-config.js'

const pki = await createPki()
const ext = await startExtension(pki.server, {})
t.teardown(() => ext.close())
const names = Array.from({ length: 10 }, (_, i) => `dead-${i}`)
for (const name of names) ext.routes.set(`/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/${name}`, hang)
ext.routes.set('/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/fast', (_r, res) => json(res, { status: 'Success', retryAfterSeconds: 0 }))

t.test('a timeout fires within 50 ms of the deadline and is sent as ?timeout', async t => {
  const client = new HttpRuntimeClient({ backoff: false })
  t.teardown(() => client.close())
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, [{ name: 'dead-0', hook: 'BeforeClusterCreate', timeoutSeconds: 1 }, { name: 'fast', hook: 'BeforeClusterCreate' }])])
  // warm up: schema compilation and the TLS connection are not part of the measurement.
  await client.callExtension(BeforeClusterCreate, cluster, 'fast.ext', { cluster })
  const started = performance.now()
  await t.rejects(client.callExtension(BeforeClusterCreate, cluster, 'dead-0.ext', { cluster }), /context deadline exceeded/)
  const elapsed = performance.now() - started
  t.ok(elapsed >= 990 && elapsed < 1050, `fired after ${elapsed.toFixed(1)} ms`)
  t.equal(ext.requests.at(-1)?.query.get('timeout'), '1s')
})

t.test('10 hanging Ignore handlers: about one timeout in parallel, ten sequentially', async t => {
  const client = new HttpRuntimeClient({ backoff: false })
  t.teardown(() => client.close())
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, names.map(name => ({ name, hook: 'BeforeClusterCreate', timeoutSeconds: 1, failurePolicy: 'Ignore' as const })))])
  let started = performance.now()
  const parallel = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })
  const parallelMs = performance.now() - started
  t.ok(parallelMs < 1500, `parallel took ${parallelMs.toFixed(0)} ms`)
  t.same(parallel.handlers.map(h => h.outcome), names.map(() => 'ignored'))
  t.same(parallel.response, { kind: 'BeforeClusterCreateResponse', apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', status: 'Success', retryAfterSeconds: 0 })
  started = performance.now()
  const sequential = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }, { sequential: true })
  const sequentialMs = performance.now() - started
  t.ok(sequentialMs >= 9900 && sequentialMs < 11000, `sequential took ${sequentialMs.toFixed(0)} ms`)
  t.same(sequential.response, parallel.response, 'the aggregate is identical')
})

t.test('with backoff, dead Ignore handlers fail fast on the next call', async t => {
  const client = new HttpRuntimeClient({ backoff: { initialMs: 60_000 } })
  t.teardown(() => client.close())
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, names.map(name => ({ name, hook: 'BeforeClusterCreate', timeoutSeconds: 1, failurePolicy: 'Ignore' as const })))])
  await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }, { concurrency: 4 })
  const started = performance.now()
  const again = await client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }, { sequential: true })
  t.ok(performance.now() - started < 100, 'no timeouts while backing off')
  t.ok(again.handlers.every(h => h.ignored && /backing off/.test(h.error ?? '')))
})

t.test('the caller\'s signal cancels the call', async t => {
  const client = new HttpRuntimeClient({ backoff: false })
  t.teardown(() => client.close())
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, [{ name: 'dead-0', hook: 'BeforeClusterCreate', timeoutSeconds: 5, failurePolicy: 'Ignore' }])])
  const started = performance.now()
  await t.rejects(client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }, { signal: AbortSignal.timeout(100) }), /context canceled/)
  t.ok(performance.now() - started < 500)
})

t.test('a TLS handshake that never completes ends at the deadline, for callExtension and callAllExtensions', async t => {
  // Accepts TCP connections and never answers the ClientHello.
  const sockets: Socket[] = []
  const silent = createServer(socket => { sockets.push(socket) })
  await new Promise<void>(resolve => silent.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { for (const s of sockets) s.destroy(); silent.close() })
  const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`
  const client = new HttpRuntimeClient({ backoff: false })
  t.teardown(() => client.close())
  client.warmUp([extensionConfig('silent', url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate', timeoutSeconds: 1 }])])
  let started = performance.now()
  await t.rejects(client.callExtension(BeforeClusterCreate, cluster, 'h.silent', { cluster }), /context deadline exceeded/)
  let elapsed = performance.now() - started
  t.ok(elapsed >= 990 && elapsed < 1050, `callExtension ended after ${elapsed.toFixed(1)} ms`)
  started = performance.now()
  await t.rejects(client.callAllExtensions(BeforeClusterCreate, cluster, { cluster }), /context deadline exceeded/)
  elapsed = performance.now() - started
  t.ok(elapsed >= 990 && elapsed < 1050, `callAllExtensions ended after ${elapsed.toFixed(1)} ms`)
  // The abandoned connection attempts end with their sockets (else with undici's 10 s connect timeout).
  for (const s of sockets) s.destroy()
})
