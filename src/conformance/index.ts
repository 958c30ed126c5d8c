// Conformance testing of Runtime Extensions against the Runtime SDK contract (`runtime-sdk conformance`).
export { CASES } from './cases/index.js'
export { MAX_RETRY_AFTER_SECONDS } from './cases/behaviour.js'
export type { CaseVerdict, ConformanceCase, ExtensionCaseContext, HandlerCaseContext } from './context.js'
export { loadRequestDir, RequestFileError, requestFileNames, type RequestOverrides } from './requests.js'
export { caseName, evidenceText, junitReport, markdownReport, renderReport, REPORT_FORMATS, type ReportFormat, summaryLine } from './reporters.js'
export { ConformanceSetupError, type ConformanceOptions, runConformance } from './runner.js'
export { findStackTrace } from './stack-trace.js'
export type { CaseLevel, CaseResult, CaseStatus, ConformanceReport, Evidence, HttpEvidence, ReportSummary } from './types.js'
