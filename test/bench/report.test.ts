import t from 'tap'
import { callAllId, deadId, OVERHEAD_IDS, serverCaseId } from '../../bench/lib/ids.js'
import { clientSummaryTable, comparisonText, renderMarkdown, scenarioTable, serverSummaryTable, smokeProblems, targetsTable } from '../../bench/lib/report.js'
import type { BenchResult, CaseResult, ScenarioResult, Summary } from '../../bench/lib/types.js'

const summary = (rps: number, p50Ms: number, p99Ms = 2 * p50Ms): Summary => ({ repetitions: 3, requests: 100, rps, p50Ms, p99Ms, maxMs: p99Ms, errors: 0, non2xx: 0 })
const server = (key: string, rps: number, connections = 10, transport: 'http' | 'https' = 'http'): CaseResult => ({
  id: serverCaseId(key, 'bcc-5k', transport, connections),
  labels: { workload: 'BeforeClusterCreate 5.0 KB', transport: transport === 'http' ? 'HTTP' : 'HTTPS keep-alive', connections: String(connections) },
  runs: [],
  summary: summary(rps, 1),
  rssMb: 80.4,
  ...(key === 'floor' ? {} : { compare: { kind: 'throughput' as const, baseline: serverCaseId('floor', 'bcc-5k', transport, connections) } })
})

t.test('the comparison cell: ratio to the floor, p50 over a baseline case or over the ideal', async t => {
  const floor = server('floor', 10000)
  const ours = server('ours', 9200)
  const raw: CaseResult = { id: OVERHEAD_IDS.raw, labels: {}, runs: [], summary: summary(1000, 0.6) }
  const call: CaseResult = { id: OVERHEAD_IDS.callExtension, labels: {}, runs: [], summary: summary(900, 0.85), compare: { kind: 'latency', baseline: raw.id } }
  const fanOut: CaseResult = { id: callAllId(10, 20, false), labels: {}, runs: [], summary: summary(40, 19.5), compare: { kind: 'ideal', idealMs: 20 } }
  const byId = new Map([floor, ours, raw, call, fanOut].map(c => [c.id, c]))
  t.equal(comparisonText(ours, byId), '0.92× floor')
  t.equal(comparisonText(call, byId), '+0.250 ms vs raw-undici')
  t.equal(comparisonText(fanOut, byId), '−0.500 ms over 20.0 ms')
  t.equal(comparisonText(floor, byId), '', 'no comparison')
  t.equal(comparisonText(ours, new Map()), `no ${floor.id}`, 'a missing baseline is named')
  t.equal(comparisonText(call, new Map()), `no ${raw.id}`)
})

t.test('targets show PASS, a bold MISS, or no verdict', async t => {
  const text = targetsTable([
    { id: 'a', title: 'A', goal: '< 1', measured: '0.5', pass: true },
    { id: 'b', title: 'B', goal: '< 1', measured: '2', pass: false },
    { id: 'c', title: 'C', goal: '< 1', measured: 'not measured' }
  ])
  t.same(text.split('\n'), ['| Target | Goal | Measured | Result |', '| --- | --- | --- | --- |', '| A | < 1 | 0.5 | PASS |', '| B | < 1 | 2 | **MISS** |', '| C | < 1 | not measured | — |'])
})

t.test('servers side by side: one row per workload, transport and connections that ran', async t => {
  const withCpu = (c: CaseResult, cpuUsPerRequest: number): CaseResult => ({ ...c, summary: { ...c.summary as Summary, cpuUsPerRequest } })
  const text = serverSummaryTable([withCpu(server('floor', 10000), 50), server('ours', 9000), withCpu(server('ours-ref', 8000), 62.4), server('capi-go', 12000), server('ours', 5000, 10, 'https')])
  const rows = text.split('\n').slice(2)
  t.equal(rows.length, 2)
  t.equal(rows[0], '| BeforeClusterCreate 5.0 KB | HTTP | 10 | 10,000 | 9,000 | 0.90× | 8,000 | 0.80× | 12,000 | 0.67× | 50 / — / 62 / — | 2.00 / 2.00 / 2.00 |')
  t.equal(rows[1], '| BeforeClusterCreate 5.0 KB | HTTPS keep-alive | 10 | — | 5,000 | — | — | — | — | — | — / — / — / — | 2.00 / — / — |')
})

t.test('client summary: parallel and sequential p50 by latency and handler count, dead handlers last', async t => {
  const c = (id: string, p50: number): CaseResult => ({ id, labels: {}, runs: [], summary: summary(1, p50) })
  const text = clientSummaryTable([c(callAllId(1, 20, false), 21), c(callAllId(10, 20, false), 24), c(callAllId(10, 20, true), 210), c(deadId(10, false), 1004)])
  t.same(text.split('\n').slice(2), [
    '| 20 ms | 1 | 21.0 | (same) |',
    '| 20 ms | 10 | 24.0 | 210 |',
    '| dead (1 s timeout, Ignore) | 10 | 1,004 | — |'
  ])
})

