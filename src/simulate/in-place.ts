// Cluster API's in-place update decisions (feature gate InPlaceUpdates), shared by simulate and rollout-impact: the
// requests it sends CanUpdateMachineSet (machinedeployment_canupdatemachineset.go: the current and the desired
// MachineSet with their templates, cleaned up) and CanUpdateMachine (KCP's inplace_canupdatemachine.go: a Machine,
// its bootstrap config and infrastructure machine), and whether an answer's patches, applied to the current objects,
// leave them equal to the desired ones (what is always updated in place aside: inplace.CleanupMachineSpecForDiff).
import { setTimeout as sleep } from 'node:timers/promises'
import { CanUpdateMachineSet, UpdateMachine } from '../api/hooks/v1alpha1/hooks.js'
import { jsonCopy, jsonEqual } from '../topology/json.js'
import { formatGoDuration } from '../go/time.js'
import { simpleName } from './names.js'
import { getPath, type Unstructured, setPath } from './objects.js'
import { applyPatchItem, type PatchItem } from './patch-item.js'
import type { WorkerState } from './scope.js'
import type { RandomSource } from './seeded.js'
import { type Recorder, SimulationFailure } from './timeline.js'

type Doc = Record<string, any>

/** A MachineSet as a MachineDeployment makes it, cleaned up as the request carries it (cleanupMachineSet). */
function machineSetOf (md: Doc, name: string): Doc {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: { name, namespace: md['metadata']?.namespace, ...(md['metadata']?.labels ? { labels: md['metadata'].labels } : {}), ...(md['metadata']?.annotations ? { annotations: md['metadata'].annotations } : {}) },
    spec: { clusterName: md['spec']?.clusterName, replicas: md['spec']?.replicas, selector: md['spec']?.selector, template: md['spec']?.template }
  }
}

/** cleanupUnstructured: type, name, namespace, labels, annotations and spec. */
export function cleanup (u: Doc): Doc {
  return { apiVersion: u['apiVersion'], kind: u['kind'], metadata: { name: u['metadata']?.name, namespace: u['metadata']?.namespace, ...(u['metadata']?.labels ? { labels: u['metadata'].labels } : {}), ...(u['metadata']?.annotations ? { annotations: u['metadata'].annotations } : {}) }, spec: u['spec'] }
}

/**
 * patch.ApplyPatchToObject: the patch applied, only the spec at `specPath` kept (spec.template.spec of a template);
 * a patch without a type is none (Patch.IsDefined). A patch that does not apply is a PatchItemError naming `name`.
 */
function applyToSpec (object: Doc, patch: PatchItem | undefined, specPath: readonly string[], name = 'the patch'): Doc {
  if (!patch?.patchType) return object
  const patched = applyPatchItem(object, patch, { where: name })
  if (patched === object) return object
  const spec = getPath(patched, specPath)
  const out = jsonCopy(object)
  if (spec !== undefined) setPath(out, specPath, spec)
  return out
}

/** CleanupMachineSpecForDiff: a Machine's spec without what is always updated in place. */
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

/** The CanUpdateMachineSet request for a MachineDeployment moving from `current` to `desired` (its templates rotated). */
export function canUpdateMachineSetRequest (current: WorkerState, desired: WorkerState, names: { current: string, desired: string }): { current: Doc, desired: Doc } {
  return {
    current: { machineSet: machineSetOf(current.object, names.current), bootstrapConfigTemplate: cleanup(current.bootstrap), infrastructureMachineTemplate: cleanup(current.infrastructure) },
    desired: { machineSet: machineSetOf(desired.object, names.desired), bootstrapConfigTemplate: cleanup(desired.bootstrap), infrastructureMachineTemplate: cleanup(desired.infrastructure) }
  }
}

const TEMPLATE_SPEC = ['spec', 'template', 'spec']

/** What stays different once a CanUpdateMachineSet answer's patches are applied (empty: the Machines are updated in place). */
export function machineSetDifferences (request: { current: Doc, desired: Doc }, response: Doc): string[] {
  const { current, desired } = request
  const patched = {
    machineSet: applyToSpec(current['machineSet'], response['machineSetPatch'], TEMPLATE_SPEC, 'machineSetPatch'),
    bootstrapConfigTemplate: applyToSpec(current['bootstrapConfigTemplate'], response['bootstrapConfigTemplatePatch'], TEMPLATE_SPEC, 'bootstrapConfigTemplatePatch'),
    infrastructureMachineTemplate: applyToSpec(current['infrastructureMachineTemplate'], response['infrastructureMachineTemplatePatch'], TEMPLATE_SPEC, 'infrastructureMachineTemplatePatch')
  }
  const reasons: string[] = []
  if (!jsonEqual(forDiff(patched.machineSet['spec']?.template?.spec), forDiff(desired['machineSet']['spec']?.template?.spec))) reasons.push('the MachineSet still differs')
  for (const key of ['bootstrapConfigTemplate', 'infrastructureMachineTemplate'] as const) {
    if (!jsonEqual(patched[key]['spec']?.template?.spec, desired[key]['spec']?.template?.spec)) reasons.push(`the ${desired[key]['kind'] as string} still differs`)
  }
  return reasons
}

