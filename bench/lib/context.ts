// What a scenario module gets from the harness, and what it gives back. Scenarios are listed in
// bench/scenarios/index.ts; each runs its cases and returns their results, the harness renders them.
import { fileURLToPath } from 'node:url'
import type { LoadGenerator } from './load.js'
import type { Pinning } from './processes.js'
import type { CaseResult, RunSettings, ServerUnderTest } from './types.js'
import type { Workload } from './workloads.js'

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

export interface ScenarioContext {
  mode: 'full' | 'smoke'
  settings: RunSettings
  generator: LoadGenerator
  pinning: Pinning
  /** workDir is a temporary directory for bodies, certificates and child logs. */
  workDir: string
  /** certDir holds ca.crt, tls.crt and tls.key, a serving certificate for 127.0.0.1 and localhost. */
  certDir: string
  /** workloads are the hook requests of the server scenarios, each also written to bodyFile. */
  workloads: Array<Workload & { bodyFile: string }>
  /** selected says whether a case id was asked for (--case); unselected cases are not run at all. */
  selected: (caseId: string) => boolean
  /** profileCase: run this server case once with `node --cpu-prof`, profiles written to profileDir. */
  profile?: { caseId: string, dir: string }
  log: (line: string) => void
}

/**
 * A scenario either is servers measured under HTTP load (`servers`: the harness measures all such scenarios side by
 * side, case by case, see server-cases.ts) or runs its own cases (`run`).
 */
export type Scenario = ScenarioInfo & ({ servers: (ctx: ScenarioContext) => ServerUnderTest[] } | { run: (ctx: ScenarioContext) => Promise<CaseResult[]> })

export interface ScenarioInfo {
  /** id is the scenario's number in the plan ("1".."5"). */
  id: string
  name: string
  /** description says what the scenario measures and why (shown above its table). */
  description: string
  /** columns are the label keys of its cases shown in the table. */
  columns: string[]
  rateUnit: string
}

/** `node --import tsx <script>` from the repository root, so children run the TypeScript sources as they are. */
export function nodeScript (script: string, nodeFlags: string[] = []): string[] {
  return [process.execPath, '--import', 'tsx', ...nodeFlags, fileURLToPath(new URL(`../${script}`, import.meta.url))]
}
