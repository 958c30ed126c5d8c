// The case matrix shared by the server scenarios (1-3): every workload over each transport at 1 and 10
// connections, a fresh server process per case (so its RSS is its own), warm-up, then the measured repetitions.
import { join } from 'node:path'
import { repoRoot, type ScenarioContext } from './context.js'
import { CONNECTIONS, serverCaseId, type Transport } from './ids.js'
import { sampleRss, startServer } from './processes.js'
import { summarize } from './stats.js'
import type { CaseResult, Comparison, Run } from './types.js'
import type { Workload } from './workloads.js'

export interface ServerUnderTest {
  /** key starts every case id, e.g. ours/bcc-5k/https/c10. */
  key: string
  /** system is the table's label. */
  system: string
  transports: readonly Transport[]
  /** command starts the server for a transport; nodeFlags (e.g. --cpu-prof) apply to Node servers only. */
  command: (transport: Transport, nodeFlags: string[]) => Promise<string[]>
  /** compare says what a case is measured against (scenario 1 is the baseline of the others). */
  compare?: (workload: Workload, transport: Transport, connections: number) => Comparison | undefined
  /** unavailable, when set, says why no case can run (e.g. `go` is not installed). */
  unavailable?: () => Promise<string | undefined>
}

export const TRANSPORT_LABEL: Record<Transport, string> = { http: 'HTTP', https: 'HTTPS keep-alive' }

export async function runServerCases (ctx: ScenarioContext, sut: ServerUnderTest): Promise<CaseResult[]> {
  const planned = ctx.workloads.flatMap(workload => sut.transports.flatMap(transport =>
    // 1 connection is one controller worker calling (Cluster API's shape); 10 is a busy extension.
    CONNECTIONS.map(connections => ({ workload, transport, connections, id: serverCaseId(sut.key, workload.id, transport, connections) }))))
    .filter(p => ctx.selected(p.id))
  if (planned.length === 0) return []
  let reason: string | undefined
  try {
    reason = await sut.unavailable?.()
  } catch (err) {
    reason = `unavailable: ${(err as Error).message.split('\n')[0]}`
  }
  const results: CaseResult[] = []
  for (const { workload, transport, connections, id } of planned) {
    const compare = sut.compare?.(workload, transport, connections)
    const result: CaseResult = {
      id,
      labels: { system: sut.system, workload: workload.label, transport: TRANSPORT_LABEL[transport], connections: String(connections) },
      runs: [],
      ...(compare ? { compare } : {})
    }
    results.push(result)
    if (reason) {
      result.skipped = reason
      continue
    }
    try {
      await measureCase(ctx, sut, workload, transport, connections, result)
    } catch (err) {
      result.skipped = `failed: ${(err as Error).message.split('\n')[0]}`
      ctx.log(`  ${id}: ${(err as Error).message}`)
    }
  }
  return results
}

async function measureCase (ctx: ScenarioContext, sut: ServerUnderTest, workload: Workload & { bodyFile: string },
  transport: Transport, connections: number, result: CaseResult): Promise<void> {
  const profiling = ctx.profile?.caseId === result.id
  // Every thread (the tsx loader's too) writes a profile into this directory; the main thread's has thread id 0.
  const nodeFlags = profiling && ctx.profile ? ['--cpu-prof', `--cpu-prof-dir=${ctx.profile.dir}`] : []
  const command = [...ctx.pinning.server, ...await sut.command(transport, nodeFlags)]
  const server = await startServer({ command, cwd: repoRoot, logFile: join(ctx.workDir, `${result.id.replace(/\//g, '_')}.log`) })
  try {
    const url = new URL(workload.path, server.ready.url).toString()
    const load = (durationS: number): Promise<Run> => ctx.generator.run({ url, bodyFile: workload.bodyFile, connections, durationS, prefix: ctx.pinning.generator })
    if (ctx.settings.warmupS > 0) await load(ctx.settings.warmupS)
    const rss = sampleRss(server.pid)
    const repetitions = profiling ? 1 : ctx.settings.repetitions
    for (let i = 0; i < repetitions; i++) result.runs.push(await load(Math.max(ctx.settings.durationS, workload.minDurationS)))
    const peak = rss.stop()
    if (peak !== undefined) result.rssMb = peak
    result.summary = summarize(result.runs)
    const s = result.summary
    ctx.log(`  ${result.id}: ${s.rps.toFixed(0)} req/s, p50 ${s.p50Ms.toFixed(2)} ms, p99 ${s.p99Ms.toFixed(2)} ms, errors ${s.errors}/${s.non2xx}${peak !== undefined ? `, RSS ${peak.toFixed(0)} MB` : ''}`)
  } finally {
    await server.stop()
  }
}
