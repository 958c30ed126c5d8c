// Scenario 7: a healthy client's latency while 1,000 hostile sockets (idle TCP, TLS without a request, headers and a
// body a byte per second) are held against the server, over keep-alive and with a new connection per call; and
// whether the server closes sockets that finish no handshake or send no request. For each of the project's servers
// (the extension server, the controller's endpoint plain and with --metrics-secure, the conversion webhook; see
// hostile-servers.ts) and Cluster API's Go server, each pinned to core 0 with the clients on core 1.
import { connect as tcp, type Socket } from 'node:net'
import { connect as tls } from 'node:tls'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { nodeScript, type Scenario } from '../lib/context.js'
import { hostileClosedId, type HostileConnection, hostileId } from '../lib/ids.js'
import type { LoadRequest } from '../lib/load.js'
import { runToEnd, startServer } from '../lib/processes.js'
import { summarize } from '../lib/stats.js'
import type { CaseResult, Run } from '../lib/types.js'
import { hostileServers } from './hostile-servers.js'

const HOSTILE = 1000
/** Sockets of each idle kind whose closing is timed, and how long to wait for it. */
const PROBES = 20
const CLOSE_WAIT_MS = 15_000

/** Opens idle TCP (and on a TLS server idle TLS) sockets; a run whose requests are the sockets closed, errors those still open, max the last close. */
async function idleSocketsClosed (port: number, secure: boolean): Promise<Run> {
  const started = performance.now()
  const closedAt = await Promise.all(Array.from({ length: secure ? 2 * PROBES : PROBES }, (_, i) => new Promise<number | undefined>(resolve => {
    const socket: Socket = i % 2 === 0 || !secure ? tcp(port, '127.0.0.1') : tls({ port, host: '127.0.0.1', rejectUnauthorized: false })
    const timer = setTimeout(() => { socket.destroy(); resolve(undefined) }, CLOSE_WAIT_MS)
    socket.on('error', () => {})
    socket.on('close', () => { clearTimeout(timer); resolve(performance.now() - started) })
  })))
  const closed = closedAt.filter((ms): ms is number => ms !== undefined)
  const last = closed.length > 0 ? Math.max(...closed) : NaN
  return { requests: closed.length, durationS: CLOSE_WAIT_MS / 1000, rps: 0, p50Ms: last, p99Ms: last, maxMs: last, errors: closedAt.length - closed.length, non2xx: 0 }
}

/** The arguments of clients/fresh-connections.ts for a request. */
function freshArgs (request: LoadRequest): string[] {
  return ['--url', request.url, ...(request.bodyFile !== undefined ? ['--body', request.bodyFile] : []),
    ...Object.entries(request.headers ?? {}).flatMap(([name, value]) => ['--header', `${name}: ${value}`])]
}

