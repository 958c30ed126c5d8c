// Whether the candidate's in-place update hooks would take a change in place, asked as Cluster API asks them (only
// with its InPlaceUpdates feature gate on, and only when exactly one handler implements the hook):
// - CanUpdateMachineSet, as the MachineDeployment controller asks it (machinedeployment_canupdatemachineset.go): the
//   current and the desired MachineSet with their templates; the answer's patches applied to the current objects
//   (spec.template.spec only); then the two compared without what is always updated in place (refs, deletion
//   timeouts, taints, readiness gates, min ready seconds: inplace.CleanupMachineSpecForDiff);
// - CanUpdateMachine, as the KubeadmControlPlane asks it for each of its Machines (inplace_canupdatemachine.go): the
//   Machine, its KubeadmConfig and infrastructure machine as they are and as the change makes them (here: with the
//   fields the control plane's change touches changed the same way, rather than KCP's own desired objects, so an
//   updater deciding by the fields it can change decides alike), then compared the same way.
import { applyPatch, type Operation } from 'rfc6902'
import { CanUpdateMachineSet } from '../api/hooks/v1alpha1/hooks.js'
import type { RuntimeClient } from '../client/runtime-client.js'
import { RuntimeCallError } from '../client/errors.js'
import type { WorkerState } from '../simulate/index.js'
import { CanUpdateMachine } from '../api/hooks/v1alpha1/hooks.js'
import { getPath, type MachineObjects, setPath } from '../simulate/index.js'
import { jsonCopy, jsonEqual } from '../topology/json.js'
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

type Doc = Record<string, any>

/** A MachineSet as a MachineDeployment makes it, cleaned up as the request carries it (cleanupMachineSet). */
function machineSetOf (md: Doc, suffix: string): Doc {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: { name: `${md['metadata']?.name ?? ''}-${suffix}`, namespace: md['metadata']?.namespace, ...(md['metadata']?.labels ? { labels: md['metadata'].labels } : {}), ...(md['metadata']?.annotations ? { annotations: md['metadata'].annotations } : {}) },
    spec: { clusterName: md['spec']?.clusterName, replicas: md['spec']?.replicas, selector: md['spec']?.selector, template: md['spec']?.template }
  }
}

/** cleanupUnstructured: type, name, namespace, labels, annotations and spec. */
function cleanup (u: Doc): Doc {
  return { apiVersion: u['apiVersion'], kind: u['kind'], metadata: { name: u['metadata']?.name, namespace: u['metadata']?.namespace, ...(u['metadata']?.labels ? { labels: u['metadata'].labels } : {}), ...(u['metadata']?.annotations ? { annotations: u['metadata'].annotations } : {}) }, spec: u['spec'] }
}

/** patch.ApplyPatchToObject: the patch applied, only the spec at `specPath` kept (spec.template.spec of a template). */
function applyToSpec (object: Doc, patch: { patchType?: string, patch?: string } | undefined, specPath: readonly string[] = ['spec', 'template', 'spec']): Doc {
  if (!patch?.patchType) return object
  const decoded = JSON.parse(Buffer.from(patch.patch ?? '', 'base64').toString('utf8')) as unknown
  let patched: Doc = jsonCopy(object)
  if (patch.patchType === 'JSONMergePatch') patched = applyMergePatch(patched, decoded) as Doc
  else if (Array.isArray(decoded) && applyPatch(patched, decoded as Operation[]).some(e => e !== null)) throw new Error('the patch does not apply')
  const spec = getPath(patched, specPath)
  const out = jsonCopy(object)
  if (spec !== undefined) setPath(out, specPath, spec)
  return out
}

/** CleanupMachineSpecForDiff. */
function forDiff (spec: Doc | undefined): Doc {
  const out = { ...spec }
  for (const field of ['clusterName', 'bootstrap', 'infrastructureRef', 'providerID', 'minReadySeconds', 'readinessGates', 'taints']) delete out[field]
  if (out['deletion']) {
    const { nodeDrainTimeoutSeconds: _a, nodeVolumeDetachTimeoutSeconds: _b, nodeDeletionTimeoutSeconds: _c, ...rest } = out['deletion'] as Doc
    if (Object.keys(rest).length > 0) out['deletion'] = rest
    else delete out['deletion']
  }
  return out
}

