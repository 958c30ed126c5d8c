// Turning each load generator's output into one Run. Kept free of I/O so that it is unit-tested.
import type { Run } from './types.js'

/** The marker bench/wrk.lua prints before its JSON summary. */
export const WRK_MARKER = 'BENCH_JSON '

interface WrkSummary {
  requests: number
  durationUs: number
  connect: number
  read: number
  write: number
  status: number
  timeout: number
  p50Us: number
  p99Us: number
  maxUs: number
}

/**
 * Parses the line bench/wrk.lua's done() prints. wrk counts answers with a status of 400 or more as `status`
 * errors; the others (connect, read, write, timeout) are transport errors.
 */
export function parseWrk (stdout: string): Run {
  const line = stdout.split('\n').find(l => l.startsWith(WRK_MARKER))
  if (!line) throw new Error(`wrk printed no ${WRK_MARKER.trim()} line:\n${stdout.slice(-2000)}`)
  const s = JSON.parse(line.slice(WRK_MARKER.length)) as WrkSummary
  const durationS = s.durationUs / 1e6
  return {
    requests: s.requests,
    durationS,
    rps: durationS > 0 ? s.requests / durationS : 0,
    p50Ms: s.p50Us / 1000,
    p99Ms: s.p99Us / 1000,
    maxMs: s.maxUs / 1000,
    errors: s.connect + s.read + s.write + s.timeout,
    non2xx: s.status
  }
}

interface AutocannonResult {
  duration: number
  errors: number
  timeouts: number
  non2xx: number
  requests: { total: number }
  latency: { p50: number, p99: number, max: number }
}

/** Parses `autocannon -j` output (latencies in ms; timeouts are counted in errors too). */
export function parseAutocannon (stdout: string): Run {
  const start = stdout.indexOf('{')
  if (start < 0) throw new Error(`autocannon printed no JSON:\n${stdout.slice(-2000)}`)
  const r = JSON.parse(stdout.slice(start)) as AutocannonResult
  return {
    requests: r.requests.total,
    durationS: r.duration,
    rps: r.duration > 0 ? r.requests.total / r.duration : 0,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    maxMs: r.latency.max,
    errors: r.errors,
    non2xx: r.non2xx
  }
}

/** The resident set in MB from the text of /proc/<pid>/status (VmRSS), or undefined when it is absent. */
export function parseRssMb (procStatus: string): number | undefined {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(procStatus)
  return match ? Number(match[1]) / 1024 : undefined
}
