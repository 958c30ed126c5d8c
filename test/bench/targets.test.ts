import t from 'tap'
import { callAllId, controllerId, deadId, impactId, FOOTPRINT_IDS, HOSTILE_SERVERS, hostileClosedId, hostileId, OVERHEAD_IDS, serverCaseId } from '../../bench/lib/ids.js'
import { evaluateTargets } from '../../bench/lib/targets.js'
import type { CaseResult, Summary } from '../../bench/lib/types.js'

const summary = (rps: number, p50Ms: number, p99Ms = p50Ms * 2, cpuUsPerRequest?: number): Summary =>
  ({ repetitions: 3, requests: 1, rps, p50Ms, p99Ms, maxMs: p99Ms, errors: 0, non2xx: 0, ...(cpuUsPerRequest !== undefined ? { cpuUsPerRequest } : {}) })

interface Measured { summary: Summary, rssMb?: number }

function cases (overrides: Record<string, Partial<Measured>> = {}): CaseResult[] {
  const base: Record<string, Measured> = {
    [callAllId(10, 20, false)]: { summary: summary(40, 22) },
    [callAllId(10, 20, true)]: { summary: summary(4.5, 205) },
    [OVERHEAD_IDS.raw]: { summary: summary(1500, 0.6) },
    [OVERHEAD_IDS.callExtension]: { summary: summary(1200, 0.8) },
    [OVERHEAD_IDS.callAll]: { summary: summary(1100, 0.9) },
    [deadId(10, false)]: { summary: summary(1, 1010) },
    [deadId(10, true)]: { summary: summary(0.1, 10050) },
    [serverCaseId('ours-workers', 'bcc-5k', 'https', 10)]: { summary: summary(20000, 0.5) },
    [serverCaseId('ours-untraced', 'bcc-5k', 'https', 10)]: { summary: summary(960, 1, 2.5, 53) },
    [serverCaseId('capi-go-all', 'bcc-5k', 'https', 10)]: { summary: summary(19000, 0.5) },
    [controllerId(1)]: { summary: summary(1, 900, 900), rssMb: 65 },
    [controllerId(1000)]: { summary: summary(50, 20_000, 20_000), rssMb: 110 },
    [FOOTPRINT_IDS.idle]: { summary: summary(1, 1), rssMb: 55 },
    [FOOTPRINT_IDS.storm]: { summary: summary(1, 1), rssMb: 80 },
    [FOOTPRINT_IDS.startup]: { summary: summary(1, 250) },
    [hostileId('capi-go', 'keep-alive', false)]: { summary: summary(10000, 0.8, 2) },
    [hostileId('capi-go', 'keep-alive', true)]: { summary: summary(9000, 0.9, 4) },
    [impactId('dry-run', 1000)]: { summary: summary(150, 6_000, 6_000) },
    [impactId('impact', 1000)]: { summary: summary(75, 13_000, 13_000), rssMb: 280 }
  }
  for (const server of Object.keys(HOSTILE_SERVERS)) {
    base[hostileId(server, 'keep-alive', false)] = { summary: summary(10000, 0.8, 2) }
    base[hostileId(server, 'keep-alive', true)] = { summary: summary(9000, 0.9, 2.9) }
    base[hostileId(server, 'new-connection', false)] = { summary: summary(500, 2, 4) }
    base[hostileId(server, 'new-connection', true)] = { summary: summary(450, 2, 5) }
    base[hostileClosedId(server)] = { summary: { ...summary(0, 10_000, 10_000), requests: server === 'controller' ? 20 : 40 } }
  }
  for (const w of ['bcc-5k', 'gp-64k', 'gp-1m']) {
    for (const c of [1, 10]) {
      base[serverCaseId('floor', w, 'https', c)] = { summary: summary(1000, 1, 2, 50) }
      base[serverCaseId('ours', w, 'https', c)] = { summary: summary(950, 1, 2.5, 54) }
      base[serverCaseId('ours-ref', w, 'https', c)] = { summary: summary(920, 1, 3, 55) }
      base[serverCaseId('capi-go', w, 'https', c)] = { summary: summary(700, 1, 4, 90) }
    }
  }
  return Object.entries(base).map(([id, measured]) => {
    const { summary: s, rssMb } = { ...measured, ...overrides[id] }
    return { id, labels: {}, runs: [], summary: s, ...(rssMb !== undefined ? { rssMb } : {}) }
  })
}

