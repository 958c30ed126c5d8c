// Scenario 7: a healthy client's latency while 1,000 hostile sockets (idle TCP, TLS without a request, headers and a
// body a byte per second) are held against the server, over keep-alive and with a new TLS connection per call; and
// whether the server closes sockets that finish no handshake or send no request. The reference extension and
// Cluster API's Go server, each pinned to core 0 with the clients on core 1.
import { mkdtempSync } from 'node:fs'
import { connect as tcp, type Socket } from 'node:net'
import { connect as tls } from 'node:tls'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { buildCapiInterop } from '../../tools/harness/capi-interop.js'
import { ensureBuilt } from '../lib/build.js'
import { nodeScript, type Scenario, type ScenarioContext } from '../lib/context.js'
import { hostileClosedId, hostileId } from '../lib/ids.js'
import { runToEnd, startServer } from '../lib/processes.js'
import { cliCommand } from '../lib/shipped.js'
import { summarize } from '../lib/stats.js'
import type { CaseResult, Run } from '../lib/types.js'

const HOSTILE = 1000
/** Sockets of each idle kind whose closing is timed, and how long to wait for it. */
const PROBES = 20
const CLOSE_WAIT_MS = 15_000

interface System { key: string, label: string, command: () => Promise<string[] | undefined>, readyLine?: RegExp }

function systems (ctx: ScenarioContext): System[] {
  return [
    {
      key: 'ours',
      label: 'runtime-sdk serve (reference extension)',
      readyLine: /^serving .* at (https:\/\/\S+)$/,
      command: async () => {
        ensureBuilt()
        return cliCommand('serve', ['--port', '0', '--host', '127.0.0.1', '--log-level', 'warn',
          '--tls-cert-file', join(ctx.certDir, 'tls.crt'), '--tls-private-key-file', join(ctx.certDir, 'tls.key')])
      }
    },
    {
      key: 'capi-go',
      label: 'Cluster API Go server',
      command: async () => {
        const bin = await buildCapiInterop()
        return bin === undefined ? undefined : [join(bin, 'extension'), '--port', '0', '--cert-dir', mkdtempSync(join(ctx.workDir, 'hostile-go-'))]
      }
    }
  ]
}

/** Opens idle TCP and idle TLS sockets; a run whose requests are the sockets closed, errors those still open, max the last close. */
async function idleSocketsClosed (port: number): Promise<Run> {
  const started = performance.now()
  const closedAt = await Promise.all(Array.from({ length: 2 * PROBES }, (_, i) => new Promise<number | undefined>(resolve => {
    const socket: Socket = i % 2 === 0 ? tcp(port, '127.0.0.1') : tls({ port, host: '127.0.0.1', rejectUnauthorized: false })
    const timer = setTimeout(() => { socket.destroy(); resolve(undefined) }, CLOSE_WAIT_MS)
    socket.on('error', () => {})
    socket.on('close', () => { clearTimeout(timer); resolve(performance.now() - started) })
  })))
  const closed = closedAt.filter((ms): ms is number => ms !== undefined)
  const last = closed.length > 0 ? Math.max(...closed) : NaN
  return { requests: closed.length, durationS: CLOSE_WAIT_MS / 1000, rps: 0, p50Ms: last, p99Ms: last, maxMs: last, errors: closedAt.length - closed.length, non2xx: 0 }
}

