// runtime-sdk simulate -f on hostile ClusterClasses (test/helpers/hostile.ts): a catastrophic regular expression
// answers Go's false, an alias bomb Go's refusal, each at once; what would run for hours or fill the memory is cut by
// the Cluster's budget (--cluster-timeout, --cluster-memory) into one line. Each run is given a budget, so that a
// regression fails with a message instead of stalling the suite; the times are printed, not asserted (bench/ holds
// speed targets).
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { stringify } from 'yaml'
import { aliasBomb, HOSTILE_PATCHES, hostileObjects } from '../helpers/hostile.js'
import { runCliHere } from '../helpers/run-cli.js'

t.setTimeout(120_000)
const dir = mkdtempSync(join(tmpdir(), 'runtime-sdk-simulate-hostile-'))

/** simulate -f over the hostile Cluster with these patches (and hostileName), with the flags given. */
async function simulateHostile (patches: Array<keyof typeof HOSTILE_PATCHES>, flags: string[], hostileName?: string): Promise<{ code: number | null, stdout: string, stderr: string, ms: number }> {
  const file = join(dir, `${patches.join('-')}-${(hostileName ?? 'hostile').slice(0, 20)}-${hostileName?.length ?? 0}.yaml`)
  writeFileSync(file, hostileObjects('default', 'hostile', patches, hostileName).map(o => stringify(o)).join('---\n'))
  const start = performance.now()
  const r = await runCliHere(['simulate', '-f', file, ...flags])
  return { ...r, ms: Math.round(performance.now() - start) }
}

t.before(async () => { await simulateHostile([], []) }) // loads the modules once, outside the timings

t.test('regexMatch "^(a+)+$" on forty a\'s and a \'!\' is false, as Go answers, at once', async t => {
  const hostile = await simulateHostile(['regex'], ['--cluster-timeout', '10s'])
  t.equal(hostile.code, 0, hostile.stderr)
  t.notMatch(hostile.stdout, /postKubeadmCommands/, 'the patch is not enabled')
  t.match(hostile.stdout, /The cluster was created and deleted/)
  t.comment(`${hostile.ms} ms`)
  const matching = await simulateHostile(['regex'], ['--cluster-timeout', '10s'], 'aaaa')
  t.equal(matching.code, 0, matching.stderr)
  t.match(matching.stdout, /add \/spec\/template\/spec\/postKubeadmCommands \["echo the name is all a"\]/, 'a name that matches enables it')
})

t.test('a template rendering an alias bomb is refused with Go\'s message, at once', async t => {
  const r = await simulateHostile(['alias'], ['--cluster-timeout', '10s'])
  t.equal(r.code, 1)
  t.equal(r.stderr, `error: failed to apply patches: failed to generate patches for patch "hostile-alias": failed to generate JSON patches for "KubeadmConfigTemplate": failed to calculate value for template: failed to unmarshal rendered template: ${JSON.stringify(aliasBomb())}: error converting YAML to JSON: yaml: document contains excessive aliasing\n`)
  t.comment(`${r.ms} ms`)
})

t.test('a template that would run for hours, or fill the memory, is one line within the Cluster\'s budget', async t => {
  const slow = await simulateHostile(['loop'], ['--cluster-timeout', '1s'])
  t.equal(slow.code, 1)
  t.equal(slow.stderr, 'error: Cluster default/hostile: could not be computed: took longer than 1s\n')
  t.equal(slow.stdout, '')
  const big = await simulateHostile(['memory'], ['--cluster-memory', '64Mi'])
  t.equal(big.code, 1)
  t.equal(big.stderr, 'error: Cluster default/hostile: could not be computed: used more than 64Mi of memory\n')
  t.comment(`${slow.ms} ms and ${big.ms} ms`)
})

t.test('the budget flags take kubectl\'s spellings of durations and quantities', async t => {
  const r = await runCliHere(['simulate', '-f', dir, '--cluster-memory', 'lots'])
  t.equal(r.code, 2)
  t.match(r.stderr, /--cluster-memory.*must be a memory size such as 512Mi, 1Gi or 500M/)
  const help = await runCliHere(['simulate', '--help'])
  t.match(help.stdout, /--cluster-timeout <duration>[^]*\(default: 30s\)/)
  t.match(help.stdout, /--cluster-memory <quantity>[^]*\(default: 512Mi\)/)
})

t.test('an object larger than the API server takes is refused as kube-apiserver refuses it', async t => {
  const r = await simulateHostile(['regex'], [], 'a'.repeat(4 * 2 ** 20))
  t.equal(r.code, 2)
  t.match(r.stderr, /^error: Cluster default\/hostile \(.*\): Request entity too large: limit is 3145728\n$/)
})
