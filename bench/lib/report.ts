// The markdown report of a run: what machine and load it ran on, the targets, two summary tables, and each
// scenario's full table. Pure functions of a BenchResult, so that they are unit-tested.
import { formatMb, formatMs, formatRate } from './format.js'
import { callAllId, CONNECTIONS, deadId, HANDLER_COUNTS, LATENCIES_MS, serverCaseId, WORKLOAD_IDS, type Transport } from './ids.js'
import type { BenchResult, CaseResult, RunMeta, ScenarioResult, Target } from './types.js'

const COLUMN_TITLES: Record<string, string> = { connections: 'Conns' }

function table (header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

function title (key: string): string {
  return COLUMN_TITLES[key] ?? `${key[0]?.toUpperCase() ?? ''}${key.slice(1)}`
}

/** The "vs baseline" cell: a throughput ratio, or the p50 above a baseline case or above the ideal latency. */
export function comparisonText (c: CaseResult, byId: ReadonlyMap<string, CaseResult>): string {
  if (!c.compare || !c.summary) return ''
  const s = c.summary
  switch (c.compare.kind) {
    case 'throughput': {
      const base = byId.get(c.compare.baseline)?.summary
      return base ? `${(s.rps / base.rps).toFixed(2)}× ${baselineName(c.compare.baseline)}` : `no ${c.compare.baseline}`
    }
    case 'latency': {
      const base = byId.get(c.compare.baseline)?.summary
      return base ? `${signed(s.p50Ms - base.p50Ms)} ms vs ${baselineName(c.compare.baseline)}` : `no ${c.compare.baseline}`
    }
    case 'ideal':
      return `${signed(s.p50Ms - c.compare.idealMs)} ms over ${formatMs(c.compare.idealMs)} ms`
  }
}

function baselineName (id: string): string {
  return id.startsWith('floor/') ? 'floor' : id.split('/').pop() ?? id
}

function signed (ms: number): string {
  return `${ms >= 0 ? '+' : '−'}${formatMs(Math.abs(ms))}`
}

export function metaLines (meta: RunMeta): string[] {
  const load = (l: number[]) => l.map(v => v.toFixed(2)).join(' / ')
  const s = meta.settings
  // Only the start tells whether something else ran: at the end the 1-minute average includes the bench's own load,
  // which keeps both cores of a 2-core machine busy.
  const busy = (meta.loadAverage.start[0] ?? 0) > meta.cores / 2
  return [
    `- Date: ${meta.date} · ${meta.mode} run · ${(meta.elapsedS / 60).toFixed(1)} min · commit ${meta.commit}`,
    `- Machine: ${meta.cores} cores (${meta.cpuModel}) · Node ${meta.node} · load average (1/5/15 min) ${load(meta.loadAverage.start)} at the start, ${load(meta.loadAverage.end)} at the end (the bench's own load included)`,
    `- Load: ${meta.generator}, ${meta.pinned ? 'server pinned to core 0 and load generator to core 1 (taskset)' : 'not pinned'}; ` +
      `${s.repetitions} repetition(s) of ${s.durationS} s per server case after ${s.warmupS} s of warm-up; client repetitions of ≥ ${s.clientRepS} s and ≥ ${s.clientMinCalls} calls; medians of the repetitions`,
    ...(busy ? ['- Note: the machine was busy when the run started (1-minute load average above half its cores): absolute numbers are noisy; compare ratios, and rerun on a quiet machine'] : [])
  ]
}

export function targetsTable (targets: readonly Target[]): string {
  return table(['Target', 'Goal', 'Measured', 'Result'], targets.map(t => [t.title, t.goal, t.measured, t.pass === undefined ? '—' : t.pass ? 'PASS' : '**MISS**']))
}

/** The floor, our server (trivial handlers and the reference extension) and the Go server side by side. */
export function serverSummaryTable (cases: readonly CaseResult[]): string {
  const byId = new Map(cases.map(c => [c.id, c]))
  const rows: string[][] = []
  for (const workload of WORKLOAD_IDS) {
    for (const transport of ['http', 'https'] as Transport[]) {
      for (const connections of CONNECTIONS) {
        const [floor, ours, ref, go] = ['floor', 'ours', 'ours-ref', 'capi-go'].map(key => byId.get(serverCaseId(key, workload, transport, connections)))
        if (!floor && !ours && !ref && !go) continue
        const any = floor ?? ours ?? ref ?? go
        const rate = (c: CaseResult | undefined) => c?.summary ? formatRate(c.summary.rps) : '—'
        const ratio = (a: CaseResult | undefined, b: CaseResult | undefined) => a?.summary && b?.summary ? `${(a.summary.rps / b.summary.rps).toFixed(2)}×` : '—'
        const cpu = (c: CaseResult | undefined) => c?.summary?.cpuUsPerRequest !== undefined ? c.summary.cpuUsPerRequest.toFixed(0) : '—'
        const p99 = (c: CaseResult | undefined) => c?.summary ? formatMs(c.summary.p99Ms) : '—'
        rows.push([any?.labels['workload'] ?? workload, any?.labels['transport'] ?? transport, String(connections),
          rate(floor), rate(ours), ratio(ours, floor), rate(ref), ratio(ref, floor), rate(go), ratio(ref, go),
          `${cpu(floor)} / ${cpu(ours)} / ${cpu(ref)} / ${cpu(go)}`, `${p99(ours)} / ${p99(ref)} / ${p99(go)}`])
      }
    }
  }
  return table(['Workload', 'Transport', 'Conns', 'Floor req/s', 'Ours req/s', 'Ours / floor', 'Ref req/s', 'Ref / floor', 'Go req/s', 'Ref / Go',
    'CPU µs/req floor / ours / ref / Go', 'p99 ms ours / ref / Go'], rows)
}

/** callAllExtensions p50 by latency and handler count, parallel and sequential, plus the dead-handler rows. */
export function clientSummaryTable (cases: readonly CaseResult[]): string {
  const byId = new Map(cases.map(c => [c.id, c]))
  const p50 = (id: string) => {
    const s = byId.get(id)?.summary
    return s ? formatMs(s.p50Ms) : '—'
  }
  const rows: string[][] = []
  for (const latency of LATENCIES_MS) {
    for (const handlers of HANDLER_COUNTS) {
      if (!byId.has(callAllId(handlers, latency, false)) && !byId.has(callAllId(handlers, latency, true))) continue
      rows.push([`${latency} ms`, String(handlers), p50(callAllId(handlers, latency, false)), handlers === 1 ? '(same)' : p50(callAllId(handlers, latency, true))])
    }
  }
  for (const handlers of HANDLER_COUNTS) {
    if (!byId.has(deadId(handlers, false)) && !byId.has(deadId(handlers, true))) continue
    rows.push(['dead (1 s timeout, Ignore)', String(handlers), p50(deadId(handlers, false)), p50(deadId(handlers, true))])
  }
  return table(['Handler latency', 'Handlers', 'Parallel p50 ms', 'Sequential p50 ms'], rows)
}

export function scenarioTable (scenario: ScenarioResult, byId: ReadonlyMap<string, CaseResult>): string {
  const header = [...scenario.columns.map(title), scenario.rateUnit, 'p50 ms', 'p99 ms', 'errors / non-2xx', 'CPU µs/req', 'RSS MB', 'vs baseline']
  const rows = scenario.cases.map(c => {
    const labels = scenario.columns.map(k => c.labels[k] ?? '')
    if (!c.summary) return [...labels, '—', '—', '—', '—', '—', '—', c.skipped ? `not run: ${c.skipped}` : 'not run']
    const s = c.summary
    return [...labels, formatRate(s.rps), formatMs(s.p50Ms), formatMs(s.p99Ms), `${s.errors} / ${s.non2xx}`, s.cpuUsPerRequest !== undefined ? s.cpuUsPerRequest.toFixed(0) : '—', formatMb(c.rssMb), comparisonText(c, byId)]
  })
  return table(header, rows)
}

export function renderMarkdown (result: BenchResult): string {
  const cases = result.scenarios.flatMap(s => s.cases)
  const byId = new Map(cases.map(c => [c.id, c]))
  const parts = [
    '# Benchmark results',
    metaLines(result.meta).join('\n'),
    '## Targets',
    targetsTable(result.targets),
    '## Servers side by side (req/s medians; ratios of req/s; ours: trivial handlers, ref: the reference extension)',
    serverSummaryTable(cases),
    '## Client: callAllExtensions p50 by handler latency',
    clientSummaryTable(cases)
  ]
  for (const scenario of result.scenarios) {
    parts.push(`## ${scenario.id}. ${scenario.name}`, scenario.description, scenarioTable(scenario, byId))
  }
  return `${parts.join('\n\n')}\n`
}

/** Smoke check: every case ran, with numbers and without errors. Returns the problems (none means passed). */
export function smokeProblems (scenarios: readonly ScenarioResult[]): string[] {
  const problems: string[] = []
  for (const scenario of scenarios) {
    if (scenario.cases.length === 0) problems.push(`scenario ${scenario.id} (${scenario.name}) ran no case`)
    for (const c of scenario.cases) {
      const s = c.summary
      if (!s) problems.push(`${c.id}: not run (${c.skipped ?? 'no result'})`)
      else if (!(s.requests > 0) || !Number.isFinite(s.rps) || !Number.isFinite(s.p50Ms)) problems.push(`${c.id}: no numbers`)
      else if (s.errors > 0 || s.non2xx > 0) problems.push(`${c.id}: ${s.errors} errors, ${s.non2xx} non-2xx`)
    }
  }
  return problems
}
