// Replays the API server's recorded answers to server-side applies (test/fixtures/apiserver/apply-answers.json,
// written by the e2e proof test/e2e/apiserver-apply.test.ts with RUNTIME_SDK_RECORD_APISERVER=1) against
// typedPatchError, without a cluster: every typed-conversion refusal is the same message, every apply that got past
// the conversion is one typedPatchError lets through, then accepted or refused by createCustomResource as it was.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { compileSchema, typedPatchError } from '../../src/apiserver/index.js'
import { applyObject, generatedCases, HAND_WRITTEN } from '../helpers/apply-cases.js'
import { type ApplyAnswer, compareApply, orderShownBy, TYPED_PREFIX } from '../helpers/apply-compare.js'
import { applyCRD } from '../helpers/apply-crds.js'

const recorded = JSON.parse(readFileSync(new URL('../fixtures/apiserver/apply-answers.json', import.meta.url), 'utf8')) as {
  seed: number
  perCRD: number
  answers: Record<string, ApplyAnswer>
}

t.test('every recorded apply is refused or let through as the API server did', async t => {
  const cases = [...HAND_WRITTEN, ...generatedCases(recorded.seed, recorded.perCRD)]
  const kinds: Record<string, number> = {}
  for (const k of cases) {
    const answer = recorded.answers[k.name]
    if (answer === undefined) {
      t.fail(`no recorded answer for ${k.name} (re-record with the e2e test)`)
      continue
    }
    const result = compareApply(k, answer)
    kinds[result.kind] = (kinds[result.kind] ?? 0) + 1
    t.ok(result.equal, k.name, { diffs: result.diffs })
  }
  t.equal(cases.length, Object.keys(recorded.answers).length, 'all recorded applies replayed')
  t.ok((kinds.typed ?? 0) > 400 && (kinds.refused ?? 0) > 10 && (kinds.accepted ?? 0) > 10, `every outcome is recorded: ${JSON.stringify(kinds)}`)
})

t.test('the recorded messages, as the API server words them', async t => {
  const message = (name: string) => recorded.answers[name]?.message ?? ''
  t.equal(message('kct-undeclared'), `${TYPED_PREFIX}default/kct-undeclared; bootstrap.cluster.x-k8s.io/v1beta2, Kind=KubeadmConfigTemplate): ` +
    '.spec.template.spec.notAKubeadmField: field not declared in schema')
  t.match(message('kct-commands-string'), /\.spec\.template\.spec\.preKubeadmCommands: expected list, got &\{echo\}$/)
  t.same([recorded.answers['kct-undeclared']?.code, recorded.answers['kct-undeclared']?.reason], [500, ''], 'a typed-conversion refusal is a 500 with no reason')
})

t.test('with several undeclared fields, the one reported follows the visiting order', async t => {
  const crd = applyCRD('Applier')
  const object = applyObject({ name: 'two', crd, body: { spec: { closed: { b: 1, a: 2 }, nested: { zzz: 1, deeper: { deepest: { n: 'x' } } } } } })
  const prefix = `${TYPED_PREFIX}default/two; apiserver.test.runtime-sdk.io/v1, Kind=Applier): errors:\n  `
  t.equal(typedPatchError(crd.schema, object), prefix + [
    '.spec.closed.b: field not declared in schema',
    '.spec.nested.deeper.deepest.n: expected numeric (int or float), got string',
    '.spec.nested.zzz: field not declared in schema'
  ].join('\n  '), 'by default declared fields first, then the first undeclared one in the object\'s order')
  // Another order Go may take: nested first, its undeclared field before deeper (so deeper is not visited), then a.
  const other = prefix + '.spec.nested.zzz: field not declared in schema\n  .spec.closed.a: field not declared in schema'
  t.equal(typedPatchError(crd.schema, object, orderShownBy(other)), other, 'an order a message shows is replayed')
})

t.test('a compiled schema, and what JSON cannot carry', async t => {
  const crd = applyCRD('Applier')
  const object = applyObject({ name: 'js', crd, body: { spec: { nested: undefined, numbers: [1, undefined, undefined], flags: 'x' } } })
  const expected = typedPatchError(crd.schema, JSON.parse(JSON.stringify(object)) as Record<string, unknown>)
  t.match(expected, /\.spec\.numbers: element 1: associative list without keys has an element that's an explicit null/)
  t.equal(typedPatchError(crd.schema, object), expected, 'an undefined field is absent, an undefined item null, as once sent')
  t.equal(typedPatchError(compileSchema(crd.schema), object), expected, 'the same from the compiled schema')
})
