// runtime-sdk rollout-impact as a user runs it: on files (the Cluster created with the current version first), the
// table, JSON and --fail-on-rollout a CI job gates on; bad input and an unusable management cluster in one line with
// exit 2 or 1, never a stack trace. (On a real management cluster, with Cluster API: test/capi/impact.test.ts.)
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import type { RolloutImpactReport } from '../../src/impact/live.js'
import { startFakeApiServer, writeKubeconfig } from '../helpers/fake-apiserver.js'
import { runCliHere } from '../helpers/run-cli.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
const V2 = fileURLToPath(new URL('../helpers/reference-extension-v2.ts', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'runtime-sdk-rollout-impact-'))

const kubeconfig = (server: string) => writeKubeconfig(dir, server)

t.test('on files: what the candidate changes, per object, and why', async t => {
  const json = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', V2, '-o', 'json'])
  t.equal(json.code, 0, json.stderr)
  const report = JSON.parse(json.stdout) as RolloutImpactReport
  t.match(report, { extensionConfig: 'reference', summary: { clusters: 1, rollingOut: 1, machines: 1, failed: 0 } })
  t.match(report.clusters[0], { cluster: 'default/loop', objects: [{ role: 'infrastructureCluster', effect: 'none' }, { role: 'controlPlane', effect: 'none', machines: 1 }, { role: 'machineDeployment md-0', effect: 'rollout', machines: 1 }] })

  const table = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', V2])
  t.match(table.stdout, /^CLUSTER\s+ROLE\s+OBJECT\s+EFFECT\s+MACHINES\s+WHY\n/)
  t.match(table.stdout, /default\/loop\s+machineDeployment md-0\s+MachineDeployment default\/loop-md-0-\w+\s+rollout\s+1\s+KubeadmConfigTemplate loop-md-0-\w+ \/spec\/template\/spec\/preKubeadmCommands\/1/)
  t.notMatch(table.stdout, /controlPlane/, 'objects that do not change are not listed')
  t.match(table.stdout, /1 of 1 Clusters would replace Machines \(1 Machines\), 0 change in place only, 0 unchanged, 0 could not be computed\.\n$/)

  const gated = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', V2, '--fail-on-rollout'])
  t.equal(gated.code, 1, 'exit 1: a CI job stops here')
  t.equal(gated.stderr, 'error: 1 Clusters would replace 1 Machines\n')

  const same = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', V2, '--current-handlers', V2, '--fail-on-rollout'])
  t.equal(same.code, 0, 'the same version against itself changes nothing')
  t.match(same.stdout, /default\/loop\s+-\s+-\s+none\s+nothing changes/)

  const refused = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', V2, '--current-handlers', fileURLToPath(new URL('../helpers/refuses-creation.ts', import.meta.url))])
  t.equal(refused.code, 1)
  t.match(refused.stderr, /^error: the Cluster cannot be created with the current extension: .*no new Clusters today.*\n$/, 'said in one line')
})

t.test('bad input: one line and exit 2', async t => {
  const cases: Array<[string[], RegExp]> = [
    [['-f', EXAMPLE], /^error: pass the candidate: --handlers <module>, --url <https-url> or --recording <file>\n$/],
    [['-f', EXAMPLE, '--handlers', V2, '--namespace', 'a'], /^error: pass the Clusters once: files \(-f\) or a management cluster/],
    [['--handlers', V2, '--kubeconfig', kubeconfig('https://127.0.0.1:1')], /^error: choose the Clusters: --namespace <ns>/],
    [['--handlers', V2, '--cluster', 'loop', '-A'], /^error: --cluster names a Cluster of a namespace: pass --namespace too\n$/],
    [['-f', EXAMPLE, '--recording', join(dir, 'missing.jsonl')], /^error: .*missing\.jsonl: no such file\n$/],
    [['-f', EXAMPLE, '--handlers', V2, '--concurrency', '0'], /must be an integer from 1 to 64/]
  ]
  for (const [args, message] of cases) {
    const r = await runCliHere(['rollout-impact', ...args])
    t.equal(r.code, 2, args.join(' '))
    t.match(r.stderr, message)
    t.notMatch(r.stderr, /\n\s+at /, 'no stack trace')
  }
  writeFileSync(join(dir, 'truncated.jsonl'), '{"format":"runtime-sdk.recording/v1","hook":"GeneratePatches"')
  const truncated = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--recording', join(dir, 'truncated.jsonl')])
  t.equal(truncated.code, 2)
  t.match(truncated.stderr, /truncated\.jsonl:1: the recording is truncated/)
})

