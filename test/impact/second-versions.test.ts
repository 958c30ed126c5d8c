// The second-version corpus replayed without a cluster: what the reader read from a management cluster running
// Cluster API v1.14.2, and what Cluster API then did with each generated change (recorded by
// test/capi/second-versions.test.ts with RUNTIME_SDK_RECORD_CAPI=1), against rollout-impact's predictions and
// simulate's halts computed again now. Predicted = observed for every Cluster and object, refusals and their
// messages included.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import t from 'tap'
import { isFailure, rolloutImpact } from '../../src/impact/live.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createInProcessExtension } from '../../src/server/in-process.js'
import type { ExtensionHandler } from '../../src/server/types.js'
import { InProcessRuntimeClient, listClusters, readLiveCluster, simulate } from '../../src/simulate/index.js'
import { replayingReader } from '../helpers/recorded-reads.js'
import { secondVersionChanges, secondVersionHandlers } from '../helpers/second-versions.js'
import type { SecondVersionsRecording } from '../helpers/second-versions-observed.js'

const recording = JSON.parse(gunzipSync(readFileSync(new URL('../fixtures/second-versions/recorded.json.gz', import.meta.url))).toString('utf8')) as SecondVersionsRecording
const api = replayingReader(recording.reads)
const client = (handlers: ExtensionHandler[]) => new InProcessRuntimeClient(createInProcessExtension({ handlers }), 'reference')

t.test('the corpus is the one recorded: the same generated changes', async t => {
  t.same(recording.changes, secondVersionChanges(), 're-record with RUNTIME_SDK_RECORD_CAPI=1 npm run test:capi when the generator changes')
  t.ok(recording.changes.length >= 40, `${recording.changes.length} changes`)
  const refused = Object.values(recording.observed).filter(o => Object.values(o.effects).includes('refused')).length
  t.ok(refused >= 5, `${refused} refused by Cluster API`)
})

t.test(`rollout-impact predicts what Cluster API ${recording.clusterApi} did, Cluster by Cluster and object by object`, async t => {
  const report = await rolloutImpact({ api, selection: {}, name: 'reference', registered: client(referenceHandlers()), candidate: client(secondVersionHandlers()) })
  t.equal(report.clusters.length, Object.keys(recording.observed).length)
  for (const c of report.clusters) {
    if (isFailure(c)) {
      t.fail(`${c.cluster}: ${c.error}`)
      continue
    }
    const observed = recording.observed[c.cluster]
    t.same(Object.fromEntries(c.objects.map(o => [o.role, o.effect])), observed?.effects, `${c.cluster}: predicted = observed`)
    t.equal(c.topologyReconciled?.message, observed?.condition?.message, `${c.cluster}: the same TopologyReconciled message`)
  }
})

t.test('simulate from where each Cluster stood halts where Cluster API halted, and only there', async t => {
  for (const cluster of await listClusters(api, {})) {
    const live = await readLiveCluster(api, cluster)
    const result = await simulate({ client: client(secondVersionHandlers()), objects: live.objects, current: live.state, delete: false, checkDeterminism: false })
    const key = `${cluster.metadata.namespace}/${cluster.metadata.name}`
    t.equal(result.topologyReconciled?.message, recording.observed[key]?.condition?.message, `${key}: ${result.outcome}`)
  }
})
