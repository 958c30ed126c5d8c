// Replays the API server's recorded answers (test/fixtures/apiserver/answers.json, written by the e2e proof
// test/e2e/apiserver-schema.test.ts with RUNTIME_SDK_RECORD_APISERVER=1) against src/apiserver, without a cluster:
// every object the API server accepted is stored the same, every refusal carries the same field errors.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { compileSchema, createCustomResource, errorBody } from '../../src/apiserver/index.js'
import { caseObject, generatedCases, HAND_WRITTEN } from '../helpers/apiserver-cases.js'
import { type Answer, compare, ourResult, probeDetails } from '../helpers/apiserver-compare.js'
import { GROUP, VERSION } from '../helpers/apiserver-crds.js'
import { PROBE_SETS } from '../helpers/apiserver-probes.js'

const recorded = JSON.parse(readFileSync(new URL('../fixtures/apiserver/answers.json', import.meta.url), 'utf8')) as {
  seed: number
  perCRD: number
  answers: Record<string, Answer>
}

t.test('every recorded object is stored or refused as the API server did', async t => {
  const cases = [...HAND_WRITTEN, ...generatedCases(recorded.seed, recorded.perCRD)]
  let compared = 0
  for (const k of cases) {
    const answer = recorded.answers[k.name]
    if (answer === undefined) {
      t.fail(`no recorded answer for ${k.name} (re-record with the e2e test)`)
      continue
    }
    const result = compare(ourResult(k, answer.from), answer)
    t.ok(result.equal, k.name, { diffs: result.diffs })
    compared++
  }
  t.equal(compared, Object.keys(recorded.answers).filter(k => !k.startsWith('probe:')).length, 'all recorded objects replayed')
  t.ok(caseObject(cases[0] as typeof cases[number]).apiVersion === `${GROUP}/${VERSION}`)
})

t.test('CEL probes give the recorded values and errors', async t => {
  for (const set of PROBE_SETS) {
    const answer = recorded.answers[set.key]
    if (answer === undefined) {
      t.fail(`no recorded answer for ${set.key} (re-record with the e2e test)`)
      continue
    }
    const object = { apiVersion: `${GROUP}/${VERSION}`, kind: set.crd.kind, metadata: { name: 'probe', namespace: 'default' }, spec: set.spec }
    const ours = probeDetails(createCustomResource(compileSchema(set.crd.schema), object).errors.map(e => `${e.field}: ${errorBody(e)}`))
    t.same(ours, probeDetails(answer.causes ?? []), set.key)
  }
})
