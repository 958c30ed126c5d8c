// In-place update hooks of the reference extension. It can change one thing in place: the Kubernetes version
// (Machine spec.version, MachineSet spec.template.spec.version). CanUpdate* answer a JSON merge patch that
// moves the current version to the desired one; any other spec change is not covered, so Cluster API rolls
// the machines out instead. With the setting disableInPlaceUpdates=true nothing is offered and UpdateMachine fails.
// UpdateMachine fakes the update: in progress (retryAfterSeconds > 0) until updateMachineDurationMs passed since
// the first call for that machine and version, then done; repeated calls are idempotent.
import { CanUpdateMachine, CanUpdateMachineSet, UpdateMachine } from '../api/hooks/v1alpha1/index.js'
import { defineHandler, type ExtensionHandler } from '../server/types.js'
import { HookError } from '../server/errors.js'

/** How the reference extension's in-place update hooks answer. */
export interface InPlaceOptions {
  /** updateMachineDurationMs is how long the fake update of a machine takes (default 10 s). */
  updateMachineDurationMs?: number
  /** updateMachineRetryAfterSeconds is the retryAfterSeconds answered while updating (default 5). */
  updateMachineRetryAfterSeconds?: number
}

const MAX_TRACKED_UPDATES = 10_000

const disabled = (settings: Record<string, string> | undefined) => settings?.['disableInPlaceUpdates'] === 'true'
const mergePatch = (patch: unknown) => ({ patchType: 'JSONMergePatch' as const, patch: Buffer.from(JSON.stringify(patch)).toString('base64') })

export function inPlaceHandlers (options: InPlaceOptions = {}): ExtensionHandler[] {
  const durationMs = options.updateMachineDurationMs ?? 10_000
  const retryAfterSeconds = options.updateMachineRetryAfterSeconds ?? 5
  const updates = new Map<string, number>() // "<namespace>/<name>@<version>" -> start time

  const canUpdateMachine = defineHandler({
    hook: CanUpdateMachine,
    name: 'can-update-machine',
    handler: (request) => {
      if (disabled(request.settings)) return { status: 'Success' as const, message: 'in-place updates are disabled' }
      const from = request.current?.machine?.spec?.version
      const to = request.desired?.machine?.spec?.version
      if (!to || from === to) return { status: 'Success' as const }
      return { status: 'Success' as const, message: `can update spec.version from ${from ?? '(none)'} to ${to} in place`, machinePatch: mergePatch({ spec: { version: to } }) }
    }
  })

  const canUpdateMachineSet = defineHandler({
    hook: CanUpdateMachineSet,
    name: 'can-update-machineset',
    handler: (request) => {
      if (disabled(request.settings)) return { status: 'Success' as const, message: 'in-place updates are disabled' }
      const from = request.current?.machineSet?.spec?.template?.spec?.version
      const to = request.desired?.machineSet?.spec?.template?.spec?.version
      if (!to || from === to) return { status: 'Success' as const }
      return {
        status: 'Success' as const,
        message: `can update spec.template.spec.version from ${from ?? '(none)'} to ${to} in place`,
        machineSetPatch: mergePatch({ spec: { template: { spec: { version: to } } } })
      }
    }
  })

  const updateMachine = defineHandler({
    hook: UpdateMachine,
    name: 'update-machine',
    handler: (request) => {
      if (disabled(request.settings)) throw new HookError('in-place updates are disabled by the setting disableInPlaceUpdates')
      const machine = request.desired?.machine
      const id = `${machine?.metadata.namespace ?? ''}/${machine?.metadata.name ?? ''}`
      const key = `${id}@${machine?.spec?.version ?? ''}`
      let started = updates.get(key)
      if (started === undefined) {
        started = Date.now()
        if (updates.size >= MAX_TRACKED_UPDATES) updates.delete(updates.keys().next().value as string)
        updates.set(key, started)
      }
      if (Date.now() - started < durationMs) return { status: 'Success' as const, message: `Extension is updating Machine ${id}`, retryAfterSeconds }
      return { status: 'Success' as const, message: `Extension completed updating Machine ${id}`, retryAfterSeconds: 0 }
    }
  })

  return [canUpdateMachine, canUpdateMachineSet, updateMachine]
}
