// src/apiserver against a real kube-apiserver (1.36): the test CRDs of test/helpers/apiserver-crds.ts are installed,
// then hand-written and seeded objects are created (dry run, fieldValidation=Warn) and the answers compared with
// createCustomResource's: the stored object (pruned and defaulted) for an accepted one, the field errors and the
// message for a refused one, the pruned paths against the API server's unknown-field warnings. Updates run the
// transition rules. CEL expressions report their values (messageExpression of a failing rule) and runtime errors
// (failing rules) through the probe CRDs of test/helpers/apiserver-probes.ts, compared with our evaluator's.
//
// The requests go over HTTPS with the admin token rather than through kubectl: kubectl reprints a refusal cause by
// cause (the Status message, the thing compared here, would be lost) and drops the warnings' paths. With
// RUNTIME_SDK_RECORD_APISERVER=1 the answers are written to test/fixtures/apiserver/answers.json, which
// test/apiserver/recorded.test.ts replays without a cluster.
import { writeFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import t, { type Test } from 'tap'
import { compileSchema, createCustomResource, errorBody } from '../../src/apiserver/index.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { caseObject, generatedCases, HAND_WRITTEN, type ObjectCase } from '../helpers/apiserver-cases.js'
import { type Answer, compare, ourResult, probeDetails } from '../helpers/apiserver-compare.js'
import { crdObject, GROUP, TEST_CRDS, type TestCRD, VERSION } from '../helpers/apiserver-crds.js'
import { PROBE_SETS, type ProbeSet } from '../helpers/apiserver-probes.js'
import { apiServerRequest, type Reply } from '../helpers/apiserver-request.js'

const ANSWERS = fileURLToPath(new URL('../fixtures/apiserver/answers.json', import.meta.url))
const SEED = 20260417
const PER_CRD = 100

const cp = await startControlPlane({ log: (message) => t.comment(message) })
t.teardown(() => cp.stop())

const request = async (method: string, path: string, body?: unknown): Promise<Reply> => await apiServerRequest(cp, method, path, body)

const collection = (crd: TestCRD) => `/apis/${GROUP}/${VERSION}/namespaces/default/${crd.plural}`

function toAnswer (reply: Reply): Answer {
  const answer: Answer = { code: reply.status, warnings: reply.warnings.map(w => /^unknown field "(.*)"$/.exec(w)?.[1] ?? w) }
  if (reply.status === 200 || reply.status === 201) {
    answer.object = reply.body
  } else {
    answer.message = String(reply.body.message ?? '')
    const details = reply.body.details as { causes?: Array<{ field?: string, message?: string }> } | undefined
    answer.causes = (details?.causes ?? []).map(c => `${c.field ?? ''}: ${c.message ?? ''}`)
  }
  return answer
}

async function install (crds: readonly TestCRD[]): Promise<void> {
  const applied = await cp.kubectl(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: crds.map(crdObject) }) })
  if (applied.code !== 0) throw new Error(`kubectl apply: ${applied.stderr}`)
  const names = crds.map(c => `crd/${c.plural}.${GROUP}`)
  const established = await cp.kubectl(['wait', '--for=condition=Established', ...names, '--timeout=60s'])
  if (established.code !== 0) throw new Error(`kubectl wait: ${established.stderr}`)
}

const recorded: Record<string, Answer> = {}

t.before(async () => {
  await install([...TEST_CRDS, ...PROBE_SETS.map(p => p.crd)])
  // The API server serves a new CRD's storage shortly after Established: wait until a create goes through.
  for (let i = 0; i < 100; i++) {
    const r = await request('POST', `${collection(TEST_CRDS[0] as TestCRD)}?dryRun=All`, caseObject(HAND_WRITTEN[0] as ObjectCase))
    if (r.status !== 404) break
    await new Promise(resolve => setTimeout(resolve, 200))
  }
})

/** Creates (dry run) or, for an update case, creates `from` and updates it (dry run); returns the answer. */
async function ask (k: ObjectCase): Promise<Answer> {
  if (k.from === undefined) return toAnswer(await request('POST', `${collection(k.crd)}?dryRun=All&fieldValidation=Warn`, caseObject(k)))
  const created = await request('POST', `${collection(k.crd)}?fieldValidation=Warn`, caseObject(k, k.from))
  if (created.status !== 201) throw new Error(`creating ${k.name}: ${JSON.stringify(created.body)}`)
  const stored = created.body
  const update = { ...caseObject(k), metadata: { ...(stored.metadata as Record<string, unknown>) } }
  const answer = toAnswer(await request('PUT', `${collection(k.crd)}/${k.name}?dryRun=All&fieldValidation=Warn`, update))
  answer.from = stored
  return answer
}

interface Tally { compared: number, equal: number, accepted: number, refused: number, sameOrder: number, differences: string[] }

