// Scenario 1, the floor: a bare node:http(s) server doing only what any JSON hook must do — read the body,
// JSON.parse it, JSON.stringify a Success response. No framework, validation, routing, logging or metrics.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { announce, childOptions, exitOnSignal, serving } from './child.js'

const options = childOptions()

function answer (req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    let text: string
    try {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { kind?: string, apiVersion?: string }
      text = JSON.stringify({ kind: String(request.kind).replace(/Request$/, 'Response'), apiVersion: request.apiVersion, status: 'Success' })
    } catch {
      res.writeHead(400).end()
      return
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    res.end(text)
  })
}

// The same keep-alive as the extension server (longer than Go's 90 s idle timeout).
const server = options.transport === 'https' ? createHttpsServer({ ...serving(options.certDir), keepAliveTimeout: 95_000 }, answer) : createHttpServer({ keepAliveTimeout: 95_000 }, answer)
server.listen(0, '127.0.0.1', () => {
  announce({ url: `${options.transport}://127.0.0.1:${(server.address() as AddressInfo).port}` })
})
exitOnSignal(() => new Promise(resolve => { server.closeAllConnections(); server.close(resolve) }))