export const hostileScenario: Scenario = {
  id: '7',
  name: 'Hostile clients',
  description: `A healthy client calls BeforeClusterCreate (5 KB) while ${HOSTILE.toLocaleString('en-US')} hostile sockets are held open (a quarter ` +
    'each: idle TCP, TLS without a request, headers and a body a byte per second; a closed one is reopened after 1 s): wrk over 10 ' +
    'keep-alive connections, and one call at a time on a new TLS connection each. Compared with the same client without them, ' +
    'in rounds that alternate without and with them (medians of the rounds). ' +
    `Then ${PROBES} idle TCP and ${PROBES} idle TLS sockets: how many the server closes within ${CLOSE_WAIT_MS / 1000} s (max: the last close, in s).`,
  columns: ['system', 'client', 'sockets'],
  rateUnit: 'req/s',
  run: async (ctx) => {
    const results: CaseResult[] = []
    const body = ctx.workloads.find(w => w.id === 'bcc-5k')
    if (!body) return results
    const durationS = Math.max(ctx.settings.durationS, 2)
    for (const system of systems(ctx)) {
      const command = await system.command().catch(() => undefined)
      const label = (client: string, sockets: string) => ({ system: system.label, client, sockets })
      if (command === undefined) {
        results.push({ id: hostileId(system.key, 'keep-alive', false), labels: label('wrk, 10 keep-alive connections', 'none'), runs: [], skipped: 'not available (go is needed for the Go server)' })
        continue
      }
      const server = await startServer({ command: [...ctx.pinning.server, ...command], logFile: join(ctx.workDir, `hostile-${system.key}.log`), ...(system.readyLine ? { readyLine: system.readyLine } : {}) })
      try {
        const url = new URL(body.path, server.ready.url).toString()
        const port = Number(new URL(server.ready.url).port)
        const keepAlive = () => ctx.generator.run({ url, bodyFile: body.bodyFile, connections: 10, durationS, prefix: ctx.pinning.generator })
        const fresh = async () => JSON.parse((await runToEnd([...ctx.pinning.generator, ...nodeScript('clients/fresh-connections.ts'), '--url', url, '--body', body.bodyFile, '--duration', String(durationS)])).trim().split('\n').pop() as string) as Run
        if (ctx.settings.warmupS > 0) await ctx.generator.run({ url, bodyFile: body.bodyFile, connections: 10, durationS: ctx.settings.warmupS, prefix: ctx.pinning.generator })
        const measured: Array<[string, 'keep-alive' | 'new-connection', () => Promise<Run>]> = [
          ['wrk, 10 keep-alive connections', 'keep-alive', keepAlive],
          ['a new TLS connection per call', 'new-connection', fresh]
        ]
        // A p99 of one 3 s run moves by half between runs with no hostile socket at all, so the ratio compares
        // medians of rounds that alternate without and with the hostile sockets.
        const runs = new Map<string, Run[]>()
        const record = async (hostile: boolean) => {
          for (const [, connection, run] of measured) {
            const id = hostileId(system.key, connection, hostile)
            const done = runs.get(id) ?? []
            done.push(await run())
            runs.set(id, done)
          }
        }
        for (let round = 0; round < ctx.settings.repetitions; round++) {
          await record(false)
          const holder = await startServer({ command: [...ctx.pinning.generator, ...nodeScript('clients/hostile-sockets.ts'), '--port', String(port), '--count', String(HOSTILE), '--path', new URL(url).pathname], logFile: join(ctx.workDir, `hostile-holder-${system.key}.log`) })
          try {
            await sleep(1000)
            await record(true)
          } finally {
            await holder.stop()
          }
          // The server closes the holder's sockets before the next round's baseline.
          await sleep(1000)
        }
        for (const hostile of [false, true]) {
          for (const [client, connection] of measured) {
            const id = hostileId(system.key, connection, hostile)
            results.push({
              id,
              labels: label(client, hostile ? `${HOSTILE.toLocaleString('en-US')} hostile` : 'none'),
              runs: runs.get(id) ?? [],
              ...(hostile ? { compare: { kind: 'latency' as const, baseline: hostileId(system.key, connection, false) } } : {})
            })
          }
        }
        // Go's server closes neither (it has no such timeout): only ours is probed, so a socket left open is an error.
        if (system.key === 'ours') results.push({ id: hostileClosedId(system.key), labels: label('idle sockets', 'closed?'), runs: [await idleSocketsClosed(port)] })
      } finally {
        await server.stop()
      }
    }
    for (const c of results) {
      if (c.runs.length > 0) c.summary = summarize(c.runs)
      ctx.log(`  ${c.id}: ${c.summary ? `p99 ${c.summary.p99Ms.toFixed(2)} ms, ${c.summary.requests} ok, ${c.summary.errors} errors` : c.skipped}`)
    }
    return results
  }
}