export const hostileScenario: Scenario = {
  id: '7',
  name: 'Hostile clients',
  description: `A healthy client calls each server while ${HOSTILE.toLocaleString('en-US')} hostile sockets are held open (in equal shares: ` +
    'idle TCP, TLS without a request on TLS servers, headers and a body a byte per second; a closed one is reopened after 1 s): wrk over 10 ' +
    'keep-alive connections, and one call at a time on a new connection each. Compared with the same client without them, ' +
    'in rounds that alternate without and with them (medians of the rounds). Servers: `runtime-sdk serve` (the reference extension, ' +
    'BeforeClusterCreate 5 KB) and Cluster API\'s Go server; `runtime-sdk controller --extension-configs <empty dir>`\'s endpoint ' +
    '(plain HTTP); that endpoint with --metrics-secure (bench/servers/secure-endpoint.ts: the CLI needs a Kubernetes API for it, a stub allows ' +
    'every review); the conversion webhook (bench/servers/webhook.ts: the CLI listens on every interface). ' +
    `Then ${PROBES} idle TCP and, on TLS servers, ${PROBES} idle TLS sockets: how many each of ours closes within ${CLOSE_WAIT_MS / 1000} s (max: the last close, in s).`,
  columns: ['system', 'request', 'client', 'sockets'],
  rateUnit: 'req/s',
  run: async (ctx) => {
    const results: CaseResult[] = []
    const hook = ctx.workloads.find(w => w.id === 'bcc-5k')
    if (!hook) return results
    const durationS = Math.max(ctx.settings.durationS, 2)
    for (const system of hostileServers(ctx, { path: hook.path, bodyFile: hook.bodyFile, label: 'POST BeforeClusterCreate 5 KB' })) {
      const clients: Record<HostileConnection, string> = { 'keep-alive': 'wrk, 10 keep-alive connections', 'new-connection': `a new ${system.tls ? 'TLS' : 'TCP'} connection per call` }
      const label = (connection: HostileConnection | undefined, sockets: string) =>
        ({ system: system.label, request: system.request.label, client: connection ? clients[connection] : 'idle sockets', sockets })
      // With --case, only the servers asked for (e.g. --case hostile/webhook).
      const ids = [hostileClosedId(system.key), ...[false, true].flatMap(hostile => [hostileId(system.key, 'keep-alive', hostile), hostileId(system.key, 'new-connection', hostile)])]
      if (!ids.some(id => ctx.selected(id))) continue
      const command = await system.command()
      if (command === undefined) {
        results.push({ id: hostileId(system.key, 'keep-alive', false), labels: label('keep-alive', 'none'), runs: [], skipped: system.unavailable ?? 'not available' })
        continue
      }
      const server = await startServer({ command: [...ctx.pinning.server, ...command], logFile: join(ctx.workDir, `hostile-${system.key}.log`), ...(system.readyLine ? { readyLine: system.readyLine } : {}) })
      try {
        const { bodyFile, headers } = system.request
        const request: LoadRequest = { url: new URL(system.request.path, server.ready.url).toString(), bodyFile, headers }
        const port = Number(new URL(server.ready.url).port)
        const keepAlive = (seconds: number) => ctx.generator.run({ ...request, connections: 10, durationS: seconds, prefix: ctx.pinning.generator })
        const fresh = async () => JSON.parse((await runToEnd([...ctx.pinning.generator, ...nodeScript('clients/fresh-connections.ts'), ...freshArgs(request), '--duration', String(durationS)])).trim().split('\n').pop() as string) as Run
        if (ctx.settings.warmupS > 0) await keepAlive(ctx.settings.warmupS)
        const measured: Array<[HostileConnection, () => Promise<Run>]> = [['keep-alive', () => keepAlive(durationS)], ['new-connection', fresh]]
        // A p99 of one 3 s run moves by half between runs with no hostile socket at all, so the ratio compares
        // medians of rounds that alternate without and with the hostile sockets.
        const runs = new Map<string, Run[]>()
        const record = async (hostile: boolean) => {
          for (const [connection, run] of measured) {
            const id = hostileId(system.key, connection, hostile)
            runs.set(id, [...runs.get(id) ?? [], await run()])
          }
        }
        for (let round = 0; round < ctx.settings.repetitions; round++) {
          await record(false)
          const holder = await startServer({
            command: [...ctx.pinning.generator, ...nodeScript('clients/hostile-sockets.ts'), '--port', String(port), '--count', String(HOSTILE),
              '--path', new URL(request.url).pathname, '--transport', system.tls ? 'https' : 'http'],
            logFile: join(ctx.workDir, `hostile-holder-${system.key}.log`)
          })
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
          for (const [connection] of measured) {
            const id = hostileId(system.key, connection, hostile)
            results.push({
              id,
              labels: label(connection, hostile ? `${HOSTILE.toLocaleString('en-US')} hostile` : 'none'),
              runs: runs.get(id) ?? [],
              ...(hostile ? { compare: { kind: 'latency' as const, baseline: hostileId(system.key, connection, false) } } : {})
            })
          }
        }
        // A socket left open is an error, so only servers meant to close them are probed.
        if (system.probed) results.push({ id: hostileClosedId(system.key), labels: label(undefined, 'closed?'), runs: [await idleSocketsClosed(port, system.tls)] })
      } finally {
        await server.stop()
      }
    }
    for (const c of results) {
      if (c.runs.length > 0) c.summary = summarize(c.runs)
      ctx.log(`  ${c.id}: ${c.summary ? `p99 ${c.summary.p99Ms.toFixed(2)} ms, ${c.summary.requests} ok, ${c.summary.errors} errors, ${c.summary.non2xx} non-2xx` : c.skipped}`)
    }
    return results
  }
}
