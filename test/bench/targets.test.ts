import t from 'tap'
import { callAllId, controllerId, deadId, OVERHEAD_IDS, serverCaseId } from '../../bench/lib/ids.js'
import { evaluateTargets } from '../../bench/lib/targets.js'
import type { CaseResult, Summary } from '../../bench/lib/types.js'

const summary = (rps: number, p50Ms: number, p99Ms = p50Ms * 2): Summary => ({ repetitions: 3, requests: 1, rps, p50Ms, p99Ms, maxMs: p99Ms, errors: 0, non2xx: 0 })
const result = (id: string, s: Summary): CaseResult => ({ id, labels: {}, runs: [], summary: s })

function cases (overrides: Record<string, Summary> = {}, controllerRssMb = 150): CaseResult[] {
  const base: Record<string, Summary> = {
    [serverCaseId('floor', 'bcc-5k', 'http', 10)]: summary(10000, 0.9, 3),
    [serverCaseId('ours', 'bcc-5k', 'http', 10)]: summary(9500, 1, 4),
    [callAllId(10, 20, false)]: summary(40, 22),
    [callAllId(10, 20, true)]: summary(4.5, 205),
    [OVERHEAD_IDS.raw]: summary(1500, 0.6),
    [OVERHEAD_IDS.callExtension]: summary(1200, 0.8),
    [OVERHEAD_IDS.callAll]: summary(1100, 0.9),
    [deadId(10, false)]: summary(1, 1010),
    [deadId(10, true)]: summary(0.1, 10050)
  }
  for (const w of ['bcc-5k', 'gp-64k', 'gp-1m']) {
    for (const c of [1, 10]) {
      base[serverCaseId('ours', w, 'https', c)] = summary(1000, 1)
      base[serverCaseId('capi-go', w, 'https', c)] = summary(900, 1)
    }
  }
  base[controllerId(1000)] = summary(50, 20_000, 20_000)
  return Object.entries({ ...base, ...overrides }).map(([id, s]) => ({ ...result(id, s), ...(id === controllerId(1000) ? { rssMb: controllerRssMb } : {}) }))
}

const byId = (targets: ReturnType<typeof evaluateTargets>) => new Map(targets.map(x => [x.id, x]))

t.test('every target passes when the measurements meet it', async t => {
  const targets = evaluateTargets(cases())
  t.same(targets.filter(x => x.pass !== true).map(x => x.id), [])
  const got = byId(targets)
  t.equal(got.get('floor-ratio')?.measured, '95% (9,500 vs 10,000 req/s)')
  t.equal(got.get('fan-out')?.measured, 'p50 22.0 ms (sequential: 205 ms)')
  t.equal(got.get('overhead/callExtension')?.measured, '+0.200 ms (p50 0.800 vs 0.600 ms)')
  t.equal(got.get('dead')?.measured, '1,010 ms (sequential: 10,050 ms)')
  t.equal(got.get('vs-go/gp-1m/c10')?.measured, '1.11× (1,000 vs 900 req/s)')
  t.equal(got.get('controller')?.measured, '20 s, RSS 150 MB')
})

t.test('the controller target misses on time or on memory', async t => {
  t.equal(byId(evaluateTargets(cases({ [controllerId(1000)]: summary(10, 61_000, 61_000) }))).get('controller')?.pass, false, '61 s')
  t.equal(byId(evaluateTargets(cases({}, 201))).get('controller')?.pass, false, '201 MB')
})

t.test('each target misses on its own threshold', async t => {
  const got = byId(evaluateTargets(cases({
    [serverCaseId('ours', 'bcc-5k', 'http', 10)]: summary(8900, 1, 5),
    [serverCaseId('capi-go', 'gp-64k', 'https', 1)]: summary(1001, 1),
    [callAllId(10, 20, false)]: summary(30, 30),
    [OVERHEAD_IDS.callAll]: summary(1000, 1.1),
    [deadId(10, false)]: summary(0.5, 2000)
  })))
  t.equal(got.get('floor-ratio')?.pass, false, '89% of the floor misses 90%')
  t.equal(got.get('p99')?.pass, false, 'a p99 of exactly 5 ms misses < 5 ms')
  t.equal(got.get('vs-go/gp-64k/c1')?.pass, false)
  t.equal(got.get('vs-go/gp-64k/c10')?.pass, true)
  t.equal(got.get('fan-out')?.pass, false)
  t.equal(got.get('overhead/callAllExtensions')?.pass, false)
  t.equal(got.get('overhead/callExtension')?.pass, true)
  t.equal(got.get('dead')?.pass, false)
})

t.test('a target whose cases did not run has no verdict and says which case is missing', async t => {
  const got = byId(evaluateTargets(cases().filter(c => !c.id.startsWith('capi-go/') && c.id !== callAllId(10, 20, true))))
  t.equal(got.get('vs-go/bcc-5k/c1')?.pass, undefined)
  t.equal(got.get('vs-go/bcc-5k/c1')?.measured, 'not measured (capi-go/bcc-5k/https/c1)')
  t.equal(got.get('fan-out')?.measured, 'p50 22.0 ms (sequential: not measured)')
  const skipped: CaseResult = { id: serverCaseId('floor', 'bcc-5k', 'http', 10), labels: {}, runs: [], skipped: 'failed' }
  t.equal(byId(evaluateTargets([...cases().filter(c => c.id !== skipped.id), skipped])).get('floor-ratio')?.pass, undefined)
})
