// Hostile clients, on every HTTP server of the project (the extension server, the controller's endpoint plain and
// secure, the conversion webhook), all built by src/http/server.ts: connections that never finish a TLS handshake or
// never send a request are closed in bounded time, and a connection cap refuses sockets beyond it.
import { mkdtemp } from 'node:fs/promises'
import { connect as tcpConnect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect as tlsConnect } from 'node:tls'
import t from 'tap'
import { Controller } from '../../src/controller/controller.js'
import { FileSource } from '../../src/controller/file-source.js'
import { createControllerHttp } from '../../src/controller/http.js'
import { createWebhookServer } from '../../src/controller/webhook-server.js'
import { listenAt } from '../../src/http/index.js'
import { silent, start, tlsFixture } from '../helpers/server.js'

const tls = await tlsFixture(t.testdir())
const limits = { handshakeTimeoutMs: 300, headersTimeoutMs: 600, maxConnections: 3 }
const controller = new Controller({ source: new FileSource({ dir: await mkdtemp(join(tmpdir(), 'runtime-sdk-limits-')), rescanIntervalMs: 0 }) })
t.teardown(() => controller.stop())

interface Served { name: string, port: number, secure: boolean }

async function servers (): Promise<Served[]> {
  const extension = await start(t, tls, { handlers: [], limits })
  const served: Served[] = [{ name: 'extension server', port: extension.port, secure: true }]
  const plainApp = createControllerHttp({ controller, limits })
  const plainUrl = await listenAt(plainApp, { host: '127.0.0.1', port: 0, https: false })
  t.teardown(() => plainApp.close())
  served.push({ name: 'controller endpoint', port: Number(new URL(plainUrl).port), secure: false })
  const leaf = await tls.ca.issue({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] })
  const secureApp = createControllerHttp({ controller, limits, https: { cert: leaf.cert, key: leaf.key } })
  const secureUrl = await listenAt(secureApp, { host: '127.0.0.1', port: 0, https: true })
  t.teardown(() => secureApp.close())
  served.push({ name: 'controller endpoint (--metrics-secure)', port: Number(new URL(secureUrl).port), secure: true })
  const webhook = createWebhookServer({ tls: { certFile: tls.certFile, keyFile: tls.keyFile }, host: '127.0.0.1', port: 0, logger: silent, limits })
  const webhookUrl = await webhook.listen()
  t.teardown(() => webhook.close())
  served.push({ name: 'conversion webhook', port: Number(new URL(webhookUrl).port), secure: true })
  return served
}

/** Milliseconds until the server closes the socket (or `giveUpMs`, then -1). */
function closedAfter (socket: Socket, giveUpMs = 5000): Promise<number> {
  const started = performance.now()
  return new Promise(resolve => {
    const timer = setTimeout(() => { socket.destroy(); resolve(-1) }, giveUpMs)
    socket.on('error', () => {})
    // Read what the server may write first (node answers a plain HTTP request timeout with a 408), or 'close' never comes.
    socket.resume()
    socket.on('close', () => { clearTimeout(timer); resolve(performance.now() - started) })
  })
}

for (const server of await servers()) {
  const { port } = server
  t.test(`${server.name}: hostile clients are cut off`, async (t) => {
    if (server.secure) {
      t.test('a TCP connection that never starts the TLS handshake is closed after handshakeTimeoutMs', async (t) => {
        const ms = await closedAfter(tcpConnect(port, '127.0.0.1'))
        t.ok(ms >= 250 && ms < 2000, `closed after ${Math.round(ms)} ms`)
      })
    }

    t.test('a connection that never sends a request is closed after headersTimeoutMs', async (t) => {
      const socket = server.secure ? tlsConnect({ port, host: '127.0.0.1', ca: tls.ca.cert, servername: 'localhost' }) : tcpConnect(port, '127.0.0.1')
      await new Promise(resolve => socket.once(server.secure ? 'secureConnect' : 'connect', resolve))
      const ms = await closedAfter(socket)
      t.ok(ms >= 550 && ms < 2000, `closed after ${Math.round(ms)} ms`)
    })

    t.test('connections beyond maxConnections are closed on arrival', async (t) => {
      const open = Array.from({ length: limits.maxConnections }, () => tcpConnect(port, '127.0.0.1'))
      await Promise.all(open.map(s => new Promise(resolve => s.once('connect', resolve))))
      // Let the server accept them before the next one arrives.
      await new Promise(resolve => setTimeout(resolve, 50))
      const ms = await closedAfter(tcpConnect(port, '127.0.0.1'))
      t.ok(ms >= 0 && ms < 200, `the extra connection was closed after ${Math.round(ms)} ms`)
      for (const s of open) s.destroy()
    })
  })
}
