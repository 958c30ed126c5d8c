// The shapes shared by the benchmark harness: one measured repetition, one case, one scenario, a whole run, a server
// under test.
import type { Transport } from './ids.js'
import type { Workload } from './workloads.js'

/** One measured repetition of a case (a load-generator run, or a batch of client calls). */
export interface Run {
  /** requests completed (for client cases: calls). */
  requests: number
  durationS: number
  /** requests (or calls) per second. */
  rps: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  /** errors: transport errors and timeouts (for client cases: calls that threw). */
  errors: number
  /** non2xx: answers with an HTTP status other than 2xx. */
  non2xx: number
  /** cpuUsPerRequest: the server's CPU time (all its threads and processes) per request completed. */
  cpuUsPerRequest?: number
}

/** The medians of a case's repetitions (errors and non-2xx are summed, max is the maximum). */
export interface Summary {
  repetitions: number
  requests: number
  rps: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  errors: number
  non2xx: number
  cpuUsPerRequest?: number
}

/** How a case is compared: req/s against a baseline case, p50 against a baseline case, or p50 against an ideal latency. */
export type Comparison =
  | { kind: 'throughput', baseline: string }
  | { kind: 'latency', baseline: string }
  | { kind: 'ideal', idealMs: number }

export interface CaseResult {
  /** id is unique in a run, e.g. `ours/bcc-5k/http/c10`; targets and baselines refer to it. */
  id: string
  /** labels are the case's columns in the scenario's table (system, workload, transport, ...). */
  labels: Record<string, string>
  runs: Run[]
  summary?: Summary
  /** rssMb is the peak resident set of the process under test while the case was measured. */
  rssMb?: number
  compare?: Comparison
  /** skipped says why the case did not run (e.g. `go` is not installed). */
  skipped?: string
}

export interface ScenarioResult {
  id: string
  name: string
  description: string
  /** columns are the label keys shown in this scenario's table, in order. */
  columns: string[]
  /** unit of the throughput column: req/s for servers, calls/s for the client. */
  rateUnit: string
  cases: CaseResult[]
}

export interface Target {
  id: string
  title: string
  goal: string
  measured: string
  /** undefined when a case the target needs did not run. */
  pass?: boolean
}

export interface RunMeta {
  date: string
  mode: 'full' | 'smoke'
  node: string
  cores: number
  cpuModel: string
  /** loadAverage is os.loadavg() (1, 5, 15 min) at the start and at the end of the run. */
  loadAverage: { start: number[], end: number[] }
  generator: string
  pinned: boolean
  commit: string
  settings: RunSettings
  elapsedS: number
}

export interface RunSettings {
  repetitions: number
  /** durationS of one measured repetition of a server case. */
  durationS: number
  /** warmupS of load before a server case's repetitions. */
  warmupS: number
  /** clientRepS: how long one repetition of a client case keeps calling (at least clientMinCalls calls). */
  clientRepS: number
  clientMinCalls: number
}

export interface BenchResult {
  meta: RunMeta
  scenarios: ScenarioResult[]
  targets: Target[]
}

/** A system whose server the server scenarios measure (server-cases.ts). */
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
  /** readyLine: the server is ready when its stderr prints a line matching it, group 1 the URL (else a JSON line on stdout). */
  readyLine?: RegExp
  /** allCores: neither the server nor the load generator is pinned (the multi-process comparisons). */
  allCores?: boolean
  /** only limits the cases this system runs. */
  only?: (workload: Workload, transport: Transport, connections: number) => boolean
}
