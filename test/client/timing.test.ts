// Timeouts are precise; k dead Ignore handlers cost one timeout in parallel, k sequentially.
import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import { createSocket } from 'node:dgram'
import { Resolver } from 'node:dns'
import { connect, createServer, type AddressInfo, type LookupFunction, type Socket } from 'node:net'
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

// Never before the deadline, and within 150 ms after it: `.ci/run` runs four such files at once on two cores, where
// timers were seen 60 ms late.
t.test('a timeout fires within 150 ms of the deadline and is sent as ?timeout', async t => {
  const client = new HttpRuntimeClient({ backoff: false })
  t.teardown(() => client.close())
  client.warmUp([extensionConfig('ext', ext.url, pki.caBundle, [{ name: 'dead-0', hook: 'BeforeClusterCreate', timeoutSeconds: 1 }, { name: 'fast', hook: 'BeforeClusterCreate' }])])
  // warm up: schema compilation and the TLS connection are not part of the measurement.
  await client.callExtension(BeforeClusterCreate, cluster, 'fast.ext', { cluster })
  const started = performance.now()
  await t.rejects(client.callExtension(BeforeClusterCreate, cluster, 'dead-0.ext', { cluster }), /context deadline exceeded/)
  const elapsed = performance.now() - started
  t.ok(elapsed >= 990 && elapsed < 1150, `fired after ${elapsed.toFixed(1)} ms`)
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

/** A call to `url` with timeoutSeconds 1 ends with a deadline error within 150 ms of it, through both entry points. */
async function endsAtTheDeadline (t: Test, url: string, options: ConstructorParameters<typeof HttpRuntimeClient>[0] = {}) {
  const client = new HttpRuntimeClient({ backoff: false, ...options })
  t.teardown(() => client.close())
  client.warmUp([extensionConfig('stuck', url, pki.caBundle, [{ name: 'h', hook: 'BeforeClusterCreate', timeoutSeconds: 1 }])])
  for (const [entry, call] of [
    ['callExtension', () => client.callExtension(BeforeClusterCreate, cluster, 'h.stuck', { cluster })],
    ['callAllExtensions', () => client.callAllExtensions(BeforeClusterCreate, cluster, { cluster })]
  ] as const) {
    const started = performance.now()
    await t.rejects(call(), /context deadline exceeded/)
    const elapsed = performance.now() - started
    t.ok(elapsed >= 990 && elapsed < 1150, `${entry} ended after ${elapsed.toFixed(1)} ms`)
  }
}

t.test('a TLS handshake that never completes ends at the deadline', async t => {
  // Accepts TCP connections and never answers the ClientHello.
  const sockets: Socket[] = []
  const silent = createServer(socket => { sockets.push(socket) })
  await new Promise<void>(resolve => silent.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { for (const s of sockets) s.destroy(); silent.close() })
  await endsAtTheDeadline(t, `https://127.0.0.1:${(silent.address() as AddressInfo).port}`)
  // The abandoned connection attempts end with their sockets (else with undici's 10 s connect timeout).
  for (const s of sockets) s.destroy()
})

t.test('a TCP connect that never completes ends at the deadline', async t => {
  // A listener whose process is stopped never accepts: once its backlog is full, the kernel drops further SYNs.
  const stopped = spawn(process.execPath, ['-e', `require('node:net').createServer().listen({ host: '127.0.0.1', port: 0, backlog: 1 }, function () {
    console.log(this.address().port); process.kill(process.pid, 'SIGSTOP') })`], { stdio: ['ignore', 'pipe', 'inherit'] })
  const killTimer = setTimeout(() => stopped.kill('SIGKILL'), 60_000)
  t.teardown(() => { clearTimeout(killTimer); stopped.kill('SIGKILL') })
  const port = Number(await new Promise<string>(resolve => stopped.stdout.once('data', d => resolve(String(d).trim()))))
  const fillers: Socket[] = []
  t.teardown(() => { for (const s of fillers) s.destroy() })
  const connects = (): Promise<boolean> => new Promise(resolve => {
    const socket = connect(port, '127.0.0.1', () => resolve(true))
    fillers.push(socket)
    socket.on('error', () => resolve(false))
    setTimeout(() => resolve(false), 300).unref()
  })
  // Fill the accept queue until a connect no longer completes.
  let connected = 0
  while (connected < 16 && await connects()) connected++
  t.ok(connected < 16, `the accept queue is full after ${connected} connections: a connect no longer completes`)
  await endsAtTheDeadline(t, `https://127.0.0.1:${port}`)
})

t.test('a DNS answer that never comes ends at the deadline', async t => {
  // A resolver stub on loopback that reads queries and never answers them.
  const stub = createSocket('udp4')
  await new Promise<void>(resolve => stub.bind(0, '127.0.0.1', resolve))
  t.teardown(() => stub.close())
  let queries = 0
  stub.on('message', () => { queries++ })
  const resolver = new Resolver({ timeout: 5000, tries: 1 })
  resolver.setServers([`127.0.0.1:${stub.address().port}`])
  t.teardown(() => resolver.cancel())
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolver.resolve4(hostname, (err, addresses) => {
      if (err) return callback(err)
      return options.all ? callback(null, addresses.map(address => ({ address, family: 4 }))) : callback(null, addresses[0], 4)
    })
  }) as unknown as LookupFunction
  await endsAtTheDeadline(t, `https://extension.example.test:${ext.port}`, { lookup })
  t.ok(queries >= 2, `the stub was asked (${queries} queries)`)
})
