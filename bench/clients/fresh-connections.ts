// A healthy client calling a server on a new connection per call (TLS for an https URL), one call at a time, for
// --duration seconds: a POST of --body, or a GET without one, with each --header 'name: value'; prints the run as one
// JSON line (what the load generators report).
import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { parseArgs } from 'node:util'
import { runFromLatencies } from '../lib/stats.js'

const { values } = parseArgs({ options: { url: { type: 'string' }, body: { type: 'string' }, header: { type: 'string', multiple: true }, duration: { type: 'string', default: '3' } } })
const body = values.body !== undefined ? readFileSync(values.body) : undefined
const url = new URL(values.url as string)
const headers: Record<string, string | number> = Object.fromEntries((values.header ?? []).map(h => [h.slice(0, h.indexOf(':')).trim(), h.slice(h.indexOf(':') + 1).trim()]))
if (body) headers['content-length'] = body.length
// node:http's request takes https's options and ignores the TLS ones.
const request: typeof httpsRequest = url.protocol === 'https:' ? httpsRequest : httpRequest

function call (): Promise<boolean> {
  return new Promise(resolve => {
    const req = request(url, { method: body ? 'POST' : 'GET', agent: false, rejectUnauthorized: false, headers }, res => {
      res.resume()
      res.on('end', () => resolve(res.statusCode === 200))
    })
    req.on('error', () => resolve(false))
    req.end(body)
  })
}

const latencies: number[] = []
let errors = 0
const durationS = Number(values.duration)
const end = performance.now() + durationS * 1000
while (performance.now() < end) {
  const started = performance.now()
  if (await call()) latencies.push(performance.now() - started)
  else errors++
}
process.stdout.write(`${JSON.stringify(runFromLatencies(latencies, durationS, errors))}\n`)
