// Cluster API's in-place update decisions (feature gate InPlaceUpdates), shared by simulate and rollout-impact: the
// requests it sends CanUpdateMachineSet (machinedeployment_canupdatemachineset.go: the current and the desired
// MachineSet with their templates, cleaned up) and CanUpdateMachine (KCP's inplace_canupdatemachine.go: a Machine,
// its bootstrap config and infrastructure machine), and whether an answer's patches, applied to the current objects,
// leave them equal to the desired ones (what is always updated in place aside: inplace.CleanupMachineSpecForDiff).
import { setTimeout as sleep } from 'node:timers/promises'
import { CanUpdateMachine, CanUpdateMachineSet, UpdateMachine } from '../api/hooks/v1alpha1/hooks.js'
import { jsonCopy, jsonEqual } from '../topology/json.js'
import { formatGoDuration } from '../go/time.js'
import { simpleName } from './names.js'
import { getPath, type Unstructured, setPath } from './objects.js'
import { applyPatchItem, type PatchItem } from './patch-item.js'
import type { ControlPlaneState, MachineObjects } from './live.js'
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

/** A Machine's objects as a CanUpdateMachine request carries them, each cleaned up (cleanupMachine, cleanupUnstructured). */
export function cleanupMachineObjects (m: MachineObjects): Doc {
  return { machine: cleanup(m.machine), bootstrapConfig: cleanup(m.bootstrapConfig ?? {}), infrastructureMachine: cleanup(m.infrastructureMachine ?? {}) }
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

/** An object made from a template (a KubeadmConfig from a KubeadmConfigTemplate, a DevMachine from a DevMachineTemplate). */
function objectOf (template: Unstructured, name: string, namespace: string): Unstructured {
  return { apiVersion: template.apiVersion, kind: String(template.kind ?? '').replace(/Template$/, ''), metadata: { name, namespace }, spec: jsonCopy(getPath(template, TEMPLATE_SPEC) ?? {}) } as Unstructured
}

/**
 * The objects a MachineDeployment's Machine is made of (a Machine from its template, its bootstrap config and
 * infrastructure machine from its templates), named `name`: what UpdateMachine is asked to reach.
 */
function machineObjects (md: WorkerState, name: string): Required<MachineObjects> {
  const namespace = md.object.metadata?.namespace ?? ''
  const spec = jsonCopy(getPath(md.object, TEMPLATE_SPEC) ?? {}) as Doc
  setPath(spec, ['bootstrap', 'configRef', 'name'], name)
  setPath(spec, ['infrastructureRef', 'name'], name)
  const machine: Unstructured = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: { name, namespace, labels: { ...getPath(md.object, ['spec', 'template', 'metadata', 'labels']) as Record<string, string> } }, spec }
  return { machine, bootstrapConfig: objectOf(md.bootstrap, name, namespace), infrastructureMachine: objectOf(md.infrastructure, name, namespace) }
}

/**
 * The objects a KubeadmControlPlane's Machine is made of (KCP's desiredMachine, a KubeadmConfig of its
 * kubeadmConfigSpec, an infrastructure machine from its machine template), named `name`.
 */
function controlPlaneMachineObjects (kcp: Unstructured, machineTemplate: Unstructured | undefined, name: string): Required<MachineObjects> {
  const namespace = kcp.metadata?.namespace ?? ''
  const clusterName = String(getPath(kcp, ['metadata', 'labels', 'cluster.x-k8s.io/cluster-name']) ?? '')
  const infrastructure = machineTemplate ? objectOf(machineTemplate, name, namespace) : { apiVersion: '', kind: '', metadata: { name, namespace }, spec: {} }
  const machine: Unstructured = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name, namespace, labels: { 'cluster.x-k8s.io/cluster-name': clusterName, 'cluster.x-k8s.io/control-plane': '', 'cluster.x-k8s.io/control-plane-name': kcp.metadata?.name ?? '' } },
    spec: {
      ...jsonCopy(getPath(kcp, ['spec', 'machineTemplate', 'spec']) ?? {}) as Doc,
      clusterName,
      version: getPath(kcp, ['spec', 'version']),
      bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name } },
      infrastructureRef: { apiGroup: String(infrastructure.apiVersion ?? '').split('/')[0], kind: infrastructure.kind, name }
    }
  }
  const bootstrapConfig: Unstructured = { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfig', metadata: { name, namespace }, spec: jsonCopy(getPath(kcp, ['spec', 'kubeadmConfigSpec']) ?? {}) }
  return { machine, bootstrapConfig, infrastructureMachine: infrastructure }
}

