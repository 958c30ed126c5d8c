// Scenario 4's peers: minimal HTTPS extensions (node:https, one port per extension) with a fixed latency, so the
// client is what is measured. The last path segment names the behaviour: `sleep-<ms>` answers Success after <ms>
// (at once for 0), `dead` reads the request and never answers.
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { announce, childOptions, exitOnSignal, serving } from './child.js'

const options = childOptions()
const count = Number(options.values['ports'] ?? '1')
const answer = JSON.stringify({ kind: 'BeforeClusterCreateResponse', apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', status: 'Success', retryAfterSeconds: 0 })

const servers = Array.from({ length: count }, () => createServer({ ...serving(options.certDir), keepAliveTimeout: 95_000 }, (req, res) => {
  req.resume()
  req.on('end', () => {
    const name = (req.url ?? '').split('?')[0]?.split('/').pop() ?? ''
    if (name === 'dead') return
    const send = () => { res.writeHead(200, { 'content-length': Buffer.byteLength(answer) }).end(answer) }
    const sleep = /^sleep-(\d+)$/.exec(name)
    if (!sleep) {
      res.writeHead(404).end()
      return
    }
    const ms = Number(sleep[1])
    if (ms === 0) send()
    else setTimeout(send, ms)
  })
}))

const urls = await Promise.all(servers.map(server => new Promise<string>(resolve => {
  server.listen(0, '127.0.0.1', () => resolve(`https://127.0.0.1:${(server.address() as AddressInfo).port}`))
})))
announce({ url: urls[0], urls })
exitOnSignal(() => Promise.all(servers.map(server => new Promise(resolve => { server.closeAllConnections(); server.close(resolve) }))))
