// The case matrix shared by the server scenarios (1-3): every workload over each transport at 1 and 10 connections.
// The systems are measured side by side: for one workload, transport and connection count, each system's server is
// started (its own process, so its RSS is its own) and warmed up, then the repetitions alternate between the systems
// (floor, ours, Go, floor, ours, Go, ...). On a shared machine, load from elsewhere then hits all of them alike and
// the ratios hold even when the absolute numbers drift.
import { join } from 'node:path'
import { repoRoot, type ScenarioContext } from './context.js'
import { CONNECTIONS, serverCaseId, type Transport } from './ids.js'
import { cpuSeconds, sampleRss, startServer, type ServerProcess } from './processes.js'
import { summarize } from './stats.js'
import type { CaseResult, Run, ServerUnderTest } from './types.js'
import type { Workload } from './workloads.js'

export const TRANSPORT_LABEL: Record<Transport, string> = { http: 'HTTP', https: 'HTTPS keep-alive' }

type BodyWorkload = Workload & { bodyFile: string }

interface Participant { sut: ServerUnderTest, result: CaseResult, server?: ServerProcess, peakRss?: number }

/** Runs every selected case of the systems, side by side; returns each system's cases in the order given. */
export async function runServerCases (ctx: ScenarioContext, suts: readonly ServerUnderTest[]): Promise<CaseResult[][]> {
  const results = suts.map((): CaseResult[] => [])
  const reasons = new Map<ServerUnderTest, string | undefined>()
  const unavailable = async (sut: ServerUnderTest): Promise<string | undefined> => {
    if (!reasons.has(sut)) {
      try {
        reasons.set(sut, await sut.unavailable?.())
      } catch (err) {
        reasons.set(sut, `unavailable: ${(err as Error).message.split('\n')[0]}`)
      }
    }
    return reasons.get(sut)
  }
  for (const workload of ctx.workloads) {
    for (const transport of ['http', 'https'] as const) {
      // 1 connection is one controller worker calling (Cluster API's shape); 10 is a busy extension.
      for (const connections of CONNECTIONS) {
        const participants: Participant[] = []
        for (const [i, sut] of suts.entries()) {
          const id = serverCaseId(sut.key, workload.id, transport, connections)
          if (!sut.transports.includes(transport) || !ctx.selected(id) || sut.only?.(workload, transport, connections) === false) continue
          const compare = sut.compare?.(workload, transport, connections)
          const result: CaseResult = {
            id,
            labels: { system: sut.system, workload: workload.label, transport: TRANSPORT_LABEL[transport], connections: String(connections) },
            runs: [],
            ...(compare ? { compare } : {})
          }
          results[i]?.push(result)
          const reason = await unavailable(sut)
          if (reason) result.skipped = reason
          else participants.push({ sut, result })
        }
        // Pinned systems are measured together, then those given all cores, each group against itself.
        for (const allCores of [false, true]) {
          const group = participants.filter(p => (p.sut.allCores ?? false) === allCores)
          if (group.length > 0) await measureSideBySide(ctx, workload, transport, connections, group)
        }
      }
    }
  }
  return results
}

async function measureSideBySide (ctx: ScenarioContext, workload: BodyWorkload, transport: Transport, connections: number, participants: Participant[]): Promise<void> {
  const fail = (p: Participant, err: unknown) => {
    p.result.skipped = `failed: ${(err as Error).message.split('\n')[0]}`
    ctx.log(`  ${p.result.id}: ${(err as Error).message}`)
  }
  const pinned = !(participants[0]?.sut.allCores ?? false)
  const load = (p: Participant, durationS: number): Promise<Run> => ctx.generator.run({
    url: new URL(workload.path, p.server?.ready.url).toString(), bodyFile: workload.bodyFile, connections, durationS, prefix: pinned ? ctx.pinning.generator : []
  })
  const profiling = (p: Participant) => ctx.profile?.caseId === p.result.id
  try {
    for (const p of participants) {
      try {
        // Every thread (the tsx loader's too) writes a profile into this directory; the main thread's has thread id 0.
        const nodeFlags = profiling(p) && ctx.profile ? ['--cpu-prof', `--cpu-prof-dir=${ctx.profile.dir}`] : []
        const command = [...(pinned ? ctx.pinning.server : []), ...await p.sut.command(transport, nodeFlags)]
        p.server = await startServer({ command, cwd: repoRoot, logFile: join(ctx.workDir, `${p.result.id.replace(/\//g, '_')}.log`), ...(p.sut.readyLine ? { readyLine: p.sut.readyLine } : {}) })
        if (ctx.settings.warmupS > 0) await load(p, ctx.settings.warmupS)
      } catch (err) {
        fail(p, err)
      }
    }
    const repetitions = participants.some(profiling) ? 1 : ctx.settings.repetitions
    for (let i = 0; i < repetitions; i++) {
      for (const p of participants) {
        if (!p.server || p.result.skipped) continue
        const rss = sampleRss(p.server.pid)
        try {
          const cpuBefore = cpuSeconds(p.server.pid)
          const run = await load(p, Math.max(ctx.settings.durationS, workload.minDurationS))
          const cpuAfter = cpuSeconds(p.server.pid)
          if (cpuBefore !== undefined && cpuAfter !== undefined && run.requests > 0) run.cpuUsPerRequest = (cpuAfter - cpuBefore) * 1e6 / run.requests
          p.result.runs.push(run)
        } catch (err) {
          fail(p, err)
        } finally {
          const peak = rss.stop()
          if (peak !== undefined) p.peakRss = Math.max(p.peakRss ?? 0, peak)
        }
      }
    }
  } finally {
    await Promise.all(participants.map(p => p.server?.stop()))
  }
  for (const p of participants) {
    if (p.result.skipped || p.result.runs.length === 0) continue
    p.result.summary = summarize(p.result.runs)
    if (p.peakRss !== undefined) p.result.rssMb = p.peakRss
    const s = p.result.summary
    ctx.log(`  ${p.result.id}: ${s.rps.toFixed(0)} req/s, ${s.cpuUsPerRequest?.toFixed(0) ?? '?'} µs CPU/req, p50 ${s.p50Ms.toFixed(2)} ms, p99 ${s.p99Ms.toFixed(2)} ms, errors ${s.errors}/${s.non2xx}${p.peakRss !== undefined ? `, RSS ${p.peakRss.toFixed(0)} MB` : ''}`)
  }
}
