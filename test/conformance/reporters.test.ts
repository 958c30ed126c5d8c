// The reports: JSON as is, JUnit XML that CI tools read, Markdown that renders, all with the evidence of failures.
import t from 'tap'
import { type ConformanceReport, evidenceText, junitReport, markdownReport, renderReport, summaryLine } from '../../src/conformance/index.js'

const report: ConformanceReport = {
  target: 'https://127.0.0.1:9443/',
  startedAt: '2026-03-01T09:30:00.000Z',
  durationMs: 1234,
  passed: false,
  summary: { total: 4, passed: 1, failed: 2, skipped: 1, requiredFailed: 1, advisoryFailed: 1 },
  cases: [
    { id: 'tls-handshake', title: 'TLS', level: 'required', status: 'pass', message: 'negotiated TLSv1.3', durationMs: 5, evidence: { facts: { protocol: 'TLSv1.3' } } },
    {
      id: 'response',
      title: 'A valid answer',
      level: 'required',
      handler: 'bcc',
      hook: 'BeforeClusterCreate',
      status: 'fail',
      message: 'HTTP 500 instead of 200 | <broken> & "quoted"',
      durationMs: 12,
      evidence: {
        exchanges: [{
          label: 'sample request',
          request: { method: 'POST', url: 'https://127.0.0.1:9443/x?timeout=10s', headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
          response: { status: 500, headers: { 'content-type': 'text/plain' }, body: 'oops ``` \u0001' },
          durationMs: 12
        }, {
          label: 'second',
          request: { method: 'POST', url: 'https://127.0.0.1:9443/x?timeout=10s', headers: {}, body: '{}' },
          error: 'other side closed (UND_ERR_SOCKET)',
          durationMs: 3
        }]
      }
    },
    { id: 'timeout-query', title: 'Short timeout', level: 'advisory', handler: 'bcc', status: 'fail', message: 'answered after 1500ms', durationMs: 1500, evidence: {} },
    { id: 'idempotent', title: 'Same answer', level: 'required', handler: 'bcc', status: 'skip', message: 'no answers', durationMs: 0, evidence: {} }
  ]
}

t.test('the summary line gives the verdict and the counts', async t => {
  t.equal(summaryLine(report), 'FAILED: 1 passed, 2 failed (1 required, 1 advisory), 1 skipped in 1.2 s')
  t.match(summaryLine({ ...report, passed: true }), /^PASSED: /)
})

t.test('evidence shows facts and each call as sent and answered', async t => {
  t.equal(evidenceText(report.cases[1]!.evidence),
    '# sample request\nPOST https://127.0.0.1:9443/x?timeout=10s\ncontent-type: application/json\n{"a":1}\n-> HTTP 500 after 12 ms\ncontent-type: text/plain\noops ``` \u0001\n\n' +
    '# second\nPOST https://127.0.0.1:9443/x?timeout=10s\n{}\n-> no answer after 3 ms: other side closed (UND_ERR_SOCKET)')
  t.equal(evidenceText(report.cases[0]!.evidence), 'protocol: TLSv1.3')
  t.equal(evidenceText({}), '')
})

t.test('JSON is the report itself', async t => {
  t.same(JSON.parse(renderReport(report, 'json')), report)
})

t.test('JUnit: a suite per level, failures typed by level, skips, escaped text', async t => {
  const xml = junitReport(report)
  t.equal(renderReport(report, 'junit'), xml)
  t.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="runtime-sdk conformance" tests="4" failures="2" skipped="1" errors="0" time="1.234">/)
  t.match(xml, '<testsuite name="runtime-sdk conformance (required)" tests="3" failures="1" skipped="1" errors="0" time="0.017" timestamp="2026-03-01T09:30:00.000Z">')
  t.match(xml, '<testsuite name="runtime-sdk conformance (advisory)" tests="1" failures="1" skipped="0"')
  t.match(xml, '<testcase classname="runtime-sdk.conformance.required" name="response [bcc]" time="0.012">')
  t.match(xml, '<failure type="required" message="HTTP 500 instead of 200 | &lt;broken&gt; &amp; &quot;quoted&quot;">A valid answer\n')
  t.match(xml, '<failure type="advisory" message="answered after 1500ms">')
  t.match(xml, '<skipped message="no answers"/>')
  t.match(xml, '<system-out>negotiated TLSv1.3</system-out>')
  t.match(xml, 'oops ``` \uFFFD', 'control characters XML cannot carry are replaced')
  t.notOk(xml.includes('\u0001'))
})

t.test('Markdown: verdict, a table row per result, evidence of failures in fences longer than any backtick run', async t => {
  const md = markdownReport(report)
  t.equal(renderReport(report, 'markdown'), md)
  t.match(md, /^# Runtime SDK conformance of https:\/\/127\.0\.0\.1:9443\/\n\n\*\*FAILED: 1 passed/)
  t.match(md, '| tls-handshake |  | required | pass | 5 ms | negotiated TLSv1.3 |')
  t.match(md, '| response | bcc | required | FAIL | 12 ms | HTTP 500 instead of 200 \\| <broken> & "quoted" |')
  t.match(md, '| timeout-query | bcc | advisory | FAIL |')
  t.match(md, '| idempotent | bcc | required | skip |')
  t.match(md, '## Failures\n\n### response [bcc] (required)\n\nA valid answer.\n\nHTTP 500')
  t.match(md, '````text\n# sample request\n')
  t.match(md, '### timeout-query [bcc] (advisory)')
  t.notMatch(markdownReport({ ...report, cases: [report.cases[0]!] }), '## Failures')
})
