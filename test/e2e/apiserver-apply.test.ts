// typedPatchError against a real kube-apiserver (1.36): Cluster API's CRDs (the v1beta2 schemas of
// hooks/v1alpha1/crds.json) and the test CRDs are installed, then every case of test/helpers/apply-cases.ts (hand-written
// ones for each rule, objects mutated from a seed) is sent as Cluster API's topology controller sends objects: a
// server-side apply, dry run, field manager capi-topology, forced. A refusal of the typed conversion must be our message
// (in the visiting order the API server's shows); any other answer means the conversion went through, which
// typedPatchError must agree with, and createCustomResource (updateCustomResource for an apply over a stored object)
// must then accept or refuse as the API server did, with the same field errors.
//
// With RUNTIME_SDK_RECORD_APISERVER=1 the answers are written to test/fixtures/apiserver/apply-answers.json, which
// test/apiserver/apply-recorded.test.ts replays without a cluster.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import t, { type Test } from 'tap'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { type ApplyCase, applyObject, generatedCases, HAND_WRITTEN } from '../helpers/apply-cases.js'
import { type ApplyAnswer, compareApply } from '../helpers/apply-compare.js'
import { APPLY_CRDS, type ApplyCRD, applyCRDObject } from '../helpers/apply-crds.js'
import { apiServerRequest, type Reply } from '../helpers/apiserver-request.js'

const ANSWERS = fileURLToPath(new URL('../fixtures/apiserver/apply-answers.json', import.meta.url))
const SEED = 20260501
const PER_CRD = 20
const APPLY = 'fieldManager=capi-topology&force=true'

const cp = await startControlPlane({ log: (message) => t.comment(message) })
t.teardown(() => cp.stop())

const resource = (k: ApplyCase) => `/apis/${k.crd.group}/${k.crd.version}/namespaces/default/${k.crd.plural}/${k.name}`
const apply = async (path: string, object: Record<string, unknown>): Promise<Reply> => await apiServerRequest(cp, 'PATCH', path, object, 'application/apply-patch+yaml')

async function install (crds: readonly ApplyCRD[]): Promise<void> {
  // create, not apply: client-side apply's last-applied annotation would not fit Cluster API's biggest CRDs.
  const created = await cp.kubectl(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: crds.map(applyCRDObject) }), timeoutMs: 120_000 })
  if (created.code !== 0) throw new Error(`kubectl create: ${created.stderr}`)
  const names = crds.map(c => `crd/${c.plural}.${c.group}`)
  const established = await cp.kubectl(['wait', '--for=condition=Established', ...names, '--timeout=120s'], { timeoutMs: 130_000 })
  if (established.code !== 0) throw new Error(`kubectl wait: ${established.stderr}`)
}

/** The object as recorded: only the name and namespace of its metadata (the rest is the API server's bookkeeping). */
function lean (o: Record<string, unknown>): Record<string, unknown> {
  const meta = (o.metadata ?? {}) as Record<string, unknown>
  return { ...o, metadata: { name: meta.name, namespace: meta.namespace } }
}

function toAnswer (reply: Reply): ApplyAnswer {
  if (reply.status === 200 || reply.status === 201) return { code: reply.status }
  const details = reply.body.details as { causes?: Array<{ field?: string, message?: string }> } | undefined
  const causes = (details?.causes ?? []).map(c => `${c.field ?? ''}: ${c.message ?? ''}`)
  return { code: reply.status, reason: String(reply.body.reason ?? ''), message: String(reply.body.message ?? ''), ...(causes.length > 0 ? { causes } : {}) }
}

/** Applies the case (dry run); an update case first applies its from for real. */
async function ask (k: ApplyCase): Promise<ApplyAnswer> {
  if (k.from === undefined) return toAnswer(await apply(`${resource(k)}?dryRun=All&${APPLY}`, applyObject(k)))
  const stored = await apply(`${resource(k)}?${APPLY}`, applyObject(k, k.from))
  if (stored.status !== 200 && stored.status !== 201) throw new Error(`applying ${k.name}'s from: ${JSON.stringify(stored.body)}`)
  return { ...toAnswer(await apply(`${resource(k)}?dryRun=All&${APPLY}`, applyObject(k))), from: lean(stored.body) }
}

const recorded: Record<string, ApplyAnswer> = {}

t.before(async () => {
  await install(APPLY_CRDS)
  // The API server serves a new CRD's storage shortly after Established: wait until each answers an apply.
  for (const crd of APPLY_CRDS) {
    const probe: ApplyCase = { name: 'probe', crd, body: {} }
    for (let i = 0; i < 100; i++) {
      const r = await apply(`${resource(probe)}?dryRun=All&${APPLY}`, applyObject(probe))
      if (r.status !== 404) break
      await new Promise(resolve => setTimeout(resolve, 200))
    }
  }
})

interface Tally { cases: number, typed: number, refused: number, accepted: number, equal: number, sameOrder: number, several: number, differences: string[] }

async function run (t: Test, cases: readonly ApplyCase[], tally: Tally): Promise<void> {
  for (const k of cases) {
    const answer = await ask(k)
    recorded[k.name] = answer
    const result = compareApply(k, answer)
    tally.cases++
    if (result.kind === 'typed') tally.typed++
    if (result.kind === 'refused') tally.refused++
    if (result.kind === 'accepted') tally.accepted++
    if (result.kind === 'typed' && answer.message?.includes(': errors:\n')) tally.several++
    if (result.equal) tally.equal++
    else tally.differences.push(`${k.name}: ${result.diffs.join('\n')}`)
    if (result.kind === 'typed' && result.sameOrder) tally.sameOrder++
    t.ok(result.equal, k.name, { diffs: result.diffs })
  }
}

const report = (t: Test, what: string, tally: Tally) => {
  t.comment(`${what}: ${tally.cases} applies; ${tally.typed} refused by the typed conversion (${tally.several} with several errors, ` +
    `${tally.sameOrder} in our default order), ${tally.refused} refused by validation after it, ${tally.accepted} accepted; ` +
    `${tally.equal} equal, ${tally.cases - tally.equal} different`)
  for (const d of tally.differences) t.comment(`difference: ${d}`)
}

const tally = (): Tally => ({ cases: 0, typed: 0, refused: 0, accepted: 0, equal: 0, sameOrder: 0, several: 0, differences: [] })

t.test('hand-written applies: the API server\'s typed-conversion refusals, and what passes it', async t => {
  const hand = tally()
  await run(t, HAND_WRITTEN, hand)
  report(t, 'hand-written', hand)
  t.ok(hand.typed > 50 && hand.refused > 3 && hand.accepted > 3, 'every outcome is exercised')
})

t.test(`applies mutated from seed ${SEED}`, async t => {
  const generated = tally()
  await run(t, generatedCases(SEED, PER_CRD), generated)
  report(t, 'generated', generated)
  t.ok(generated.cases >= 500, 'at least 500 generated applies')
})

t.test('record the answers', async t => {
  if (process.env.RUNTIME_SDK_RECORD_APISERVER !== '1') {
    t.pass('not recording (RUNTIME_SDK_RECORD_APISERVER=1 rewrites test/fixtures/apiserver/apply-answers.json)')
    return
  }
  mkdirSync(dirname(ANSWERS), { recursive: true })
  writeFileSync(ANSWERS, JSON.stringify({ seed: SEED, perCRD: PER_CRD, answers: recorded }, null, 1) + '\n')
  t.pass(`wrote ${Object.keys(recorded).length} answers`)
})
