// A healthy client calling a hook on a new TLS connection per call, one call at a time, for --duration seconds; prints
// the run as one JSON line (what the load generators report).
import { readFileSync } from 'node:fs'
import { request } from 'node:https'
import { parseArgs } from 'node:util'
import { runFromLatencies } from '../lib/stats.js'

const { values } = parseArgs({ options: { url: { type: 'string' }, body: { type: 'string' }, duration: { type: 'string', default: '3' } } })
const body = readFileSync(values.body as string)
const url = new URL(values.url as string)

function call (): Promise<boolean> {
  return new Promise(resolve => {
    const req = request(url, { method: 'POST', agent: false, rejectUnauthorized: false, headers: { 'content-length': body.length } }, res => {
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
