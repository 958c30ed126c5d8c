// Statistics of repetitions and latency samples. Medians of repetitions, because one noisy repetition on a
// shared machine should not move the result (anchors §5.2: numbers vary ±20 % run to run).
import type { Run, Summary } from './types.js'

/** The median; the mean of the two middle values for an even count; NaN for no values. */
export function median (values: readonly number[]): number {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] as number : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/** The nearest-rank percentile (p in 0..100) of unsorted values, as latency tools report it; NaN for no values. */
export function percentile (values: readonly number[], p: number): number {
  if (values.length === 0) return NaN
  if (p < 0 || p > 100) throw new RangeError(`percentile ${p} is outside 0..100`)
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[rank - 1] as number
}

/** One repetition from individual call latencies (client cases), measured over durationS. */
export function runFromLatencies (latenciesMs: readonly number[], durationS: number, errors = 0): Run {
  return {
    requests: latenciesMs.length,
    durationS,
    rps: durationS > 0 ? latenciesMs.length / durationS : 0,
    p50Ms: percentile(latenciesMs, 50),
    p99Ms: percentile(latenciesMs, 99),
    maxMs: latenciesMs.length > 0 ? Math.max(...latenciesMs) : NaN,
    errors,
    non2xx: 0
  }
}

/** Medians of req/s, p50 and p99 over the repetitions; requests, errors and non-2xx summed; the highest max. */
export function summarize (runs: readonly Run[]): Summary {
  return {
    repetitions: runs.length,
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    rps: median(runs.map(r => r.rps)),
    p50Ms: median(runs.map(r => r.p50Ms)),
    p99Ms: median(runs.map(r => r.p99Ms)),
    maxMs: runs.length > 0 ? Math.max(...runs.map(r => r.maxMs)) : NaN,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    ...(runs.some(r => r.cpuUsPerRequest !== undefined) ? { cpuUsPerRequest: median(runs.flatMap(r => r.cpuUsPerRequest ?? [])) } : {})
  }
}