const scenario = (cases: CaseResult[]): ScenarioResult => ({ id: '2', name: 'Our server', description: 'What it measures.', columns: ['workload', 'transport', 'connections'], rateUnit: 'req/s', cases })

t.test('a scenario table has the scenario columns, the metrics, and says why a case did not run', async t => {
  const skipped: CaseResult = { id: 'ours/gp-1m/http/c1', labels: { workload: 'GeneratePatches 1.00 MB', transport: 'HTTP', connections: '1' }, runs: [], skipped: 'go is not installed' }
  const ours = server('ours', 9000)
  const text = scenarioTable(scenario([ours, skipped]), new Map([ours, server('floor', 10000)].map(c => [c.id, c])))
  t.same(text.split('\n'), [
    '| Workload | Transport | Conns | req/s | p50 ms | p99 ms | errors / non-2xx | CPU µs/req | RSS MB | vs baseline |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    '| BeforeClusterCreate 5.0 KB | HTTP | 10 | 9,000 | 1.00 | 2.00 | 0 / 0 | — | 80 | 0.90× floor |',
    '| GeneratePatches 1.00 MB | HTTP | 1 | — | — | — | — | — | — | not run: go is not installed |'
  ])
})

t.test('the report names the machine, its load, the method, then targets and every scenario', async t => {
  const result: BenchResult = {
    meta: {
      date: '2026-11-22T05:00:00.000Z',
      mode: 'full',
      node: 'v20.20.2',
      cores: 2,
      cpuModel: 'Example CPU',
      loadAverage: { start: [1.5, 1.25, 1], end: [2, 1.5, 1.25] },
      generator: 'wrk 4.1.0',
      pinned: true,
      commit: 'abc1234',
      settings: { repetitions: 3, durationS: 3, warmupS: 1, clientRepS: 1, clientMinCalls: 5 },
      elapsedS: 510
    },
    scenarios: [scenario([server('ours', 9000)])],
    targets: [{ id: 'a', title: 'A', goal: 'g', measured: 'm', pass: true }]
  }
  const text = renderMarkdown(result)
  t.match(text, /^# Benchmark results\n/)
  t.match(text, /Date: 2026-11-22T05:00:00.000Z · full run · 8.5 min · commit abc1234/)
  t.match(text, /2 cores \(Example CPU\) · Node v20.20.2 · load average \(1\/5\/15 min\) 1.50 \/ 1.25 \/ 1.00 at the start, 2.00 \/ 1.50 \/ 1.25 at the end \(the bench's own load included\)/)
  t.match(text, /wrk 4.1.0, server pinned to core 0 and load generator to core 1 \(taskset\); 3 repetition\(s\) of 3 s/)
  t.match(text, /## Targets\n\n\| Target[^]*\| A \| g \| m \| PASS \|/)
  t.match(text, /## 2\. Our server\n\nWhat it measures\.\n\n\| Workload/)
  t.ok(text.endsWith('\n'))
  t.match(renderMarkdown({ ...result, meta: { ...result.meta, pinned: false } }), /wrk 4.1.0, not pinned;/)
  t.match(text, /Note: the machine was busy when the run started/, 'a load average above half the cores at the start is called out')
  t.notMatch(renderMarkdown({ ...result, meta: { ...result.meta, loadAverage: { start: [0.5, 1, 1], end: [1.9, 1, 1] } } }), /busy/,
    'the load at the end is the bench\'s own')
})

t.test('smoke check: every case has numbers and no errors', async t => {
  const ok = server('ours', 9000)
  t.same(smokeProblems([scenario([ok])]), [])
  const failing = { ...server('ours', 9000, 1), summary: { ...summary(9000, 1), errors: 2, non2xx: 1 } }
  const empty = { ...server('ours', 9000, 1, 'https'), summary: { ...summary(0, NaN), requests: 0 } }
  const notRun: CaseResult = { id: 'capi-go/x', labels: {}, runs: [], skipped: 'go is not installed' }
  const silent: CaseResult = { id: 'client/x', labels: {}, runs: [] }
  t.same(smokeProblems([scenario([ok, failing, empty, notRun, silent]), scenario([])]), [
    'ours/bcc-5k/http/c1: 2 errors, 1 non-2xx',
    'ours/bcc-5k/https/c1: no numbers',
    'capi-go/x: not run (go is not installed)',
    'client/x: not run (no result)',
    'scenario 2 (Our server) ran no case'
  ])
})
