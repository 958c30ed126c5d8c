// Hostile clients: connections that never finish a TLS handshake or never send a request are closed in bounded
// time, and a connection cap refuses sockets beyond it.
import { connect as tcpConnect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import t from 'tap'
import { start, tlsFixture } from '../helpers/server.js'

const tls = await tlsFixture(t.testdir())
const limits = { handshakeTimeoutMs: 300, headersTimeoutMs: 600, maxConnections: 3 }
const { port } = await start(t, tls, { handlers: [], limits })

/** Milliseconds until the server closes the socket (or `giveUpMs`, then -1). */
function closedAfter (socket: Socket, giveUpMs = 5000): Promise<number> {
  const started = performance.now()
  return new Promise(resolve => {
    const timer = setTimeout(() => { socket.destroy(); resolve(-1) }, giveUpMs)
    socket.on('error', () => {})
    socket.on('close', () => { clearTimeout(timer); resolve(performance.now() - started) })
  })
}

t.test('a TCP connection that never starts the TLS handshake is closed after handshakeTimeoutMs', async (t) => {
  const socket = tcpConnect(port, '127.0.0.1')
  const ms = await closedAfter(socket)
  t.ok(ms >= 250 && ms < 2000, `closed after ${Math.round(ms)} ms`)
})

t.test('a TLS connection that never sends a request is closed after headersTimeoutMs', async (t) => {
  const socket = tlsConnect({ port, host: '127.0.0.1', ca: tls.ca.cert, servername: 'localhost' })
  await new Promise(resolve => socket.once('secureConnect', resolve))
  const ms = await closedAfter(socket)
  t.ok(ms >= 550 && ms < 2000, `closed after ${Math.round(ms)} ms`)
})

t.test('connections beyond maxConnections are closed on arrival', async (t) => {
  const open = Array.from({ length: limits.maxConnections }, () => tcpConnect(port, '127.0.0.1'))
  await Promise.all(open.map(s => new Promise(resolve => s.once('connect', resolve))))
  // Let the server accept them before the next one arrives.
  await new Promise(resolve => setTimeout(resolve, 50))
  const extra = tcpConnect(port, '127.0.0.1')
  const ms = await closedAfter(extra)
  t.ok(ms >= 0 && ms < 200, `the extra connection was closed after ${Math.round(ms)} ms`)
  for (const s of open) s.destroy()
})
