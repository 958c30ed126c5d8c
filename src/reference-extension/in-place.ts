// In-place update hooks of the reference extension, written with runtime-sdk/in-place. It can change in place what
// Cluster API's own test extension can (test/extension/handlers/inplaceupdate): a Machine's version and failure
// domain, a KubeadmConfig's files and local etcd image tag, a DevMachine's docker bootstrap timeout; any other change
// is left to a rollout. With the setting disableInPlaceUpdates=true nothing is offered (and UpdateMachine fails).
// UpdateMachine fakes the update: in progress for updateMachineDurationMs, then done.
import { setTimeout as sleep } from 'node:timers/promises'
import { inPlaceUpdates } from '../in-place/index.js'
import type { ExtensionHandler } from '../server/types.js'

/** How the reference extension's in-place update hooks answer. */
export interface InPlaceOptions {
  /** updateMachineDurationMs is how long the fake update of a machine takes (default 10 s). */
  updateMachineDurationMs?: number
  /** updateMachineRetryAfterSeconds is the retryAfterSeconds answered while updating (default 5). */
  updateMachineRetryAfterSeconds?: number
}

export function inPlaceHandlers (options: InPlaceOptions = {}): ExtensionHandler[] {
  const durationMs = options.updateMachineDurationMs ?? 10_000
  return inPlaceUpdates({
    fields: {
      machine: ['version', 'failureDomain'],
      bootstrap: { KubeadmConfig: ['clusterConfiguration.etcd.local.imageTag', 'files'] },
      infrastructure: { DevMachine: ['backend.docker.bootstrapTimeout'] }
    },
    enabled: settings => settings['disableInPlaceUpdates'] !== 'true',
    retryAfterSeconds: options.updateMachineRetryAfterSeconds ?? 5,
    update: async (desired, { signal, progress }) => {
      progress(`Extension is updating Machine ${desired.machine?.metadata.namespace ?? ''}/${desired.machine?.metadata.name ?? ''}`)
      await sleep(durationMs, undefined, { signal })
    }
  })
}
