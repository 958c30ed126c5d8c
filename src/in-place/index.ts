/**
 * Writing an in-place updater (Cluster API v1.12+, feature gate `InPlaceUpdates`): declare which fields your extension
 * can change on a running Machine, and {@link inPlaceUpdates} answers CanUpdateMachine and CanUpdateMachineSet with the
 * patches Cluster API expects (the current objects with those fields taking their desired values), and runs
 * UpdateMachine: your update in the background, once per Machine, reported in progress until it is done or failed.
 *
 * @example
 * ```ts
 * import { inPlaceUpdates } from 'runtime-sdk/in-place'
 *
 * export default inPlaceUpdates({
 *   fields: { machine: ['version'], bootstrap: { KubeadmConfig: ['files', 'clusterConfiguration.etcd.local.imageTag'] } },
 *   update: async (desired, { signal, progress }) => {
 *     progress('writing files')
 *     await writeFilesOnTheNode(desired, signal)
 *   }
 * })
 * ```
 *
 * @packageDocumentation
 */
// The files:
//   can-update.ts   the CanUpdate* patches from the declared fields
//   updater.ts      UpdateMachine's updates in flight, one per Machine
import { CanUpdateMachine, CanUpdateMachineSet, UpdateMachine } from '../api/hooks/v1alpha1/index.js'
import { HookError } from '../server/errors.js'
import { defineHandler, type ExtensionHandler } from '../server/types.js'
import { canUpdatePatch, fieldsOf, type UpdatableFields } from './can-update.js'
import { MachineUpdates, type UpdateFunction } from './updater.js'

export type { FieldPath, UpdatableFields } from './can-update.js'
export type { DesiredMachine, UpdateContext, UpdateFunction } from './updater.js'

/** What an in-place updater is. */
export interface InPlaceUpdaterOptions {
  /** fields are what the update can change; a change of any other field is left to a rollout. */
  fields: UpdatableFields
  /** update performs the change on one Machine (see UpdateFunction). */
  update: UpdateFunction
  /** names of the three handlers. */
  names?: {
    /** canUpdateMachine names the CanUpdateMachine handler (default `can-update-machine`). */
    canUpdateMachine?: string
    /** canUpdateMachineSet names the CanUpdateMachineSet handler (default `can-update-machineset`). */
    canUpdateMachineSet?: string
    /** updateMachine names the UpdateMachine handler (default `update-machine`). */
    updateMachine?: string
  }
  /** enabled decides per call from the ExtensionConfig's settings whether in-place updates are offered (default: always). */
  enabled?: (settings: Record<string, string>) => boolean
  /** retryAfterSeconds is what an in-progress answer asks (default 5). */
  retryAfterSeconds?: number
  /** deadlineSeconds cancels an update that runs longer (default 600): it fails with that reason. */
  deadlineSeconds?: number
}

const MACHINE_SPEC = ['spec']
const TEMPLATE_SPEC = ['spec', 'template', 'spec']

/** The CanUpdateMachine, CanUpdateMachineSet and UpdateMachine handlers of an in-place updater. */
export function inPlaceUpdates (options: InPlaceUpdaterOptions): ExtensionHandler[] {
  const { fields } = options
  const enabled = (settings: Record<string, string> | undefined) => options.enabled?.(settings ?? {}) ?? true
  const updates = new MachineUpdates(options.update, options.deadlineSeconds !== undefined ? { deadlineSeconds: options.deadlineSeconds } : {})
  const canUpdateMachine = defineHandler({
    hook: CanUpdateMachine,
    name: options.names?.canUpdateMachine ?? 'can-update-machine',
    handler: ({ current, desired, settings }) => {
      if (!enabled(settings)) return { status: 'Success' as const }
      return {
        status: 'Success' as const,
        machinePatch: canUpdatePatch(current?.machine, desired?.machine, MACHINE_SPEC, fields.machine ?? []),
        bootstrapConfigPatch: canUpdatePatch(current?.bootstrapConfig, desired?.bootstrapConfig, MACHINE_SPEC, fieldsOf(fields.bootstrap, current?.bootstrapConfig)),
        infrastructureMachinePatch: canUpdatePatch(current?.infrastructureMachine, desired?.infrastructureMachine, MACHINE_SPEC, fieldsOf(fields.infrastructure, current?.infrastructureMachine))
      }
    }
  })
  const canUpdateMachineSet = defineHandler({
    hook: CanUpdateMachineSet,
    name: options.names?.canUpdateMachineSet ?? 'can-update-machineset',
    handler: ({ current, desired, settings }) => {
      if (!enabled(settings)) return { status: 'Success' as const }
      return {
        status: 'Success' as const,
        machineSetPatch: canUpdatePatch(current?.machineSet, desired?.machineSet, TEMPLATE_SPEC, fields.machine ?? []),
        bootstrapConfigTemplatePatch: canUpdatePatch(current?.bootstrapConfigTemplate, desired?.bootstrapConfigTemplate, TEMPLATE_SPEC, fieldsOf(fields.bootstrap, current?.bootstrapConfigTemplate)),
        infrastructureMachineTemplatePatch: canUpdatePatch(current?.infrastructureMachineTemplate, desired?.infrastructureMachineTemplate, TEMPLATE_SPEC, fieldsOf(fields.infrastructure, current?.infrastructureMachineTemplate))
      }
    }
  })
  const updateMachine = defineHandler({
    hook: UpdateMachine,
    name: options.names?.updateMachine ?? 'update-machine',
    handler: ({ desired, settings }) => {
      if (!enabled(settings)) throw new HookError('in-place updates are not offered, yet UpdateMachine was called')
      const answer = updates.answer(desired ?? {})
      if (answer.state === 'failed') throw new HookError(answer.message)
      return { status: 'Success' as const, message: answer.message, retryAfterSeconds: answer.state === 'done' ? 0 : options.retryAfterSeconds ?? 5 }
    }
  })
  return [canUpdateMachine, canUpdateMachineSet, updateMachine]
}