/** What stays different once a CanUpdateMachine answer's patches are applied. */
export function machineDifferences (request: { current: Doc, desired: Doc }, response: Doc): string[] {
  const { current, desired } = request
  const patched = {
    machine: applyToSpec(current['machine'], response['machinePatch'], ['spec'], 'machinePatch'),
    bootstrapConfig: applyToSpec(current['bootstrapConfig'], response['bootstrapConfigPatch'], ['spec'], 'bootstrapConfigPatch'),
    infrastructureMachine: applyToSpec(current['infrastructureMachine'], response['infrastructureMachinePatch'], ['spec'], 'infrastructureMachinePatch')
  }
  const reasons: string[] = []
  if (!jsonEqual(forDiff(patched.machine['spec']), forDiff(desired['machine']['spec']))) reasons.push('the Machine still differs')
  for (const key of ['bootstrapConfig', 'infrastructureMachine'] as const) {
    if (!jsonEqual(patched[key]['spec'], desired[key]['spec'])) reasons.push(`the ${desired[key]['kind'] as string} still differs`)
  }
  return reasons
}

/**
 * The objects a MachineDeployment's Machine is made of (a Machine from its template, its bootstrap config and
 * infrastructure machine from its templates), named `name`: what UpdateMachine is asked to reach.
 */
function machineObjects (md: WorkerState, name: string): { machine: Unstructured, bootstrapConfig: Unstructured, infrastructureMachine: Unstructured } {
  const namespace = md.object.metadata?.namespace ?? ''
  const objectOf = (template: Unstructured) => ({ apiVersion: template.apiVersion, kind: String(template.kind ?? '').replace(/Template$/, ''), metadata: { name, namespace }, spec: jsonCopy(getPath(template, TEMPLATE_SPEC) ?? {}) }) as Unstructured
  const bootstrapConfig = objectOf(md.bootstrap)
  const infrastructureMachine = objectOf(md.infrastructure)
  const spec = jsonCopy(getPath(md.object, TEMPLATE_SPEC) ?? {}) as Doc
  setPath(spec, ['bootstrap', 'configRef', 'name'], name)
  setPath(spec, ['infrastructureRef', 'name'], name)
  const machine: Unstructured = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: { name, namespace, labels: { ...getPath(md.object, ['spec', 'template', 'metadata', 'labels']) as Record<string, string> } }, spec }
  return { machine, bootstrapConfig, infrastructureMachine }
}

/**
 * The one handler of an in-place hook called, as Cluster API calls it (GetAllExtensions, then CallExtension): none is
 * undefined, several an error.
 */
async function callOne (recorder: Recorder, hook: typeof CanUpdateMachineSet | typeof UpdateMachine, request: Doc, step: string): Promise<Doc | undefined> {
  const handlers = await recorder.handlersOf(hook)
  if (handlers.length === 0) return undefined
  if (handlers.length > 1) throw new SimulationFailure(`found multiple ${hook.hook} hooks (${handlers.join(',')}): only one hook is supported`)
  return await recorder.callExtension(hook, handlers[0] as string, request as never, step) as Doc
}

/** What taking a MachineDeployment through an in-place update needs from the life. */
interface InPlaceContext {
  random: RandomSource
  clock: { now: number }
  recorder: Recorder
  maxBlockedSeconds: number
}

/**
 * A MachineDeployment whose templates rotated, as its controller handles it with InPlaceUpdates on: CanUpdateMachineSet
 * asked with the old and the new MachineSet; when its patches make the change, each Machine moves to the new MachineSet
 * and the Machine controller calls UpdateMachine, again after each retryAfterSeconds, until it says done. False when
 * the Machines roll out instead (no handler, or the patches leave a difference).
 */
export async function updateMachineDeploymentInPlace (ctx: InPlaceContext, previous: WorkerState, now: WorkerState): Promise<boolean> {
  const mdName = now.object.metadata?.name ?? ''
  const machineSet = (key: string) => simpleName(`${mdName}-`, ctx.random(`machineset/${mdName}/${key}`))
  const request = canUpdateMachineSetRequest(previous, now, { current: machineSet(JSON.stringify(previous.object['spec'])), desired: machineSet(JSON.stringify(now.object['spec'])) })
  const answer = await callOne(ctx.recorder, CanUpdateMachineSet, request, `MachineDeployment ${mdName}`)
  if (!answer || machineSetDifferences(request, answer).length > 0) return false
  const replicas = Number(getPath(now.object, ['spec', 'replicas']) ?? 1)
  for (let i = 0; i < replicas; i++) {
    const machine = simpleName(`${request.desired['machineSet']['metadata'].name as string}-`, ctx.random(`machine/${mdName}/${i}`))
    const desired = machineObjects(now, machine)
    const since = ctx.clock.now
    for (;;) {
      const update = await callOne(ctx.recorder, UpdateMachine, { desired }, `Machine ${machine}`)
      if (!update) throw new SimulationFailure(`UpdateMachine: no handler implements it, while CanUpdateMachineSet took MachineDeployment ${mdName}'s change: Machine ${machine} stays InPlaceUpdateFailed`)
      const retry = Number(update['retryAfterSeconds'] ?? 0)
      if (retry === 0) break
      if (ctx.clock.now + retry - since > ctx.maxBlockedSeconds) throw new SimulationFailure(`UpdateMachine of Machine ${machine} still in progress after ${formatGoDuration(ctx.maxBlockedSeconds * 1000)} (--max-blocked)`)
      ctx.clock.now += retry
      // The update runs in the extension's own time: a second of it at most per call, the rest on the virtual clock.
      await sleep(Math.min(retry, 1) * 1000)
    }
    ctx.recorder.event('machine updated in place', `Machine ${machine} of MachineDeployment ${mdName} updated in place`)
  }
  return true
}