const byId = (targets: ReturnType<typeof evaluateTargets>) => new Map(targets.map(x => [x.id, x]))

t.test('every target passes when the measurements meet it', async t => {
  const targets = evaluateTargets(cases())
  t.same(targets.filter(x => x.pass !== true).map(x => x.id), [])
  const got = byId(targets)
  t.equal(got.get('floor/ours-ref/bcc-5k')?.measured, 'req/s 0.92× (920 vs 1,000), CPU 0.91× (55 vs 50 µs/req)')
  t.equal(got.get('p99')?.measured, '3.00 ms (the larger of the two)')
  t.equal(got.get('tracing-off')?.measured, 'req/s 0.99× (950 vs 960), CPU 0.98× (54 vs 53 µs/req)')
  t.equal(got.get('vs-go/gp-1m/c10')?.measured, '1.31× (920 vs 700 req/s)')
  t.equal(got.get('vs-go/all-cores')?.measured, '1.05× (20,000 vs 19,000 req/s)')
  t.equal(got.get('idle-rss')?.measured, '55 MB')
  t.equal(got.get('fuzz-storm')?.measured, '1.45× (80 vs 55 MB)')
  t.equal(got.get('hostile/keep-alive')?.measured, '1.45× (2.90 vs 2.00 ms; Go 2.00×)', 'the extension server is compared with the Go server')
  t.equal(got.get('hostile/closed')?.measured, '40 of 40 closed, the last after 10.0 s')
  t.equal(got.get('hostile/keep-alive/webhook')?.measured, '1.45× (2.90 vs 2.00 ms)', 'the other servers have no Go peer')
  t.equal(got.get('hostile/closed/controller')?.measured, '20 of 20 closed, the last after 10.0 s')
  t.equal(got.get('fan-out')?.measured, 'p50 22.0 ms (sequential: 205 ms)')
  t.equal(got.get('overhead/callExtension')?.measured, '+0.200 ms (p50 0.800 vs 0.600 ms)')
  t.equal(got.get('dead')?.measured, '1,010 ms (sequential: 10,050 ms)')
  t.equal(got.get('controller/n1000')?.measured, 'RSS 110 MB, 20 s')
  t.equal(got.get('impact/n1000')?.measured, '13.0 s (2.17× the desired state computed once), RSS 280 MB')
})

