// Scenario 4: our runtime client (HttpRuntimeClient.callAllExtensions / callExtension) against local mock extensions.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { RESULT_MARKER, type ClientCase, type ClientCaseResult, type ClientPlan } from '../clients/plan.js'
import { nodeScript, repoRoot, type Scenario, type ScenarioContext } from '../lib/context.js'
import { callAllId, DEAD_TIMEOUT_MS, deadId, HANDLER_COUNTS, LATENCIES_MS, OVERHEAD_IDS } from '../lib/ids.js'
import { runToEnd, startServer } from '../lib/processes.js'
import { summarize } from '../lib/stats.js'
import type { CaseResult, Comparison } from '../lib/types.js'

interface Planned { case: ClientCase | { id: string }, labels: Record<string, string>, compare?: Comparison }

function planCases (ctx: ScenarioContext): Planned[] {
  const planned: Planned[] = [
    { case: { id: OVERHEAD_IDS.raw }, labels: { call: 'raw undici request', handlers: '1', latency: '0 ms', mode: '—' } },
    { case: { id: OVERHEAD_IDS.callExtension }, labels: { call: 'callExtension', handlers: '1', latency: '0 ms', mode: '—' }, compare: { kind: 'latency', baseline: OVERHEAD_IDS.raw } },
    { case: { id: OVERHEAD_IDS.callAll }, labels: { call: 'callAllExtensions', handlers: '1', latency: '0 ms', mode: '—' }, compare: { kind: 'latency', baseline: OVERHEAD_IDS.raw } }
  ]
  for (const latencyMs of LATENCIES_MS) {
    for (const handlers of HANDLER_COUNTS) {
      // With one handler, sequential and parallel are the same call.
      for (const sequential of handlers === 1 ? [false] : [false, true]) {
        planned.push({
          case: { id: callAllId(handlers, latencyMs, sequential), kind: 'callAll', handlers, latencyMs, sequential },
          labels: { call: 'callAllExtensions', handlers: String(handlers), latency: `${latencyMs} ms`, mode: sequential ? 'sequential' : 'parallel' },
          compare: { kind: 'ideal', idealMs: sequential ? handlers * latencyMs : latencyMs }
        })
      }
    }
  }
  for (const sequential of [false, true]) {
    // Sequential dead handlers cost k timeouts by design: the smoke run keeps that to one.
    for (const handlers of sequential && ctx.mode === 'smoke' ? [1] : HANDLER_COUNTS) {
      planned.push({
        case: { id: deadId(handlers, sequential), kind: 'dead', handlers, sequential },
        labels: { call: 'callAllExtensions, dead (Ignore, 1 s)', handlers: String(handlers), latency: 'never', mode: sequential ? 'sequential' : 'parallel' },
        compare: { kind: 'ideal', idealMs: sequential ? handlers * DEAD_TIMEOUT_MS : DEAD_TIMEOUT_MS }
      })
    }
  }
  return planned.filter(p => ctx.selected(p.case.id))
}

export const clientScenario: Scenario = {
  id: '4',
  name: 'Our client: callAllExtensions',
  description: 'HttpRuntimeClient (registry warmed up with one ExtensionConfig per handler, each its own mock HTTPS extension answering a ' +
    '~5 KB BeforeClusterCreate after a fixed latency) called one call at a time, as one reconcile does. Client overhead: the same ' +
    'call vs a raw undici request (stringify, POST on a keep-alive TLS connection, read, parse) to the same mock, interleaved. ' +
    'Dead handlers never answer (timeoutSeconds 1, failurePolicy Ignore); backoff is off so that every call pays for them. ' +
    '"vs baseline": p50 over the raw request, or over the ideal (the mock latency; k × latency sequentially). RSS is the client process.',
  columns: ['call', 'handlers', 'latency', 'mode'],
  rateUnit: 'calls/s',
  run: async (ctx) => {
    const planned = planCases(ctx)
    if (planned.length === 0) return []
    const mocks = await startServer({
      command: [...ctx.pinning.generator, ...nodeScript('servers/mock-extensions.ts'), '--transport', 'https', '--cert-dir', ctx.certDir, '--ports', String(Math.max(...HANDLER_COUNTS))],
      cwd: repoRoot,
      logFile: join(ctx.workDir, 'mock-extensions.log')
    })
    const results = new Map<string, CaseResult>(planned.map(p => [p.case.id, { id: p.case.id, labels: p.labels, runs: [], ...(p.compare ? { compare: p.compare } : {}) }]))
    try {
      const smoke = ctx.mode === 'smoke'
      const ids = new Set(planned.map(p => p.case.id))
      const plan: ClientPlan = {
        urls: mocks.ready['urls'] as string[],
        caFile: join(ctx.certDir, 'ca.crt'),
        repetitions: ctx.settings.repetitions,
        repS: ctx.settings.clientRepS,
        minCalls: ctx.settings.clientMinCalls,
        warmupCalls: smoke ? 1 : 5,
        cases: planned.map(p => p.case).filter((c): c is ClientCase => 'kind' in c),
        overhead: Object.fromEntries(Object.entries(OVERHEAD_IDS).filter(([, id]) => ids.has(id)))
      }
      const planFile = join(ctx.workDir, 'client-plan.json')
      writeFileSync(planFile, JSON.stringify(plan))
      const profiling = ctx.profile !== undefined && ids.has(ctx.profile.caseId)
      const nodeFlags = profiling && ctx.profile ? ['--cpu-prof', `--cpu-prof-dir=${ctx.profile.dir}`] : []
      await runToEnd([...ctx.pinning.server, ...nodeScript('clients/client-bench.ts', nodeFlags), planFile], {
        cwd: repoRoot,
        timeoutMs: 30 * 60_000,
        onLine: (line) => {
          if (!line.startsWith(RESULT_MARKER)) return
          const reported = JSON.parse(line.slice(RESULT_MARKER.length)) as ClientCaseResult
          const result = results.get(reported.id)
          if (!result) return
          result.runs = reported.runs
          result.summary = summarize(reported.runs)
          result.rssMb = reported.rssMb
          const s = result.summary
          ctx.log(`  ${result.id}: p50 ${s.p50Ms.toFixed(2)} ms, p99 ${s.p99Ms.toFixed(2)} ms, ${s.rps.toFixed(1)} calls/s, errors ${s.errors}`)
        }
      })
    } catch (err) {
      for (const result of results.values()) if (!result.summary) result.skipped = `failed: ${(err as Error).message.split('\n')[0]}`
      ctx.log(`  client scenario: ${(err as Error).message}`)
    } finally {
      await mocks.stop()
    }
    for (const result of results.values()) if (!result.summary && !result.skipped) result.skipped = 'the client process reported no result'
    return [...results.values()]
  }
}
