// Calls the updater as Cluster API would (in process, through the same serving core as the HTTPS server): asks
// whether a change of files can be made in place, then drives UpdateMachine until it says done.
import { v1alpha1 } from 'runtime-sdk'
import { createInProcessExtension } from 'runtime-sdk/testing'
import handlers from './updater.js'

const extension = createInProcessExtension({ handlers })
const machine = (version: string): v1alpha1.Machine => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Machine',
  metadata: { name: 'worker-1', namespace: 'default' },
  spec: { clusterName: 'prod', version, bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name: 'worker-1' } }, infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevMachine', name: 'worker-1' } },
  status: { nodeRef: { name: 'worker-1' } }
})
const config = (content: string) => ({ apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfig', metadata: { name: 'worker-1', namespace: 'default' }, spec: { files: [{ path: '/etc/motd', content }] } })
const infrastructure = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachine', metadata: { name: 'worker-1', namespace: 'default' }, spec: {} }

const current = { machine: machine('v1.34.0'), bootstrapConfig: config('hello'), infrastructureMachine: infrastructure }
const desired = { machine: machine('v1.34.0'), bootstrapConfig: config('hello, in place'), infrastructureMachine: infrastructure }
const canUpdate = await extension.call(v1alpha1.CanUpdateMachine, 'can-update-machine', { current, desired })
console.log(`CanUpdateMachine: ${canUpdate.status}, bootstrap config patch ${Buffer.from(canUpdate.bootstrapConfigPatch?.patch ?? '', 'base64').toString()}`)

for (;;) {
  const update = await extension.call(v1alpha1.UpdateMachine, 'update-machine', { desired })
  console.log(`UpdateMachine: ${update.status}, retryAfterSeconds=${update.retryAfterSeconds ?? 0} message="${update.message ?? ''}"`)
  if (update.status !== 'Success' || !update.retryAfterSeconds) break
  // Cluster API waits retryAfterSeconds before it asks again; the example asks again sooner.
  await new Promise(resolve => setTimeout(resolve, 100))
}
