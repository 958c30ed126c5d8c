// An in-place updater: it can change a Machine's Kubernetes version, and its KubeadmConfig's files and local etcd
// image tag, without replacing the Machine. Serve it with `runtime-sdk serve --handlers dist/updater.js`; Cluster
// API's managers need their InPlaceUpdates feature gate on to ask it.
import { inPlaceUpdates, type DesiredMachine } from 'runtime-sdk/in-place'

/** The agent on each node that applies a change (here it only takes a moment). */
async function applyOnNode (desired: DesiredMachine, signal: AbortSignal): Promise<void> {
  const node = desired.machine?.status?.nodeRef?.name ?? desired.machine?.metadata.name ?? ''
  if (node === '') throw new Error('the Machine has no node yet')
  await new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, 200)
    signal.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason) }, { once: true })
  })
}

export default inPlaceUpdates({
  fields: {
    machine: ['version'],
    bootstrap: { KubeadmConfig: ['files', 'clusterConfiguration.etcd.local.imageTag'] }
  },
  update: async (desired, { signal, progress }) => {
    progress(`writing ${desired.machine?.metadata.name ?? ''}'s files`)
    await applyOnNode(desired, signal)
  },
  retryAfterSeconds: 1,
  deadlineSeconds: 300
})
