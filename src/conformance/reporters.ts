// Reports of a conformance run: JSON (everything), JUnit XML (for CI) and Markdown (for people), plus the
// plain-text evidence all of them and the terminal share.
import type { CaseResult, ConformanceReport, Evidence, HttpEvidence } from './types.js'

/** A format renderReport writes: JUnit XML, the report as JSON, or Markdown. */
export type ReportFormat = 'junit' | 'json' | 'markdown'
/** Every ReportFormat. */
export const REPORT_FORMATS: readonly ReportFormat[] = ['junit', 'json', 'markdown']
/** A report as text in one of the formats. */

export function renderReport (report: ConformanceReport, format: ReportFormat): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`
  if (format === 'junit') return junitReport(report)
  return markdownReport(report)
}

/** A case's name in reports: the rule id, with the handler in brackets for handler cases. */
export function caseName (result: Pick<CaseResult, 'id' | 'handler'>): string {
  return result.handler === undefined ? result.id : `${result.id} [${result.handler}]`
}

function exchangeText (ex: HttpEvidence): string {
  const lines = [`# ${ex.label}`, `POST ${ex.request.url}`]
  for (const [k, v] of Object.entries(ex.request.headers)) lines.push(`${k}: ${v}`)
  lines.push(ex.request.body)
  if (ex.response) {
    lines.push(`-> HTTP ${ex.response.status} after ${ex.durationMs} ms`)
    for (const [k, v] of Object.entries(ex.response.headers)) lines.push(`${k}: ${v}`)
    if (ex.response.body !== '') lines.push(ex.response.body)
  } else {
    lines.push(`-> no answer after ${ex.durationMs} ms: ${ex.error ?? 'unknown error'}`)
  }
  return lines.join('\n')
}

/** The evidence of a case as plain text: facts, then each HTTP call as sent and answered. */
export function evidenceText (evidence: Evidence): string {
  const parts: string[] = []
  if (evidence.facts && Object.keys(evidence.facts).length > 0) parts.push(Object.entries(evidence.facts).map(([k, v]) => `${k}: ${v}`).join('\n'))
  for (const ex of evidence.exchanges ?? []) parts.push(exchangeText(ex))
  return parts.join('\n\n')
}

const verdict = (report: ConformanceReport) => report.passed ? 'PASSED' : 'FAILED'

/** One line: verdict and counts. */
export function summaryLine (report: ConformanceReport): string {
  const s = report.summary
  return `${verdict(report)}: ${s.passed} passed, ${s.failed} failed (${s.requiredFailed} required, ${s.advisoryFailed} advisory), ${s.skipped} skipped ` +
    `in ${(report.durationMs / 1000).toFixed(1)} s`
}

// --- JUnit ---------------------------------------------------------------------------------------------------

// XML 1.0 cannot carry most control characters, even escaped.
const xmlText = (s: string) => s.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/g, '\uFFFD')
const xmlEscape = (s: string) => xmlText(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const seconds = (ms: number) => (ms / 1000).toFixed(3)

function junitCase (c: CaseResult): string {
  const open = `    <testcase classname="runtime-sdk.conformance.${c.level}" name="${xmlEscape(caseName(c))}" time="${seconds(c.durationMs)}">`
  const details = xmlEscape(`${c.title}\n${c.message}${evidenceText(c.evidence) ? `\n\n${evidenceText(c.evidence)}` : ''}`)
  const body = c.status === 'fail'
    ? `      <failure type="${c.level}" message="${xmlEscape(c.message)}">${details}</failure>`
    : c.status === 'skip'
      ? `      <skipped message="${xmlEscape(c.message)}"/>`
      : `      <system-out>${xmlEscape(c.message)}</system-out>`
  return `${open}\n${body}\n    </testcase>`
}

/** JUnit XML: one suite for required and one for advisory cases; advisory failures have type="advisory". */
export function junitReport (report: ConformanceReport): string {
  const suites = (['required', 'advisory'] as const).map(level => {
    const cases = report.cases.filter(c => c.level === level)
    const time = cases.reduce((sum, c) => sum + c.durationMs, 0)
    return `  <testsuite name="runtime-sdk conformance (${level})" tests="${cases.length}" failures="${cases.filter(c => c.status === 'fail').length}" ` +
      `skipped="${cases.filter(c => c.status === 'skip').length}" errors="0" time="${seconds(time)}" timestamp="${report.startedAt}">\n` +
      `    <properties><property name="target" value="${xmlEscape(report.target)}"/></properties>\n` +
      cases.map(junitCase).join('\n') + (cases.length > 0 ? '\n' : '') +
      '  </testsuite>'
  })
  const s = report.summary
  return '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="runtime-sdk conformance" tests="${s.total}" failures="${s.failed}" skipped="${s.skipped}" errors="0" time="${seconds(report.durationMs)}">\n` +
    `${suites.join('\n')}\n</testsuites>\n`
}

// --- Markdown ------------------------------------------------------------------------------------------------

const RESULT = { pass: 'pass', fail: 'FAIL', skip: 'skip' } as const
const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
const fence = (text: string) => {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map(m => m[0].length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks}text\n${text}\n${ticks}`
}

/** Markdown: verdict, one table row per result, then the evidence of every failure. */
export function markdownReport (report: ConformanceReport): string {
  const lines = [
    `# Runtime SDK conformance of ${report.target}`,
    '',
    `**${summaryLine(report)}** (started ${report.startedAt}). Required cases decide the verdict; advisory cases are reported only.`,
    '',
    '| Case | Handler | Level | Result | Time | Detail |',
    '|---|---|---|---|---|---|',
    ...report.cases.map(c => `| ${c.id} | ${cell(c.handler ?? '')} | ${c.level} | ${RESULT[c.status]} | ${c.durationMs} ms | ${cell(c.message)} |`)
  ]
  const failures = report.cases.filter(c => c.status === 'fail')
  if (failures.length > 0) {
    lines.push('', '## Failures')
    for (const c of failures) {
      lines.push('', `### ${caseName(c)} (${c.level})`, '', `${c.title}.`, '', c.message)
      const evidence = evidenceText(c.evidence)
      if (evidence) lines.push('', fence(evidence))
    }
  }
  return `${lines.join('\n')}\n`
}
