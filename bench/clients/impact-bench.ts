// Scenario 8's measuring child: `impact-bench.ts <clusters> <mode>` builds a management cluster in memory of that
// many Clusters (examples/simulate's, as simulate leaves them once created, one per namespace), then times one pass:
// `impact` is rolloutImpact of a second version of the reference extension (test/helpers/reference-extension-v2.ts)
// against the first, both in process; `dry-run` computes each Cluster's desired state once with the first version
// (what any prediction costs at least). Prints one line: RESULT <json>.
import { fileURLToPath } from 'node:url'
import { rolloutImpact } from '../../src/impact/live.js'
import { readDocuments } from '../../src/kube/manifests.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createInProcessExtension } from '../../src/server/in-process.js'
import { dryRunDesiredState, InProcessRuntimeClient, type Unstructured, listClusters, readLiveCluster, ResourcePaths, simulate } from '../../src/simulate/index.js'
import { inNamespace, liveObjects, MemoryManagementCluster, namespaceObject } from '../../test/helpers/memory-cluster.js'
import { referenceHandlersV2 } from '../../test/helpers/reference-extension-v2.js'

export const IMPACT_RESULT = 'RESULT '

const [count = '1000', mode = 'impact'] = process.argv.slice(2)
const example = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
const inputs = [...await readDocuments(`${example}cluster.yaml`), ...await readDocuments(`${example}clusterclass.yaml`), ...await readDocuments(`${example}templates.yaml`)] as Unstructured[]
const v1 = new InProcessRuntimeClient(createInProcessExtension({ handlers: referenceHandlers() }), 'reference')
const v2 = new InProcessRuntimeClient(createInProcessExtension({ handlers: referenceHandlersV2('command') }), 'reference')
const created = await simulate({ client: v1, objects: inputs, delete: false, checkDeterminism: false })
const live = liveObjects(inputs, created)
const objects: Unstructured[] = []
for (let i = 0; i < Number(count); i++) {
  const ns = `ns-${String(i).padStart(4, '0')}`
  objects.push(...inNamespace(live, ns), namespaceObject(ns))
}
const api = new MemoryManagementCluster(objects)

const started = performance.now()
let clusters = 0
if (mode === 'impact') {
  const report = await rolloutImpact({ api, selection: {}, name: 'reference', registered: v1, candidate: v2 })
  if (report.summary.failed > 0 || report.summary.rollingOut !== Number(count)) throw new Error(`unexpected report: ${JSON.stringify(report.summary)}`)
  clusters = report.summary.clusters
} else {
  const paths = new ResourcePaths(api)
  for (const cluster of await listClusters(api, {})) {
    const one = await readLiveCluster(api, cluster, paths)
    await dryRunDesiredState({ objects: one.objects, current: one.state, client: v1, writes: false })
    clusters++
  }
}
const ms = performance.now() - started
console.log(`${IMPACT_RESULT}${JSON.stringify({ clusters, ms })}`)
