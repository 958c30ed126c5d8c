import t from 'tap'
import { WORKLOAD_IDS } from '../../bench/lib/ids.js'
import { beforeClusterCreateRequest, formatBytes, generatePatchesRequest, hookWorkloads } from '../../bench/lib/workloads.js'
import { createCatalog } from '../../src/catalog/index.js'

const catalog = createCatalog()
const gvh = (hook: string) => ({ group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha1', hook })

t.test('every workload is a valid request of its hook, so servers answer Success rather than Failure', async t => {
  const workloads = hookWorkloads()
  t.same(workloads.map(w => w.id), WORKLOAD_IDS)
  for (const w of workloads) {
    const result = catalog.validateRequest(gvh(w.hook), JSON.parse(w.body.toString('utf8')))
    t.ok(result.valid, `${w.id}: ${result.valid ? '' : result.message}`)
    t.match(w.path, new RegExp(`^/hooks\\.runtime\\.cluster\\.x-k8s\\.io/v1alpha1/${w.hook.toLowerCase()}/[a-z-]+\\?timeout=10s$`))
    t.match(w.label, new RegExp(`^${w.hook} \\d`))
  }
})

t.test('bodies have the sizes of the benchmark plan', async t => {
  const [bcc, gp64, gp1m] = hookWorkloads().map(w => w.body.length) as [number, number, number]
  t.ok(bcc > 4.5 * 1024 && bcc < 5.5 * 1024, `BeforeClusterCreate is ~5 KB (${bcc})`)
  t.ok(gp64 <= 64 * 1024 && gp64 > 60 * 1024, `GeneratePatches 64 KB (${gp64})`)
  t.ok(gp1m <= 1024 * 1024 && gp1m > 1000 * 1024, `GeneratePatches 1 MB (${gp1m})`)
})

t.test('GeneratePatches grows by whole templates with unique uids', async t => {
  const request = generatePatchesRequest(32 * 1024)
  const uids = (request['items'] as Array<{ uid: string }>).map(i => i.uid)
  t.ok(uids.length > 10)
  t.equal(new Set(uids).size, uids.length)
  t.same(generatePatchesRequest(100)['items'], [], 'a budget smaller than the envelope holds no template')
  t.ok(beforeClusterCreateRequest()['cluster'].spec.topology.variables.some((v: { name: string }) => v.name === 'clusterConfig'))
})

t.test('formatBytes', async t => {
  t.same([512, 5170, 65218, 1047824].map(formatBytes), ['512 B', '5.0 KB', '63.7 KB', '1.00 MB'])
})
