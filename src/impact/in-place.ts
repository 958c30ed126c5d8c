// Whether the candidate's in-place update hooks would take a change in place, asked as Cluster API asks them (only
// with its InPlaceUpdates feature gate on, and only when exactly one handler implements the hook; the requests and
// the comparison of the patched objects are simulate's in-place.ts):
// - CanUpdateMachineSet, as the MachineDeployment controller asks it, for a MachineDeployment whose templates rotate;
// - CanUpdateMachine, as the KubeadmControlPlane asks it for each of its Machines: the Machine, its KubeadmConfig and
//   infrastructure machine as they are and as the change makes them (here: with the fields the control plane's
//   change touches changed the same way, rather than KCP's own desired objects, so an updater deciding by the fields
//   it can change decides alike).
import { CanUpdateMachine, CanUpdateMachineSet } from '../api/hooks/v1alpha1/hooks.js'
import type { RuntimeClient } from '../client/runtime-client.js'
import { RuntimeCallError } from '../client/errors.js'
import { canUpdateMachineSetRequest, cleanup, cleanupMachineObjects, getPath, machineDifferences, type JsonObject, type MachineObjects, machineSetDifferences, setPath, type Unstructured, type WorkerState } from '../simulate/index.js'
import { jsonCopy } from '../topology/json.js'
import { applyMergePatch, createMergePatch } from '../topology/merge-patch.js'

/** What the candidate's in-place update hook answered. */
export interface InPlaceVerdict {
  /** hook is the in-place update hook asked (CanUpdateMachineSet). */
  hook: string
  /** handler is the handler asked, when exactly one implements the hook. */
  handler?: string
  /** accepted: the handler's patches make the current templates the desired ones, so no Machine is replaced. */
  accepted: boolean
  /** reason says why not, or what the handler answered. */
  reason: string
}

/** canUpdateMachineSetInPlace, for a MachineDeployment whose templates the candidate would rotate. */
export async function canUpdateMachineSetInPlace (candidate: RuntimeClient, change: { current: WorkerState, desired: WorkerState }): Promise<InPlaceVerdict> {
  const hook = CanUpdateMachineSet.hook
  const handler = await onlyHandler(candidate, CanUpdateMachineSet, change.current.object)
  if (typeof handler !== 'string') return { hook, accepted: false, reason: handler.reason }
  const request = canUpdateMachineSetRequest(change.current, change.desired, { current: `${change.current.object.metadata?.name ?? ''}-current`, desired: `${change.desired.object.metadata?.name ?? ''}-desired` })
  const asked = await ask(candidate, CanUpdateMachineSet, change.current.object, handler, request, machineSetDifferences)
  if (typeof asked === 'string') return { hook, handler, accepted: false, reason: asked }
  return asked.length === 0
    ? { hook, handler, accepted: true, reason: `${handler} takes the change in place (with Cluster API's InPlaceUpdates feature gate on)` }
    : { hook, handler, accepted: false, reason: `${handler}'s patches leave it to a rollout: ${asked.join(', ')}` }
}

/** Calls the handler; what stays different once its patches are applied, or why it cannot be known. */
async function ask (candidate: RuntimeClient, hook: typeof CanUpdateMachine | typeof CanUpdateMachineSet, forObject: Unstructured, handler: string, request: { current: JsonObject, desired: JsonObject }, differences: (request: { current: JsonObject, desired: JsonObject }, response: JsonObject) => string[]): Promise<string[] | string> {
  let response: JsonObject
  try {
    response = (await candidate.callExtension(hook, forObject as never, handler, request as never)).response as unknown as JsonObject
  } catch (err) {
    if (!(err instanceof RuntimeCallError)) throw err
    return `the handler failed: ${err.message}`
  }
  try {
    return differences(request, response)
  } catch (err) {
    return `its patches do not apply: ${(err as Error).message}`
  }
}

/** The one handler of an in-place hook, or why none is asked. */
async function onlyHandler (candidate: RuntimeClient, hook: typeof CanUpdateMachine | typeof CanUpdateMachineSet, forObject: Unstructured): Promise<string | { reason: string }> {
  const handlers = await candidate.getAllExtensions(hook, forObject as never)
  if (handlers.length === 0) return { reason: `the candidate implements no ${hook.hook} handler` }
  if (handlers.length > 1) return { reason: `several ${hook.hook} handlers (${handlers.join(', ')}): Cluster API supports one` }
  return handlers[0] as string
}

/** A Machine as the change makes it: the control plane's version, and the control plane's changes made to its objects. */
function desiredMachine (m: MachineObjects, version: string | undefined, configChange: unknown, infrastructureChange: unknown): { machine: Unstructured, bootstrapConfig: Unstructured, infrastructureMachine: Unstructured } {
  const machine = jsonCopy(cleanup(m.machine))
  if (version) setPath(machine, ['spec', 'version'], version)
  const bootstrapConfig = cleanup(m.bootstrapConfig ?? {})
  const infrastructureMachine = cleanup(m.infrastructureMachine ?? {})
  return {
    machine,
    bootstrapConfig: configChange === undefined ? bootstrapConfig : { ...bootstrapConfig, spec: applyMergePatch(bootstrapConfig['spec'], configChange) },
    infrastructureMachine: infrastructureChange === undefined ? infrastructureMachine : { ...infrastructureMachine, spec: applyMergePatch(infrastructureMachine['spec'], infrastructureChange) }
  }
}

/**
 * Whether the candidate's CanUpdateMachine takes the change of a KubeadmControlPlane (`before` and `after` as the
 * dry runs see them, with their machine templates) in place, for every one of its Machines.
 */
export async function canUpdateControlPlaneInPlace (candidate: RuntimeClient, change: { machines: readonly MachineObjects[], before: Unstructured, after: Unstructured, machineTemplateBefore?: Unstructured | undefined, machineTemplateAfter?: Unstructured | undefined }): Promise<InPlaceVerdict> {
  const hook = CanUpdateMachine.hook
  const handler = await onlyHandler(candidate, CanUpdateMachine, change.after)
  if (typeof handler !== 'string') return { hook, accepted: false, reason: handler.reason }
  if (change.machines.length === 0) return { hook, handler, accepted: false, reason: 'its Machines are not known (read from a management cluster to ask)' }
  const configChange = createMergePatch(getPath(change.before, ['spec', 'kubeadmConfigSpec']), getPath(change.after, ['spec', 'kubeadmConfigSpec']))
  const infrastructureChange = createMergePatch(getPath(change.machineTemplateBefore, ['spec', 'template', 'spec']), getPath(change.machineTemplateAfter, ['spec', 'template', 'spec']))
  const version = getPath(change.after, ['spec', 'version']) as string | undefined
  for (const m of change.machines) {
    const request = { current: cleanupMachineObjects(m), desired: desiredMachine(m, version, configChange, infrastructureChange) }
    const asked = await ask(candidate, CanUpdateMachine, m.machine, handler, request, machineDifferences)
    if (typeof asked === 'string') return { hook, handler, accepted: false, reason: asked }
    if (asked.length > 0) return { hook, handler, accepted: false, reason: `${handler}'s patches leave Machine ${m.machine.metadata?.name ?? ''} to a rollout: ${asked.join(', ')}` }
  }
  return { hook, handler, accepted: true, reason: `${handler} takes the change in place for every control plane Machine (with Cluster API's InPlaceUpdates feature gate on)` }
}