/** An object as recorded: only the name and namespace of its metadata (the rest is the API server's bookkeeping). */
function lean (o: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (o === undefined) return undefined
  const meta = (o.metadata ?? {}) as Record<string, unknown>
  return { ...o, metadata: { name: meta.name, namespace: meta.namespace } }
}

async function run (t: Test, cases: readonly ObjectCase[], tally: Tally): Promise<void> {
  for (const k of cases) {
    const answer = await ask(k)
    recorded[k.name] = { ...answer, ...(answer.object ? { object: lean(answer.object) } : {}), ...(answer.from ? { from: lean(answer.from) } : {}) }
    const result = compare(ourResult(k, answer.from), answer)
    tally.compared++
    if (answer.code === 422) tally.refused++
    else tally.accepted++
    if (result.equal) tally.equal++
    else tally.differences.push(`${k.name}: ${result.diffs.join('\n')}`)
    if (result.sameOrder && answer.code === 422) tally.sameOrder++
    t.ok(result.equal, k.name, { diffs: result.diffs })
  }
}

const report = (t: Test, what: string, tally: Tally) => {
  t.comment(`${what}: ${tally.compared} objects (${tally.accepted} accepted, ${tally.refused} refused by the API server); ` +
    `${tally.equal} equal, ${tally.compared - tally.equal} different; ${tally.sameOrder} of the refusals with the message in the same order`)
  for (const d of tally.differences) t.comment(`difference: ${d}`)
}

t.test('hand-written objects: stored objects, field errors and messages equal the API server\'s', async t => {
  const tally: Tally = { compared: 0, equal: 0, accepted: 0, refused: 0, sameOrder: 0, differences: [] }
  await run(t, HAND_WRITTEN, tally)
  report(t, 'hand-written', tally)
  t.ok(tally.refused > 40 && tally.accepted > 20, 'both outcomes are exercised')
})

t.test(`objects generated from seed ${SEED}`, async t => {
  const tally: Tally = { compared: 0, equal: 0, accepted: 0, refused: 0, sameOrder: 0, differences: [] }
  await run(t, generatedCases(SEED, PER_CRD), tally)
  report(t, 'generated', tally)
})

/** Asks the API server for a probe set's object (dry run); returns its details and ours, one per failing rule. */
async function probe (set: ProbeSet): Promise<{ answer: Answer, theirs: string[], ours: string[] }> {
  const object = { apiVersion: `${GROUP}/${VERSION}`, kind: set.crd.kind, metadata: { name: 'probe', namespace: 'default' }, spec: set.spec }
  const answer = toAnswer(await request('POST', `${collection(set.crd)}?dryRun=All`, object))
  recorded[set.key] = answer
  const ours = createCustomResource(compileSchema(set.crd.schema), object).errors.map(e => `${e.field}: ${errorBody(e)}`)
  return { answer, theirs: probeDetails(answer.causes ?? []), ours: probeDetails(ours) }
}

t.test('CEL values: each messageExpression gives the API server\'s string', async t => {
  let total = 0
  let equal = 0
  for (const set of PROBE_SETS.filter(p => p.values)) {
    const { answer, theirs, ours } = await probe(set)
    t.equal(answer.code, 422)
    t.equal(theirs.length, set.probes.length, 'one error per probe (each rule is `false`)')
    set.probes.forEach((expr, i) => { total++; if (t.equal(ours[i], theirs[i], expr)) equal++ })
  }
  t.comment(`CEL value probes: ${total} expressions, ${equal} equal`)
})

t.test('CEL runtime errors: each failing rule gives the API server\'s error', async t => {
  let rules = 0
  let failing = 0
  let equal = 0
  for (const set of PROBE_SETS.filter(p => !p.values)) {
    const { answer, theirs, ours } = await probe(set)
    t.equal(answer.code, 422)
    // A rule whose error is absorbed (`exists` finding a match after an error) passes: both lists skip it.
    t.equal(ours.length, theirs.length, `${set.key}: as many failing rules as the API server`)
    theirs.forEach((detail, i) => { if (t.equal(ours[i], detail, detail)) equal++ })
    rules += set.probes.length
    failing += theirs.length
  }
  t.comment(`CEL error probes: ${rules} rules, ${failing} failing, ${equal} equal`)
})

t.test('record the answers', async t => {
  if (process.env.RUNTIME_SDK_RECORD_APISERVER !== '1') {
    t.pass('not recording (RUNTIME_SDK_RECORD_APISERVER=1 rewrites test/fixtures/apiserver/answers.json)')
    return
  }
  mkdirSync(dirname(ANSWERS), { recursive: true })
  writeFileSync(ANSWERS, JSON.stringify({ seed: SEED, perCRD: PER_CRD, answers: recorded }, null, 1) + '\n')
  t.pass(`wrote ${Object.keys(recorded).length} answers`)
})