t.test('each target misses on its own threshold', async t => {
  const got = byId(evaluateTargets(cases({
    [serverCaseId('ours', 'bcc-5k', 'https', 10)]: { summary: summary(950, 1, 3.01, 63) },
    [serverCaseId('capi-go', 'bcc-5k', 'https', 1)]: { summary: summary(708, 1) },
    [serverCaseId('ours-ref', 'gp-64k', 'https', 10)]: { summary: summary(890, 1, 3, 50) },
    [serverCaseId('capi-go', 'gp-64k', 'https', 1)]: { summary: summary(767, 1) },
    [serverCaseId('capi-go-all', 'bcc-5k', 'https', 10)]: { summary: summary(20001, 1) },
    [FOOTPRINT_IDS.idle]: { rssMb: 61 },
    [FOOTPRINT_IDS.storm]: { rssMb: 92 },
    [FOOTPRINT_IDS.startup]: { summary: summary(1, 301) },
    [hostileId('ours', 'new-connection', true)]: { summary: summary(450, 2, 6.01) },
    [hostileClosedId('ours')]: { summary: { ...summary(0, 15_000, 15_000), requests: 39, errors: 1 } },
    [hostileId('controller-secure', 'keep-alive', true)]: { summary: summary(9000, 0.9, 3.01) },
    [hostileClosedId('webhook')]: { summary: { ...summary(0, 15_000, 15_000), requests: 38, errors: 2 } },
    [controllerId(1)]: { rssMb: 71 },
    [controllerId(1000)]: { summary: summary(10, 61_000, 61_000) },
    [callAllId(10, 20, false)]: { summary: summary(30, 30) },
    [OVERHEAD_IDS.callAll]: { summary: summary(1000, 1.1) },
    [deadId(10, false)]: { summary: summary(0.5, 2000) },
    [impactId('impact', 1000)]: { summary: summary(33, 30_000, 30_000), rssMb: 300 }
  })))
  t.equal(got.get('floor/ours/bcc-5k')?.pass, false, 'CPU 50/63 = 0.79× misses 0.8× at 5 KB although req/s meets it')
  t.equal(got.get('floor/ours-ref/gp-64k')?.pass, false, 'req/s 0.89× misses although CPU meets it')
  t.equal(got.get('p99')?.pass, false, '3.01 ms misses ≤ 3 ms')
  t.equal(got.get('tracing-off')?.pass, false, 'CPU 53/63 = 0.84×: tracing off costs the hook path')
  t.equal(got.get('vs-go/gp-64k/c1')?.pass, false, '920/767 = 1.199× misses 1.2×')
  t.equal(got.get('vs-go/bcc-5k/c1')?.pass, false, '920/708 = 1.299× misses 1.3× at 5 KB')
  t.equal(got.get('vs-go/bcc-5k/c10')?.pass, true, '920/700 = 1.31× meets it')
  t.equal(got.get('vs-go/gp-64k/c10')?.pass, true)
  t.equal(got.get('vs-go/all-cores')?.pass, false)
  t.equal(got.get('idle-rss')?.pass, false)
  t.equal(got.get('fuzz-storm')?.pass, false, '92 MB after vs 61 MB idle: 1.51×')
  t.equal(got.get('startup')?.pass, false)
  t.equal(got.get('hostile/new-connection')?.pass, false)
  t.equal(got.get('hostile/keep-alive')?.pass, true)
  t.equal(got.get('hostile/closed')?.pass, false, 'one socket left open')
  t.equal(got.get('hostile/keep-alive/controller-secure')?.pass, false, '3.01 vs 2 ms misses 1.5×')
  t.equal(got.get('hostile/new-connection/controller-secure')?.pass, true)
  t.equal(got.get('hostile/closed/webhook')?.pass, false)
  t.equal(got.get('hostile/closed/controller')?.pass, true)
  t.equal(got.get('controller/n1')?.pass, false, '71 MB')
  t.equal(got.get('controller/n1000')?.pass, false, '61 s')
  t.equal(got.get('fan-out')?.pass, false)
  t.equal(got.get('overhead/callAllExtensions')?.pass, false)
  t.equal(got.get('overhead/callExtension')?.pass, true)
  t.equal(got.get('dead')?.pass, false)
  t.equal(got.get('impact/n1000')?.pass, false, '30 s misses < 30 s')
})

t.test('a target whose cases did not run has no verdict and says which case is missing', async t => {
  const got = byId(evaluateTargets(cases().filter(c => !c.id.startsWith('capi-go/') && c.id !== callAllId(10, 20, true) && c.id !== FOOTPRINT_IDS.idle &&
    !c.id.startsWith('hostile/webhook/') && !c.id.startsWith('hostile/capi-go/'))))
  t.equal(got.get('vs-go/bcc-5k/c1')?.pass, undefined)
  t.equal(got.get('vs-go/bcc-5k/c1')?.measured, 'not measured (capi-go/bcc-5k/https/c1)')
  t.equal(byId(evaluateTargets(cases().filter(c => !c.id.startsWith('ours-untraced/')))).get('tracing-off')?.measured, 'not measured (ours-untraced/bcc-5k/https/c10)')
  t.equal(got.get('fuzz-storm')?.measured, 'not measured (footprint/idle-rss)')
  t.equal(got.get('fan-out')?.measured, 'p50 22.0 ms (sequential: not measured)')
  t.equal(got.get('hostile/keep-alive')?.measured, '1.45× (2.90 vs 2.00 ms)', 'without the Go server, ours alone')
  t.equal(got.get('hostile/closed/webhook')?.measured, 'not measured (hostile/webhook/idle-sockets-closed)')
  t.equal(got.get('hostile/closed/webhook')?.pass, undefined)
  const noCpu = cases({ [serverCaseId('floor', 'bcc-5k', 'https', 10)]: { summary: summary(1000, 1) } })
  t.equal(byId(evaluateTargets(noCpu)).get('floor/ours/bcc-5k')?.measured, 'not measured (floor/bcc-5k/https/c10 CPU)')
})