/** Whether a control plane change reaches its Machines (version, kubeadmConfigSpec, machine template): KCP rolls them out. */
export function controlPlaneMachinesChange (from: ControlPlaneState, to: ControlPlaneState): boolean {
  const made = (cp: ControlPlaneState) => [getPath(cp.object, ['spec', 'version']), getPath(cp.object, ['spec', 'kubeadmConfigSpec']), getPath(cp.infrastructureMachineTemplate, TEMPLATE_SPEC)]
  return !jsonEqual(made(from), made(to))
}

/**
 * The one handler of an in-place hook called, as Cluster API calls it (GetAllExtensions, then CallExtension): none is
 * undefined, several an error.
 */
async function callOne (recorder: Recorder, hook: typeof CanUpdateMachine | typeof CanUpdateMachineSet | typeof UpdateMachine, request: Doc, step: string): Promise<Doc | undefined> {
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
 * The Machine controller's part of an in-place update: UpdateMachine, again after each retryAfterSeconds, until it
 * says done. `owner` names what took the change (for messages).
 */
async function updateMachine (ctx: InPlaceContext, desired: Required<MachineObjects>, owner: string): Promise<void> {
  const machine = desired.machine.metadata?.name ?? ''
  const since = ctx.clock.now
  for (;;) {
    const update = await callOne(ctx.recorder, UpdateMachine, { desired }, `Machine ${machine}`)
    if (!update) throw new SimulationFailure(`UpdateMachine: no handler implements it, while ${owner}'s change was taken in place: Machine ${machine} stays InPlaceUpdateFailed`)
    const retry = Number(update['retryAfterSeconds'] ?? 0)
    if (retry === 0) break
    if (ctx.clock.now + retry - since > ctx.maxBlockedSeconds) throw new SimulationFailure(`UpdateMachine of Machine ${machine} still in progress after ${formatGoDuration(ctx.maxBlockedSeconds * 1000)} (--max-blocked)`)
    ctx.clock.now += retry
    // The update runs in the extension's own time: a second of it at most per call, the rest on the virtual clock.
    await sleep(Math.min(retry, 1) * 1000)
  }
  ctx.recorder.event('machine updated in place', `Machine ${machine} of ${owner} updated in place`)
}

/**
 * A MachineDeployment whose templates rotated, as its controller handles it with InPlaceUpdates on: CanUpdateMachineSet
 * asked with the old and the new MachineSet; when its patches make the change, each Machine moves to the new MachineSet
 * and is updated in place (updateMachine). False when the Machines roll out instead (no handler, or the patches leave
 * a difference).
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
    await updateMachine(ctx, machineObjects(now, machine), `MachineDeployment ${mdName}`)
  }
  return true
}

/**
 * A KubeadmControlPlane whose change reaches its Machines, as KCP's rollingUpdate handles it with InPlaceUpdates on:
 * it first makes maxSurge new Machines (1 unless set), then takes the old ones one at a time while fewer than its
 * replicas are up to date: CanUpdateMachine with the Machine as it is and as the change makes it; when the patches
 * make the change, the Machine is updated in place (updateMachine), else it is replaced.
 */
export async function updateControlPlaneInPlace (ctx: InPlaceContext, previous: ControlPlaneState, now: ControlPlaneState): Promise<void> {
  const [before, after] = [previous.object, now.object]
  if (!before || !after) return
  const kcpName = after.metadata?.name ?? ''
  const replicas = Number(getPath(after, ['spec', 'replicas']) ?? 1)
  const surge = Number(getPath(after, ['spec', 'rollout', 'strategy', 'rollingUpdate', 'maxSurge']) ?? 1)
  for (let i = 0; i < replicas - surge; i++) {
    const name = simpleName(`${kcpName}-`, ctx.random(`machine/${kcpName}/${i}`))
    const desired = controlPlaneMachineObjects(after, now.infrastructureMachineTemplate, name)
    const request = { current: cleanupMachineObjects(controlPlaneMachineObjects(before, previous.infrastructureMachineTemplate, name)), desired: cleanupMachineObjects(desired) }
    const answer = await callOne(ctx.recorder, CanUpdateMachine, request, `Machine ${name}`)
    if (answer && machineDifferences(request, answer).length === 0) await updateMachine(ctx, desired, `KubeadmControlPlane ${kcpName}`)
  }
}