/** canUpdateMachineSetInPlace, for a MachineDeployment whose templates the candidate would rotate. */
export async function canUpdateMachineSetInPlace (candidate: RuntimeClient, change: { current: WorkerState, desired: WorkerState }): Promise<InPlaceVerdict> {
  const hook = CanUpdateMachineSet.hook
  const handler = await onlyHandler(candidate, CanUpdateMachineSet, change.current.object)
  if (typeof handler !== 'string') return { hook, accepted: false, reason: handler.reason }
  const current = { machineSet: machineSetOf(change.current.object, 'current'), bootstrapConfigTemplate: cleanup(change.current.bootstrap), infrastructureMachineTemplate: cleanup(change.current.infrastructure) }
  const desired = { machineSet: machineSetOf(change.desired.object, 'desired'), bootstrapConfigTemplate: cleanup(change.desired.bootstrap), infrastructureMachineTemplate: cleanup(change.desired.infrastructure) }
  let response: Doc
  try {
    response = (await candidate.callExtension(CanUpdateMachineSet, change.current.object, handler, { current, desired } as never)).response as Doc
  } catch (err) {
    if (!(err instanceof RuntimeCallError)) throw err
    return { hook, handler, accepted: false, reason: `the handler failed: ${err.message}` }
  }
  let patched: typeof current
  try {
    patched = {
      machineSet: applyToSpec(current.machineSet, response['machineSetPatch']),
      bootstrapConfigTemplate: applyToSpec(current.bootstrapConfigTemplate, response['bootstrapConfigTemplatePatch']),
      infrastructureMachineTemplate: applyToSpec(current.infrastructureMachineTemplate, response['infrastructureMachineTemplatePatch'])
    }
  } catch (err) {
    return { hook, handler, accepted: false, reason: `its patches do not apply: ${(err as Error).message}` }
  }
  const reasons: string[] = []
  if (!jsonEqual(forDiff(patched.machineSet['spec']?.template?.spec), forDiff(desired.machineSet['spec']?.template?.spec))) reasons.push('the MachineSet still differs')
  for (const key of ['bootstrapConfigTemplate', 'infrastructureMachineTemplate'] as const) {
    if (!jsonEqual(patched[key]['spec']?.template?.spec, desired[key]['spec']?.template?.spec)) reasons.push(`the ${desired[key]['kind'] as string} still differs`)
  }
  return reasons.length === 0
    ? { hook, handler, accepted: true, reason: `${handler} takes the change in place (with Cluster API's InPlaceUpdates feature gate on)` }
    : { hook, handler, accepted: false, reason: `${handler}'s patches leave it to a rollout: ${reasons.join(', ')}` }
}

/** The one handler of an in-place hook, or why none is asked. */
async function onlyHandler (candidate: RuntimeClient, hook: typeof CanUpdateMachine | typeof CanUpdateMachineSet, forObject: Doc): Promise<string | { reason: string }> {
  const handlers = await candidate.getAllExtensions(hook, forObject as never)
  if (handlers.length === 0) return { reason: `the candidate implements no ${hook.hook} handler` }
  if (handlers.length > 1) return { reason: `several ${hook.hook} handlers (${handlers.join(', ')}): Cluster API supports one` }
  return handlers[0] as string
}

/** A Machine as the change makes it: the control plane's version, and the control plane's changes made to its objects. */
function desiredMachine (m: MachineObjects, version: string | undefined, configChange: unknown, infrastructureChange: unknown): { machine: Doc, bootstrapConfig: Doc, infrastructureMachine: Doc } {
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
export async function canUpdateControlPlaneInPlace (candidate: RuntimeClient, change: { machines: readonly MachineObjects[], before: Doc, after: Doc, machineTemplateBefore?: Doc | undefined, machineTemplateAfter?: Doc | undefined }): Promise<InPlaceVerdict> {
  const hook = CanUpdateMachine.hook
  const handler = await onlyHandler(candidate, CanUpdateMachine, change.after)
  if (typeof handler !== 'string') return { hook, accepted: false, reason: handler.reason }
  if (change.machines.length === 0) return { hook, handler, accepted: false, reason: 'its Machines are not known (read from a management cluster to ask)' }
  const configChange = createMergePatch(change.before['spec']?.kubeadmConfigSpec, change.after['spec']?.kubeadmConfigSpec)
  const infrastructureChange = createMergePatch(change.machineTemplateBefore?.['spec']?.template?.spec, change.machineTemplateAfter?.['spec']?.template?.spec)
  const version = change.after['spec']?.version as string | undefined
  for (const m of change.machines) {
    const current = { machine: cleanup(m.machine), bootstrapConfig: cleanup(m.bootstrapConfig ?? {}), infrastructureMachine: cleanup(m.infrastructureMachine ?? {}) }
    const desired = desiredMachine(m, version, configChange, infrastructureChange)
    let response: Doc
    try {
      response = (await candidate.callExtension(CanUpdateMachine, m.machine as never, handler, { current, desired } as never)).response as Doc
    } catch (err) {
      if (!(err instanceof RuntimeCallError)) throw err
      return { hook, handler, accepted: false, reason: `the handler failed: ${err.message}` }
    }
    let patched: typeof current
    try {
      patched = {
        machine: applyToSpec(current.machine, response['machinePatch'], ['spec']),
        bootstrapConfig: applyToSpec(current.bootstrapConfig, response['bootstrapConfigPatch'], ['spec']),
        infrastructureMachine: applyToSpec(current.infrastructureMachine, response['infrastructureMachinePatch'], ['spec'])
      }
    } catch (err) {
      return { hook, handler, accepted: false, reason: `its patches do not apply: ${(err as Error).message}` }
    }
    const reasons: string[] = []
    if (!jsonEqual(forDiff(patched.machine['spec']), forDiff(desired.machine['spec']))) reasons.push('the Machine still differs')
    for (const key of ['bootstrapConfig', 'infrastructureMachine'] as const) {
      if (!jsonEqual(patched[key]['spec'], desired[key]['spec'])) reasons.push(`the ${desired[key]['kind'] as string} still differs`)
    }
    if (reasons.length > 0) return { hook, handler, accepted: false, reason: `${handler}'s patches leave Machine ${m.machine.metadata?.name ?? ''} to a rollout: ${reasons.join(', ')}` }
  }
  return { hook, handler, accepted: true, reason: `${handler} takes the change in place for every control plane Machine (with Cluster API's InPlaceUpdates feature gate on)` }
}
