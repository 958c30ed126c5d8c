// What a conformance run produces: one result per case (per handler for handler cases), with evidence.

/** required cases decide the exit code; advisory cases are reported but never fail a run. */
export type CaseLevel = 'required' | 'advisory'
export type CaseStatus = 'pass' | 'fail' | 'skip'

/** One HTTP call as sent and answered, bodies truncated for reading. */
export interface HttpEvidence {
  /** label says what the call tested, e.g. "sample request without Content-Type". */
  label: string
  request: { method: string, url: string, headers: Record<string, string>, body: string }
  /** response is absent when no HTTP answer arrived (see error). */
  response?: { status: number, headers: Record<string, string>, body: string }
  error?: string
  durationMs: number
}

export interface Evidence {
  exchanges?: HttpEvidence[]
  /** facts are other observations, e.g. the negotiated TLS version or the certificate's names. */
  facts?: Record<string, string>
}

export interface CaseResult {
  /** id names the rule, e.g. "content-type-optional"; with handler it identifies one result. */
  id: string
  title: string
  level: CaseLevel
  /** handler is the handler's name as discovered, for handler cases. */
  handler?: string
  hook?: string
  status: CaseStatus
  /** message says why the case passed, failed or was skipped. */
  message: string
  durationMs: number
  evidence: Evidence
}

export interface ReportSummary {
  total: number
  passed: number
  failed: number
  skipped: number
  requiredFailed: number
  advisoryFailed: number
}

export interface ConformanceReport {
  /** target is the base URL of the extension. */
  target: string
  startedAt: string
  durationMs: number
  /** passed is true when no required case failed. */
  passed: boolean
  summary: ReportSummary
  cases: CaseResult[]
}
