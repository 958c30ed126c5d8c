// runController's HTTP endpoint served securely, as controller-runtime serves secure metrics: HTTPS with a
// self-signed certificate or one from a directory (reloaded when rotated), callers checked by the API server, and
// plain HTTP only on loopback.
import { X509Certificate } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, type PeerCertificate } from 'node:tls'
import t, { type Test } from 'tap'
import { stringify } from 'yaml'
import { EXTENSION_CONFIG_COLLECTION_PATH } from '../../src/api/extension-config/constants.js'
import { isLoopbackHost } from '../../src/controller/http-serving.js'
import { runController, type RunControllerOptions } from '../../src/controller/run.js'
import { createCertificateAuthority } from '../../src/tls/certificates.js'
import { startFakeApiServer, TOKEN_REVIEWS } from '../helpers/fake-apiserver.js'
import { call, sleep, tlsFixture } from '../helpers/server.js'

const fake = await startFakeApiServer([EXTENSION_CONFIG_COLLECTION_PATH, '/api/v1/secrets'])
fake.reviews({ users: { 'reader-token': { username: 'system:serviceaccount:monitoring:prometheus' } }, allow: spec => spec.nonResourceAttributes.path === '/metrics' })
t.teardown(() => fake.close())
const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-secure-http-'))
const kubeconfig = join(dir, 'kubeconfig')
await writeFile(kubeconfig, stringify({
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [{ name: 'fake', cluster: { server: fake.url, 'insecure-skip-tls-verify': true } }],
  users: [{ name: 'controller', user: { token: 'controller-token' } }],
  contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'controller' } }],
  'current-context': 'fake'
}))

async function start (t: Test, http: RunControllerOptions['http']) {
  const running = await runController({ kubeconfig, http })
  t.teardown(() => running.stop())
  return running.httpUrl as string
}

/** The certificate chain the server presents, without verifying it. */
function peerCertificate (url: string): Promise<PeerCertificate & { issuerCertificate: PeerCertificate }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate(true) as PeerCertificate & { issuerCertificate: PeerCertificate })
      socket.end()
    })
    socket.on('error', reject)
  })
}

const get = (url: string, path: string, ca: string, token?: string) =>
  call(url, path, undefined, { method: 'GET', ca, ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) })

t.test('secure without a certificate directory: HTTPS with a self-signed certificate for the address listened on', async t => {
  const url = await start(t, { host: '127.0.0.1', port: 0, secure: {} })
  t.match(url, /^https:\/\/127\.0\.0\.1:\d+$/)
  const served = await peerCertificate(url)
  t.match(served.subjectaltname, /IP Address:127\.0\.0\.1/)
  t.match(served.subjectaltname, /DNS:localhost/)
  t.equal(served.issuerCertificate.subject.CN, 'runtime-sdk-controller self-signed CA')
  const ca = new X509Certificate(served.issuerCertificate.raw).toString()
  await t.rejects(call(url, '/healthz', undefined, { method: 'GET' }), /self-signed|self signed|unable to verify/, 'no client trusts it unless told to')

  t.equal((await get(url, '/healthz', ca)).status, 200, 'the probes need no token')
  t.equal((await get(url, '/readyz', ca)).status, 200)
  const anonymous = await get(url, '/metrics', ca)
  t.same([anonymous.status, anonymous.json.code], [401, 'Unauthorized'])
  const metrics = await get(url, '/metrics', ca, 'reader-token')
  t.equal(metrics.status, 200)
  t.match(metrics.text, /runtime_sdk_registry_ready 1/)
  const status = await get(url, '/extensionconfigs', ca, 'reader-token')
  t.same([status.status, status.json.code], [403, 'Forbidden'], 'RBAC grants /metrics only')
  t.equal(fake.requests.filter(r => r.path === TOKEN_REVIEWS).at(-1)?.headers.authorization, 'Bearer controller-token', 'reviews are made with the controller\'s own credentials')
})

t.test('secure with a certificate directory: its files are served, and a rotated certificate is picked up', async t => {
  const certDir = t.testdir()
  const tls = await tlsFixture(certDir)
  const url = await start(t, { host: '127.0.0.1', port: 0, secure: { certDir, reloadIntervalMs: 50 } })
  const before = await get(url, '/metrics', tls.ca.cert, 'reader-token')
  t.same([before.status, before.peerCertificateIssuer], [200, 'test CA'])

  const next = await createCertificateAuthority('rotated CA')
  const leaf = await next.issue({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] })
  writeFileSync(tls.keyFile, leaf.key)
  writeFileSync(tls.certFile, leaf.cert)
  let after
  for (let i = 0; i < 100 && !after; i++) {
    await sleep(50)
    after = await get(url, '/healthz', next.cert).catch(() => undefined)
  }
  t.same([after?.status, after?.peerCertificateIssuer], [200, 'rotated CA'], 'served without a restart')
})

t.test('plain HTTP only on loopback: anything else is refused before the controller starts', async t => {
  const requests = fake.requests.length
  for (const host of ['0.0.0.0', '::', '10.0.0.1', 'controller.example.com']) {
    await t.rejects(runController({ kubeconfig, http: { host, port: 0 } }), new RegExp(`^plain HTTP is served on loopback only, not on "${host.replace(/\./g, '\\.')}": serve it securely \\(http\\.secure, --metrics-secure\\) or listen on 127\\.0\\.0\\.1$`), host)
  }
  t.equal(fake.requests.length, requests, 'nothing was asked of the API server')
  for (const host of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST']) t.ok(isLoopbackHost(host), host)
  for (const host of ['0.0.0.0', '::', '', '128.0.0.1', '::2', 'localhost.example.com']) t.notOk(isLoopbackHost(host), host)
})

t.test('secure needs the Kubernetes API: a directory source is refused', async t => {
  await t.rejects(runController({ extensionConfigsDir: dir, http: { host: '127.0.0.1', port: 0, secure: {} } }), /the secure HTTP endpoint \(http\.secure, --metrics-secure\) checks callers with TokenReview and SubjectAccessReview: it needs the Kubernetes API/)
})
