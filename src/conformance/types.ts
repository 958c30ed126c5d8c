// What a conformance run produces: one result per case (per handler for handler cases), with evidence.

/** required cases decide the exit code; advisory cases are reported but never fail a run. */
export type CaseLevel = 'required' | 'advisory'
/** A case's verdict: pass, fail, or skip (it could not run, e.g. no handler of its hook was discovered). */
export type CaseStatus = 'pass' | 'fail' | 'skip'

/** One HTTP call as sent and answered, bodies truncated for reading. */
export interface HttpEvidence {
  /** label says what the call tested, e.g. "sample request without Content-Type". */
  label: string
  /** request is the call as sent. */
  request: {
    /** method is POST. */
    method: string
    /** url is the full URL, ?timeout= included. */
    url: string
    /** headers sent. */
    headers: Record<string, string>
    /** body sent, truncated to 600 characters. */
    body: string
  }
  /** response is absent when no HTTP answer arrived (see error). */
  response?: {
    /** status is the HTTP status code. */
    status: number
    /** headers of the answer that matter to the cases: content-type and location. */
    headers: Record<string, string>
    /** body of the answer, truncated to 2000 characters. */
    body: string
  }
  /** error says why no HTTP answer arrived. */
  error?: string
  /** durationMs is how long the answer took (or the tool waited), in milliseconds. */
  durationMs: number
}

/** What a case saw: the HTTP calls it judged and other facts. */
export interface Evidence {
  /** exchanges are the calls the verdict rests on. */
  exchanges?: HttpEvidence[]
  /** facts are other observations, e.g. the negotiated TLS version or the certificate's names. */
  facts?: Record<string, string>
}

/** The result of one case (of one handler, for handler cases). */
export interface CaseResult {
  /** id names the rule, e.g. "content-type-optional"; with handler it identifies one result. */
  id: string
  /** title states the rule. */
  title: string
  /** level says whether a failure fails the run (required) or is only reported (advisory). */
  level: CaseLevel
  /** handler is the handler's name as discovered, for handler cases. */
  handler?: string
  /** hook is the handler's hook, e.g. BeforeClusterCreate, for handler cases. */
  hook?: string
  /** status is the verdict. */
  status: CaseStatus
  /** message says why the case passed, failed or was skipped. */
  message: string
  /** durationMs is how long the case took, in milliseconds. */
  durationMs: number
  /** evidence is what the verdict rests on. */
  evidence: Evidence
}

/** The counts of a report's results. */
export interface ReportSummary {
  /** total is the number of results. */
  total: number
  /** passed is the number of results that passed. */
  passed: number
  /** failed is the number of results that failed, required and advisory. */
  failed: number
  /** skipped is the number of results that were skipped. */
  skipped: number
  /** requiredFailed is the number of required results that failed: the run passes when it is 0. */
  requiredFailed: number
  /** advisoryFailed is the number of advisory results that failed. */
  advisoryFailed: number
}

/** What a conformance run found: every case's result, with evidence. */
export interface ConformanceReport {
  /** target is the base URL of the extension. */
  target: string
  /** startedAt is when the run started (RFC 3339). */
  startedAt: string
  /** durationMs is how long the run took, in milliseconds. */
  durationMs: number
  /** passed is true when no required case failed. */
  passed: boolean
  /** summary counts the results. */
  summary: ReportSummary
  /** cases are the results, in the order the cases ran. */
  cases: CaseResult[]
}