t.test('a candidate that cannot be reached: one line, exit 1', async t => {
  const r = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--url', 'https://127.0.0.1:1'])
  t.equal(r.code, 1)
  t.match(r.stderr, /^error: Discovery of reference: failed to discover extension "reference": .*ECONNREFUSED.*\n$/)
})

t.test('a candidate module that throws, answers garbage or never answers: one line for its Cluster, exit 1, no stack trace', async t => {
  const module = fileURLToPath(new URL('../helpers/misbehaving-candidate.ts', import.meta.url))
  const cases: Array<[string, RegExp]> = [
    ['throw', /handler "generate-patches" failed with an unexpected Error; see the extension's log$/],
    ['garbage', /handler "generate-patches" returned an invalid response: items: json: cannot unmarshal string into Go value of type \[\]v1alpha1\.GeneratePatchesResponseItem$/],
    ['hang', /handler "generate-patches" did not answer within 9\.5s$/]
  ]
  for (const [misbehave, message] of cases) {
    process.env['RUNTIME_SDK_MISBEHAVE'] = misbehave
    const r = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', module]).finally(() => { delete process.env['RUNTIME_SDK_MISBEHAVE'] })
    t.equal(r.code, 1, misbehave)
    const lines = r.stderr.split('\n').filter(Boolean)
    t.equal(lines.length, 1, `${misbehave}: one line`)
    t.match(lines[0], /^error: the impact on 1 of 1 Clusters could not be computed: default\/loop: GeneratePatches \(patch reference\): /)
    t.match(lines[0], message)
    t.match(r.stdout, /1 could not be computed\./)
    t.notMatch(r.stderr + r.stdout, /\n\s+at /, 'no stack trace')
  }
})

t.test('a management cluster that cannot be read: one line that says what to check, exit 1', async t => {
  const unreachable = await runCliHere(['rollout-impact', '--kubeconfig', kubeconfig('http://127.0.0.1:1'), '-A', '--handlers', V2])
  t.equal(unreachable.code, 1)
  t.match(unreachable.stderr, /^error: cannot reach the API server at http:\/\/127\.0\.0\.1:1: .*check --kubeconfig and --context\n$/)

  const server = await startFakeApiServer()
  t.teardown(() => server.close())
  server.intercept = () => 401
  const refused = await runCliHere(['rollout-impact', '--kubeconfig', kubeconfig(server.url), '-A', '--handlers', V2])
  t.equal(refused.code, 1)
  t.equal(refused.stderr, `error: the API server at ${server.url} refused the credentials (Unauthorized): check --kubeconfig and --context\n`)
  server.intercept = () => 403
  const forbidden = await runCliHere(['rollout-impact', '--kubeconfig', kubeconfig(server.url), '-A', '--handlers', V2])
  t.match(forbidden.stderr, /runtime-sdk-cluster-reader ClusterRole \(deploy\/rbac\/cluster-reader-role\.yaml\)\n$/)
  t.ok(server.requests.length > 0 && server.requests.every(r => r.method === 'GET'), 'nothing but GETs')
})

/** A module serving one second version of test/helpers/reference-extension-v2.ts, for --handlers. */
const variant = (change: string) => {
  const file = join(dir, `v2-${change}.mts`)
  writeFileSync(file, `import { referenceHandlersV2 } from ${JSON.stringify(V2)}\nexport default referenceHandlersV2('${change}')\n`)
  return file
}

t.test('a version whose objects the API server refuses: refused, with Cluster API\'s error, in every format, and --fail-on-rollout fails', async t => {
  const json = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', variant('forbidden'), '-o', 'json'])
  t.equal(json.code, 0, json.stderr)
  const report = JSON.parse(json.stdout) as RolloutImpactReport
  t.match(report.summary, { clusters: 1, refused: 1, rollingOut: 0, failed: 0 })
  t.match(report.clusters[0], {
    topologyReconciled: { status: 'False', reason: 'ReconcileFailed', message: /^error reconciling the Cluster topology: failed to create patch helper for KubeadmControlPlane default\/loop-\w+: .*certificatesDir: Forbidden: cannot be modified$/ },
    objects: [{ role: 'infrastructureCluster', effect: 'none' }, { role: 'controlPlane', effect: 'refused', refused: /Forbidden: cannot be modified$/ }, { role: 'machineDeployment md-0', effect: 'none' }]
  })
  const yaml = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', variant('forbidden'), '-o', 'yaml'])
  t.match(yaml.stdout, /effect: refused\n/)

  const table = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', variant('forbidden')])
  t.match(table.stdout, /default\/loop\s+controlPlane\s+KubeadmControlPlane default\/loop-\w+\s+refused\s+1\s+failed to create patch helper for KubeadmControlPlane /)
  t.match(table.stdout, /\n1 of 1 Clusters would stop reconciling their topology \(the API server refuses an object Cluster API writes\), 0 of 1 Clusters would replace Machines/)

  const gated = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', variant('forbidden'), '--fail-on-rollout'])
  t.equal(gated.code, 1, 'a refusal fails the gate')
  t.match(gated.stderr, /^error: 1 Clusters would stop reconciling their topology: default\/loop: error reconciling the Cluster topology: failed to create patch helper for KubeadmControlPlane .*\n$/)

  const html = join(dir, 'refused.html')
  const page = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', variant('forbidden'), '--html', html])
  t.equal(page.code, 0, page.stderr)
  t.match(readFileSync(html, 'utf8'), /<td class="refused">refused<\/td>.*refused: failed to create patch helper for KubeadmControlPlane/s)
})

t.test('simulate with such a version: the life halts where Cluster API halts, in one line, exit 1', async t => {
  const r = await runCliHere(['simulate', '-f', EXAMPLE, '--handlers', variant('conflicting-file')])
  t.equal(r.code, 1)
  t.match(r.stdout, /\nCluster API stops here, reconcile after reconcile, until the extension answers differently: TopologyReconciled False ReconcileFailed: error reconciling the Cluster topology: failed to create MachineDeployment: failed to create KubeadmConfigTemplate\.bootstrap\.cluster\.x-k8s\.io: FieldValueInvalid: spec\.template\.spec\.files\[0\]/)
  t.match(r.stderr, /^error: the Cluster's topology stops reconciling \(TopologyReconciled False ReconcileFailed\): error reconciling the Cluster topology: failed to create MachineDeployment: .*\n$/)
  t.notMatch(r.stdout, /was created/)
})

t.test('the two versions Cluster API v1.14.2 was seen refusing are predicted refused, with its message', async t => {
  const cases: Array<[string, RegExp]> = [
    ['undeclared', /: failed to create typed patch object \(default\/loop-md-0-\w+; bootstrap\.cluster\.x-k8s\.io\/v1beta2, Kind=KubeadmConfigTemplate\): \.spec\.template\.spec\.notAKubeadmField: field not declared in schema$/],
    ['wrong-type', /: failed to create typed patch object \(default\/loop-md-0-\w+; bootstrap\.cluster\.x-k8s\.io\/v1beta2, Kind=KubeadmConfigTemplate\): \.spec\.template\.spec\.preKubeadmCommands: expected list, got &\{echo v2\}$/]
  ]
  for (const [change, message] of cases) {
    const r = await runCliHere(['rollout-impact', '-f', EXAMPLE, '--handlers', variant(change), '-o', 'json'])
    t.equal(r.code, 0, r.stderr)
    const report = JSON.parse(r.stdout) as RolloutImpactReport
    const md = report.clusters.flatMap(c => 'error' in c ? [] : c.objects).find(o => o.role === 'machineDeployment md-0')
    t.equal(md?.effect, 'refused', `${change}: refused, not a rollout`)
    t.match(md?.refused, /^failed to reconcile MachineDeployment default\/loop-md-0-\w+: failed to create patch helper for KubeadmConfigTemplate default\/loop-md-0-\w+: server side apply dry-run failed for modified object/)
    t.match(md?.refused, message)
    t.match(report.summary, { refused: 1, rollingOut: 0, machines: 0 }, 'no Machine is replaced')
  }
})

t.test('simulate --feature-gates InPlaceUpdates=true: a change the extension takes in place is updated in place; a bad gate is a usage error', async t => {
  const r = await runCliHere(['simulate', '-f', EXAMPLE, '--handlers', variant('in-place'), '--to-version', 'v1.35.0', '--feature-gates', 'InPlaceUpdates=true', '-o', 'json'])
  t.equal(r.code, 0, r.stderr)
  const result = JSON.parse(r.stdout) as { timeline: Array<{ hook: string, step?: string }> }
  t.ok(result.timeline.some(e => e.hook === 'CanUpdateMachineSet'), 'CanUpdateMachineSet asked')
  t.ok(result.timeline.some(e => e.step === 'machine updated in place'), 'Machines updated in place')
  for (const [gate, message] of [['Nope=true', /Nope: the feature gates simulate follows are InPlaceUpdates/], ['InPlaceUpdates=yes', /write InPlaceUpdates=true or InPlaceUpdates=false/]] as const) {
    const bad = await runCliHere(['simulate', '-f', EXAMPLE, '--feature-gates', gate])
    t.equal(bad.code, 2, gate)
    t.match(bad.stderr, message)
  }
})
