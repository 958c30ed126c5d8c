import t from 'tap'
import { packageOf, selfTimes, summarizeProfile, type CpuProfile } from '../../bench/lib/profile.js'

const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber })
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', '') },
    { id: 2, callFrame: frame('parse', '') },
    { id: 3, callFrame: frame('validate', 'file:///repo/src/catalog/validate.ts', 9) },
    { id: 4, callFrame: frame('', 'file:///repo/node_modules/fastify/lib/route.js', 41) },
    { id: 5, callFrame: frame('onStreamRead', 'node:internal/stream_base_commons', 160) }
  ],
  samples: [2, 2, 3, 4, 2, 5, 99],
  timeDeltas: [1000, 1000, 2000, 500, 1000, 500, 700]
}

t.test('self time adds the time deltas of the samples that hit each function', async t => {
  const { totalMs, rows } = selfTimes(profile, f => f.functionName || '(anonymous)')
  t.equal(totalMs, 6, 'samples of unknown nodes are not counted')
  t.same(rows.map(r => [r.name, r.selfMs]), [['parse', 3], ['validate', 2], ['(anonymous)', 0.5], ['onStreamRead', 0.5]])
  t.equal(rows[0]?.share, 0.5)
})

t.test('packages: node_modules packages, node internals, our sources, V8', async t => {
  t.equal(packageOf('file:///repo/node_modules/fastify/lib/route.js'), 'fastify')
  t.equal(packageOf('file:///repo/node_modules/@fastify/ajv-compiler/index.js'), '@fastify/ajv-compiler')
  t.equal(packageOf('node:internal/streams/readable'), 'node:internal/streams')
  t.equal(packageOf('node:_http_server'), 'node:_http_server')
  t.equal(packageOf('file:///repo/src/server/call.ts'), 'src/server/call.ts')
  t.equal(packageOf('file:///elsewhere/x.js'), '/elsewhere/x.js')
  t.equal(packageOf(''), '(V8 / native)')
})

t.test('the summary lists packages and functions with their share', async t => {
  const text = summarizeProfile(profile, 'CPU profile of ours/bcc-5k/http/c10')
  t.match(text, /^CPU profile of ours\/bcc-5k\/http\/c10\nsampled: 6 ms/)
  t.match(text, / 50\.0%\s+3 ms\s+parse\n/)
  t.match(text, /33\.3%\s+2 ms\s+validate src\/catalog\/validate\.ts:10\n/)
  t.match(text, /\(anonymous\) fastify\/lib\/route\.js:42/)
  t.match(text, /Self time by package[^]*src\/catalog\/validate\.ts[^]*Top 30 functions/)
})
