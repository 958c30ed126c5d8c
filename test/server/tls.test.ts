// TLS: certificate rotation without restart, mTLS, plain HTTP only on request.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import t from 'tap'
import { pino } from 'pino'
import { createCertificateAuthority } from '../../src/tls/certificates.js'
import { createExtensionServer } from '../../src/server/index.js'
import { API, call, sleep, start, tlsFixture } from '../helpers/server.js'

const discovery = `/${API}/discovery`
const body = JSON.stringify({ kind: 'DiscoveryRequest', apiVersion: API })

t.test('rewritten certificate files are served on the next connection, without restart', async (t) => {
  const tls = await tlsFixture(t.testdir())
  const { url } = await start(t, tls, { handlers: [], tls: { certFile: tls.certFile, keyFile: tls.keyFile, reloadIntervalMs: 50 } })
  const before = await call(url, discovery, body, { ca: tls.ca.cert })
  t.equal(before.json.status, 'Success')
  t.equal(before.peerCertificateIssuer, 'test CA')

  const next = await createCertificateAuthority('rotated CA')
  const leaf = await next.issue({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] })
  writeFileSync(tls.keyFile, leaf.key)
  writeFileSync(tls.certFile, leaf.cert)
  let after
  for (let i = 0; i < 100; i++) {
    await sleep(50)
    after = await call(url, discovery, body, { ca: next.cert }).catch(() => undefined)
    if (after) break
  }
  t.equal(after?.json.status, 'Success', 'the new certificate verifies against the new CA')
  t.equal(after?.peerCertificateIssuer, 'rotated CA')
  await t.rejects(call(url, discovery, body, { ca: tls.ca.cert }), 'the old CA no longer verifies the server')

  // A broken pair (key of another certificate) is skipped; the server keeps the last good one.
  const other = await next.issue({ commonName: 'other' })
  writeFileSync(tls.keyFile, other.key)
  await sleep(200)
  const still = await call(url, discovery, body, { ca: next.cert })
  t.equal(still.json.status, 'Success', 'a mismatched key does not break serving')
})

t.test('mTLS: a client certificate from the client CA is required', async (t) => {
  const dir = t.testdir()
  const tls = await tlsFixture(dir)
  const clientCa = await createCertificateAuthority('client CA')
  writeFileSync(join(dir, 'client-ca.crt'), clientCa.cert)
  const { url } = await start(t, tls, { handlers: [], tls: { certFile: tls.certFile, keyFile: tls.keyFile, clientCaFile: join(dir, 'client-ca.crt') } })
  const client = await clientCa.issue({ commonName: 'capi-controller-manager', usage: 'client' })
  const accepted = await call(url, discovery, body, { ca: tls.ca.cert, cert: client.cert, key: client.key })
  t.equal(accepted.json.status, 'Success', 'client certificate from the client CA is accepted')
  await t.rejects(call(url, discovery, body, { ca: tls.ca.cert }), 'no client certificate is rejected')
  const stranger = await (await createCertificateAuthority('other CA')).issue({ commonName: 'intruder', usage: 'client' })
  await t.rejects(call(url, discovery, body, { ca: tls.ca.cert, cert: stranger.cert, key: stranger.key }), 'a certificate from another CA is rejected')
})

t.test('TLS is required unless insecureHttp is set, which logs a warning', async (t) => {
  t.throws(() => createExtensionServer({ handlers: [] }), /TLS is required/)
  const tls = await tlsFixture(t.testdir())
  t.throws(() => createExtensionServer({ handlers: [], insecureHttp: true, tls: { certFile: tls.certFile, keyFile: tls.keyFile } }), /either tls or insecureHttp/)
  t.throws(() => createExtensionServer({ handlers: [], tls: { certFile: join(tls.dir, 'missing.crt'), keyFile: tls.keyFile } }), /ENOENT/)
  const lines: string[] = []
  const logger = pino({ level: 'info' }, new Writable({ write (chunk, _enc, cb) { lines.push(String(chunk)); cb() } }))
  const server = createExtensionServer({ handlers: [], insecureHttp: true, logger })
  const url = await server.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => server.close())
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+$/)
  const warning = lines.map(l => JSON.parse(l)).find(l => l.level === 40)
  t.match(warning?.msg, /plain HTTP/)
  const reply = await call(url, discovery, body)
  t.equal(reply.json.status, 'Success')
  t.ok(lines.some(l => /"reqId":"[0-9a-f-]{36}"/.test(l)), 'request logs carry a request id')
})

t.test('TLS 1.2 is the minimum', async (t) => {
  const tls = await tlsFixture(t.testdir())
  const { url } = await start(t, tls, { handlers: [] })
  const { request } = await import('node:https')
  const tls11 = new Promise((resolve, reject) => {
    const req = request(new URL(discovery, url), { method: 'POST', ca: tls.ca.cert, maxVersion: 'TLSv1.1', minVersion: 'TLSv1', agent: false }, resolve)
    req.on('error', reject)
    req.end(body)
  })
  await t.rejects(tls11, 'a TLS 1.1 handshake fails')
})
