/**
 * Conformance testing of Runtime Extensions against the Runtime SDK contract, as `runtime-sdk conformance` runs it:
 * {@link runConformance} runs the {@link CASES} against an extension and reports each with its evidence.
 *
 * @packageDocumentation
 */
export { RequestFileError, ConformanceSetupError } from './errors.js'
export { CASES } from './cases/index.js'
export { MAX_RETRY_AFTER_SECONDS } from './cases/behaviour.js'
export type { CaseRule, CaseVerdict, ConformanceCase, ExtensionCaseContext, HandlerCaseContext } from './context.js'
export type { Exchange, HttpTarget, PostOptions } from './http.js'
export type { TlsEndpoint, TlsProbe } from './tls-probe.js'
export type { Handler } from '../catalog/handlers.js'
export { loadRequestDir, requestFileNames, type RequestOverrides } from './requests.js'
export { caseName, evidenceText, junitReport, markdownReport, renderReport, REPORT_FORMATS, type ReportFormat, summaryLine } from './reporters.js'
export { type ConformanceOptions, runConformance } from './runner.js'
export { findStackTrace } from './stack-trace.js'
export type { CaseLevel, CaseResult, CaseStatus, ConformanceReport, Evidence, HttpEvidence, ReportSummary } from './types.js'
