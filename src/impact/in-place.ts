// Whether the candidate's CanUpdateMachineSet handler would take a MachineDeployment's change in place, asked as
// Cluster API's MachineDeployment controller asks it (machinedeployment_canupdatemachineset.go): the current and the
// desired MachineSet with their templates; the answer's patches applied to the current objects (spec.template.spec
// only); then the two compared without what is always updated in place (refs, deletion timeouts, taints, readiness
// gates, min ready seconds: inplace.CleanupMachineSpecForDiff). Cluster API asks only with its InPlaceUpdates
// feature gate on, and only when exactly one handler implements the hook.
import { applyPatch, type Operation } from 'rfc6902'
import { CanUpdateMachineSet } from '../api/hooks/v1alpha1/hooks.js'
import type { RuntimeClient } from '../client/runtime-client.js'
import { RuntimeCallError } from '../client/errors.js'
import type { WorkerState } from '../simulate/index.js'
import { jsonCopy, jsonEqual } from '../topology/json.js'
import { applyMergePatch } from '../topology/merge-patch.js'

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

/** patch.ApplyPatchToObject: the patch applied, only spec.template.spec kept. */
function applyToSpec (object: Doc, patch: { patchType?: string, patch?: string } | undefined): Doc {
  if (!patch?.patchType) return object
  const decoded = JSON.parse(Buffer.from(patch.patch ?? '', 'base64').toString('utf8')) as unknown
  let patched: Doc = jsonCopy(object)
  if (patch.patchType === 'JSONMergePatch') patched = applyMergePatch(patched, decoded) as Doc
  else if (Array.isArray(decoded) && applyPatch(patched, decoded as Operation[]).some(e => e !== null)) throw new Error('the patch does not apply')
  const out = jsonCopy(object)
  if (patched['spec']?.template?.spec !== undefined) out['spec'] = { ...out['spec'], template: { ...out['spec']?.template, spec: patched['spec'].template.spec } }
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
  const handlers = await candidate.getAllExtensions(CanUpdateMachineSet, change.current.object)
  if (handlers.length === 0) return { hook, accepted: false, reason: 'the candidate implements no CanUpdateMachineSet handler' }
  if (handlers.length > 1) return { hook, accepted: false, reason: `several CanUpdateMachineSet handlers (${handlers.join(', ')}): Cluster API supports one` }
  const handler = handlers[0] as string
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
