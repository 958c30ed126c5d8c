// The targets of issue 8, evaluated from one run's cases. A target whose cases did not run is shown without a verdict.
import { callAllId, CONNECTIONS, controllerId, DEAD_TIMEOUT_MS, deadId, OVERHEAD_IDS, serverCaseId, WORKLOAD_IDS } from './ids.js'
import { formatMs, formatRate } from './format.js'
import type { CaseResult, Summary, Target } from './types.js'

const WORKLOAD_NAMES: Record<string, string> = { 'bcc-5k': 'BeforeClusterCreate 5 KB', 'gp-64k': 'GeneratePatches 64 KB', 'gp-1m': 'GeneratePatches 1 MB' }

export const FLOOR_RATIO_GOAL = 0.9
export const P99_GOAL_MS = 5
export const FAN_OUT_GOAL_MS = 30
export const OVERHEAD_GOAL_MS = 0.5
export const DISCOVER_1000_GOAL_S = 60
export const CONTROLLER_RSS_GOAL_MB = 200
/** "One timeout, not ten": less than one and a half timeouts. */
export const DEAD_GOAL_MS = 1.5 * DEAD_TIMEOUT_MS

class NotMeasured extends Error {}

export function evaluateTargets (cases: readonly CaseResult[]): Target[] {
  const byId = new Map(cases.map(c => [c.id, c]))
  const get = (id: string): Summary | undefined => byId.get(id)?.summary
  const need = (id: string): Summary => {
    const summary = get(id)
    if (!summary) throw new NotMeasured(id)
    return summary
  }
  const targets: Target[] = []
  const add = (id: string, title: string, goal: string, judge: () => { measured: string, pass: boolean }) => {
    try {
      targets.push({ id, title, goal, ...judge() })
    } catch (err) {
      if (!(err instanceof NotMeasured)) throw err
      targets.push({ id, title, goal, measured: `not measured (${err.message})` })
    }
  }
  const sometimes = (id: string): string => {
    const summary = get(id)
    return summary ? `${formatMs(summary.p50Ms)} ms` : 'not measured'
  }

  add('floor-ratio', 'Hook endpoint vs bare node:http floor (BeforeClusterCreate 5 KB, HTTP, 10 connections)', `≥ ${FLOOR_RATIO_GOAL * 100}% of the floor's req/s`, () => {
    const ours = need(serverCaseId('ours', 'bcc-5k', 'http', 10))
    const floor = need(serverCaseId('floor', 'bcc-5k', 'http', 10))
    return { measured: `${pct(ours.rps / floor.rps)} (${formatRate(ours.rps)} vs ${formatRate(floor.rps)} req/s)`, pass: ours.rps >= FLOOR_RATIO_GOAL * floor.rps }
  })
  add('p99', 'Hook endpoint p99 (BeforeClusterCreate 5 KB, HTTP, 10 connections)', `< ${P99_GOAL_MS} ms`, () => {
    const ours = need(serverCaseId('ours', 'bcc-5k', 'http', 10))
    return { measured: `${formatMs(ours.p99Ms)} ms`, pass: ours.p99Ms < P99_GOAL_MS }
  })
  for (const workload of WORKLOAD_IDS) {
    for (const connections of CONNECTIONS) {
      add(`vs-go/${workload}/c${connections}`, `Our server vs Cluster API's Go server (${WORKLOAD_NAMES[workload]}, HTTPS keep-alive, ${connections} conn.)`, '≥ 1.00× the Go server\'s req/s', () => {
        const ours = need(serverCaseId('ours', workload, 'https', connections))
        const go = need(serverCaseId('capi-go', workload, 'https', connections))
        return { measured: `${(ours.rps / go.rps).toFixed(2)}× (${formatRate(ours.rps)} vs ${formatRate(go.rps)} req/s)`, pass: ours.rps >= go.rps }
      })
    }
  }
  add('fan-out', 'callAllExtensions, 10 handlers at 20 ms each', `p50 < ${FAN_OUT_GOAL_MS} ms (sequential ≈ 200 ms)`, () => {
    const parallel = need(callAllId(10, 20, false))
    return { measured: `p50 ${formatMs(parallel.p50Ms)} ms (sequential: ${sometimes(callAllId(10, 20, true))})`, pass: parallel.p50Ms < FAN_OUT_GOAL_MS }
  })
  for (const [id, name] of [[OVERHEAD_IDS.callExtension, 'callExtension'], [OVERHEAD_IDS.callAll, 'callAllExtensions']] as const) {
    add(`overhead/${name}`, `Client overhead per call: ${name}${name === 'callAllExtensions' ? ' (1 handler)' : ''} vs a raw undici request`, `< ${OVERHEAD_GOAL_MS} ms at p50`, () => {
      const client = need(id)
      const raw = need(OVERHEAD_IDS.raw)
      const overhead = client.p50Ms - raw.p50Ms
      return { measured: `${overhead >= 0 ? '+' : ''}${formatMs(overhead)} ms (p50 ${formatMs(client.p50Ms)} vs ${formatMs(raw.p50Ms)} ms)`, pass: overhead < OVERHEAD_GOAL_MS }
    })
  }
  add('dead', 'Ten dead handlers under Ignore (timeoutSeconds 1), parallel', `one timeout, not ten (< ${formatMs(DEAD_GOAL_MS)} ms)`, () => {
    const parallel = need(deadId(10, false))
    return { measured: `${formatMs(parallel.p50Ms)} ms (sequential: ${sometimes(deadId(10, true))})`, pass: parallel.p50Ms < DEAD_GOAL_MS }
  })
  add('controller', 'Controller: 1,000 ExtensionConfigs discovered (Discovered=True) from start', `< ${DISCOVER_1000_GOAL_S} s, RSS < ${CONTROLLER_RSS_GOAL_MB} MB`, () => {
    const result = byId.get(controllerId(1000))
    const summary = need(controllerId(1000))
    const rss = result?.rssMb
    return { measured: `${summary.maxMs / 1000 < 10 ? (summary.maxMs / 1000).toFixed(1) : Math.round(summary.maxMs / 1000)} s, RSS ${rss === undefined ? '?' : Math.round(rss)} MB`, pass: summary.maxMs < DISCOVER_1000_GOAL_S * 1000 && rss !== undefined && rss < CONTROLLER_RSS_GOAL_MB }
  })
  return targets
}

function pct (ratio: number): string {
  return `${(ratio * 100).toFixed(0)}%`
}
