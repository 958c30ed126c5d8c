// Scenario 6: what `runtime-sdk serve` (the reference extension, built) costs at rest: its resident set once idle,
// the time from spawn to its first answered call, and its resident set after a storm of fuzzed bodies.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:https'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { ensureBuilt } from '../lib/build.js'
import type { Scenario, ScenarioContext } from '../lib/context.js'
import { mulberry32 } from '../../tools/harness/seeded-random.js'
import { fuzzedBody } from '../lib/fuzz.js'
import { FOOTPRINT_IDS } from '../lib/ids.js'
import { parseRssMb } from '../lib/parse.js'
import { startServer } from '../lib/processes.js'
import { cliCommand } from '../lib/shipped.js'
import { median } from '../lib/stats.js'
import type { CaseResult, Run } from '../lib/types.js'

const API = 'hooks.runtime.cluster.x-k8s.io/v1alpha1'
const DISCOVERY = JSON.stringify({ kind: 'DiscoveryRequest', apiVersion: API })

function serveCommand (ctx: ScenarioContext, port: number): string[] {
  return [...ctx.pinning.server, ...cliCommand('serve', ['--port', String(port), '--host', '127.0.0.1', '--log-level', 'warn',
    '--tls-cert-file', join(ctx.certDir, 'tls.crt'), '--tls-private-key-file', join(ctx.certDir, 'tls.key')])]
}

function post (url: string, path: string, body: string, agent: Agent | false): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, url), { method: 'POST', agent, ca: undefined, rejectUnauthorized: false }, res => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(body)
  })
}

function rssMb (pid: number): number | undefined {
  return parseRssMb(readFileSync(`/proc/${pid}/status`, 'utf8'))
}

const single = (ms: number, requests = 1, errors = 0): Run => ({ requests, durationS: ms / 1000, rps: requests / (ms / 1000), p50Ms: ms, p99Ms: ms, maxMs: ms, errors, non2xx: 0 })

const READY = /^serving .* at (https:\/\/\S+)$/m

/** Milliseconds from spawn to the first answered Discovery call (polled from the moment serve says it listens). */
async function timeToFirstAnswer (ctx: ScenarioContext): Promise<number> {
  const started = performance.now()
  const [file, ...args] = serveCommand(ctx, 0) as [string, ...string[]]
  const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  const listening = new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      const url = READY.exec(stderr)?.[1]
      if (url !== undefined) resolve(url)
    })
    child.once('exit', code => reject(new Error(`serve exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''}`)))
  })
  try {
    const url = await listening
    for (;;) {
      if (await post(url, `/${API}/discovery`, DISCOVERY, false).catch(() => 0) === 200) return performance.now() - started
      if (performance.now() - started > 10_000) throw new Error('serve did not answer within 10 s')
      await sleep(1)
    }
  } finally {
    child.kill('SIGKILL')
    await new Promise(resolve => child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve))
  }
}

export const footprintScenario: Scenario = {
  id: '6',
  name: 'Footprint of runtime-sdk serve',
  description: 'The built `runtime-sdk serve` with the reference extension and the image\'s NODE_OPTIONS and GLIBC_TUNABLES, pinned like the servers: its RSS after a few calls ' +
    'and 30 s at rest (V8 returns what the calls left after some seconds idle), the time from spawn to its first answered call ' +
    '(median of 5 starts), and its RSS after 20,000 fuzzed hook bodies (truncated, corrupted, oversized, deeply nested; one in ' +
    'fifty up to 1 MB) over 10 keep-alive connections, again after 30 s at rest.',
  columns: ['measure'],
  rateUnit: 'calls/s',
  run: async (ctx) => {
    ensureBuilt()
    const smoke = ctx.mode === 'smoke'
    // V8's memory reducer returns what the calls left some seconds after the last one: 8-30 s on a 2-core machine.
    const rest = smoke ? 1000 : 30_000
    const results: CaseResult[] = []
    const startups: number[] = []
    for (let i = 0; i < (smoke ? 1 : 5); i++) startups.push(await timeToFirstAnswer(ctx))
    results.push({ id: FOOTPRINT_IDS.startup, labels: { measure: 'spawn to first answered call' }, runs: startups.map(ms => single(ms)), summary: { ...single(median(startups)), repetitions: startups.length } })

    const server = await startServer({ command: serveCommand(ctx, 0), logFile: join(ctx.workDir, 'footprint.log'), readyLine: READY })
    try {
      const url = server.ready.url
      const valid = readFileSync(ctx.workloads.find(w => w.id === 'bcc-5k')?.bodyFile ?? '', 'utf8')
      const agent = new Agent({ keepAlive: true, maxSockets: 10, rejectUnauthorized: false })
      for (let i = 0; i < 10; i++) await post(url, `/${API}/beforeclustercreate/before-cluster-create?timeout=10s`, valid, agent)
      await sleep(rest)
      const idle = rssMb(server.pid)
      results.push({ id: FOOTPRINT_IDS.idle, labels: { measure: `RSS after 10 calls and ${rest / 1000} s at rest` }, runs: [single(rest, 10)], summary: { ...single(rest, 10), repetitions: 1 }, ...(idle !== undefined ? { rssMb: idle } : {}) })

      const total = smoke ? 500 : 20_000
      const next = mulberry32(17)
      const started = performance.now()
      let sent = 0
      let errors = 0
      await Promise.all(Array.from({ length: 10 }, async () => {
        while (sent < total) {
          sent++
          await post(url, `/${API}/beforeclustercreate/before-cluster-create?timeout=10s`, fuzzedBody(valid, next), agent).catch(() => { errors++ })
        }
      }))
      const stormMs = performance.now() - started
      agent.destroy()
      await sleep(rest)
      const after = rssMb(server.pid)
      const run = { ...single(stormMs / total, total, errors), durationS: stormMs / 1000, rps: total / (stormMs / 1000) }
      results.push({ id: FOOTPRINT_IDS.storm, labels: { measure: `RSS after ${total.toLocaleString('en-US')} fuzzed bodies and ${rest / 1000} s at rest` }, runs: [run], summary: { ...run, repetitions: 1 }, ...(after !== undefined ? { rssMb: after } : {}) })
    } finally {
      await server.stop()
    }
    for (const c of results) ctx.log(`  ${c.id}: ${c.summary?.p50Ms.toFixed(0)} ms${c.rssMb !== undefined ? `, RSS ${c.rssMb.toFixed(0)} MB` : ''}`)
    return results
  }
}
