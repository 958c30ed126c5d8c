// A version of the reference extension whose BeforeClusterCreate fails every Cluster: the current version a
// rollout-impact on files cannot create the Cluster with (test/cli/rollout-impact.test.ts).
import { BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { defineHandler } from '../../src/server/types.js'

const refuse = defineHandler({
  hook: BeforeClusterCreate,
  name: 'before-cluster-create',
  handler: () => ({ status: 'Failure' as const, message: 'no new Clusters today', retryAfterSeconds: 0 })
})

export default referenceHandlers().map(h => h.hook.hook === 'BeforeClusterCreate' ? refuse : h)
