// The rollout impact of a candidate extension on one Cluster: the desired state Cluster API computes now with the
// extension as registered and with the candidate (dry runs from where the Cluster stands), compared object by object
// as Cluster API compares them (rollout.ts): each side as a server-side apply dry run over the stored object returns
// it, so a value the API server or a webhook would default anyway changes nothing. Where Machines would be replaced, the
// candidate's in-place update hooks are asked whether they take the change instead (in-place.ts). What the API server
// refuses when the topology controller writes the candidate's objects is `refused`: Cluster API stops each reconcile
// there, so what it would write later in its order (infrastructure cluster, control plane, MachineDeployments,
// MachinePools) waits too, while the other MachineDeployments go on (it takes them in random order).
import type { RuntimeClient } from '../client/runtime-client.js'
import { describeObject, dryRunDesiredState, type DryRunResult, getPath, type Unstructured, type LiveState, type RefusedObject, type TopologyReconciledCondition } from '../simulate/index.js'
import { jsonEqual } from '../topology/json.js'
import { canUpdateControlPlaneInPlace, canUpdateMachineSetInPlace, type InPlaceVerdict } from './in-place.js'
import { controlPlaneChanges, type FieldChange, inPlaceObjectChanges, type RolloutEffect, strongest, templateChanges } from './rollout.js'

/** The impact on one object that owns Machines (or the infrastructure cluster). */
export interface ObjectImpact {
  /** object is `Kind namespace/name`. */
  object: string
  /** role: controlPlane, `machineDeployment <name>`, `machinePool <name>`, infrastructureCluster. */
  role: string
  /**
   * effect: rollout (Machines replaced), in-place (updated in place, by Cluster API or the candidate's hook), none,
   * refused (the API server refuses what the topology controller writes: nothing changes, the topology stops).
   */
  effect: RolloutEffect
  /** refused is Cluster API's error for the object, when the API server refuses it. */
  refused?: string
  /** waitsFor names the refused object the reconcile stops at before it reaches this one: its changes wait. */
  waitsFor?: string
  /** inPlace says what the candidate's in-place update hook answered, when it was asked. */
  inPlace?: InPlaceVerdict
  /** changes are every changed field, with what Cluster API does about it. */
  changes: FieldChange[]
  /** machines is how many Machines the object has (its replicas, as stored), when it has Machines. */
  machines?: number
}

/** The impact on one Cluster. */
export interface ClusterImpact {
  /** cluster is `namespace/name`. */
  cluster: string
  /** objects are the infrastructure cluster, the control plane, each MachineDeployment and MachinePool. */
  objects: ObjectImpact[]
  /** calls counts the hook calls made (both extensions). */
  calls: number
  /** topologyReconciled is the Cluster's TopologyReconciled condition with the candidate, when it refuses something. */
  topologyReconciled?: TopologyReconciledCondition
}

/** What computing a Cluster's impact takes. */
export interface ImpactInput {
  /** objects are the Cluster as stored, its ClusterClass and templates (see readLiveCluster). */
  objects: readonly unknown[]
  /** current is what the topology controller made for the Cluster, as stored. */
  current: LiveState
  /** registered calls the extension as Cluster API has it registered. */
  registered: RuntimeClient
  /** candidate calls the new version, registered under the same ExtensionConfig name. */
  candidate: RuntimeClient
}

type Compare = (stored: Unstructured | undefined, desired: Unstructured | undefined) => FieldChange[]

/** The rollout impact of the candidate on one Cluster. */
export async function clusterImpact (input: ImpactInput): Promise<ClusterImpact> {
  const before = await dryRunDesiredState({ objects: input.objects, current: input.current, client: input.registered, writes: false })
  const after = await dryRunDesiredState({ objects: input.objects, current: input.current, client: input.candidate })
  /**
   * The candidate's changes of one object as Cluster API sees them (both sides through a dry run over what is
   * stored), without those the registered version would make as well (a Cluster still on its way).
   */
  const candidateChanges = (compare: Compare, stored: Unstructured | undefined, get: (r: DryRunResult) => Unstructured | undefined): FieldChange[] => {
    const [a, b] = [get(before), get(after)]
    if (!stored) return compare(a, b)
    // What the API server refuses is compared as written (its refusal is the story).
    const refused = b !== undefined && after.asApplied(b, stored) === undefined
    const seen = (o: Unstructured | undefined) => o && !refused ? after.asApplied(o, stored) ?? o : o
    const now = seen(stored)
    const pending = compare(now, seen(a))
    return compare(now, seen(b)).filter(c => !pending.some(p => p.path === c.path && jsonEqual(p.after, c.after)))
  }
  const current = input.current
  const objects: ObjectImpact[] = []
  const infrastructure: Compare = (x, y) => inPlaceObjectChanges(x, y, 'the infrastructure cluster is patched in place; it has no Machines')
  objects.push(impactOf('infrastructureCluster', after.desired.infrastructureCluster, candidateChanges(infrastructure, current.infrastructureCluster, r => r.desired.infrastructureCluster)))
  const controlPlane = withMachines(impactOf('controlPlane', after.desired.controlPlane.object, [
    ...candidateChanges(controlPlaneChanges, current.controlPlane.object, r => r.desired.controlPlane.object),
    ...candidateChanges((x, y) => templateChanges(x, y, 'the control plane'), current.controlPlane.infrastructureMachineTemplate, r => r.desired.controlPlane.infrastructureMachineTemplate)
  ]), current.controlPlane.object)
  if (controlPlane.effect === 'rollout' && !after.refused.some(r => roleOf(r) === 'controlPlane')) await controlPlaneInPlace(controlPlane, current, after, input.candidate)
  objects.push(controlPlane)
  for (const [name, a] of before.desired.machineDeployments) {
    const b = after.desired.machineDeployments.get(name)
    const stored = current.machineDeployments.get(name)
    const template: Compare = (x, y) => templateChanges(x, y, `MachineDeployment ${a.object.metadata?.name ?? name}`)
    const impact = withMachines(impactOf(`machineDeployment ${name}`, b?.object ?? a.object, [
      ...candidateChanges(template, stored?.bootstrap, r => r.desired.machineDeployments.get(name)?.bootstrap),
      ...candidateChanges(template, stored?.infrastructure, r => r.desired.machineDeployments.get(name)?.infrastructure)
    ]), stored?.object)
    if (impact.effect === 'rollout' && stored && b && !after.refused.some(r => roleOf(r) === impact.role)) {
      // The new MachineSet's templates are the rotated ones, as the API server stores them when they are created.
      impact.inPlace = await canUpdateMachineSetInPlace(input.candidate, { current: stored, desired: { ...b, bootstrap: after.asCreated(b.bootstrap) ?? b.bootstrap, infrastructure: after.asCreated(b.infrastructure) ?? b.infrastructure } })
      if (impact.inPlace.accepted) impact.effect = 'in-place'
    }
    objects.push(impact)
  }
  for (const [name, a] of before.desired.machinePools) {
    const stored = current.machinePools.get(name)
    const pool: Compare = (x, y) => inPlaceObjectChanges(x, y, 'a MachinePool\'s objects are patched in place: what its instances do is the infrastructure provider\'s business')
    objects.push(impactOf(`machinePool ${name}`, after.desired.machinePools.get(name)?.object ?? a.object, [
      ...candidateChanges(pool, stored?.bootstrap, r => r.desired.machinePools.get(name)?.bootstrap),
      ...candidateChanges(pool, stored?.infrastructure, r => r.desired.machinePools.get(name)?.infrastructure)
    ]))
  }
  const cluster = input.objects.find(o => (o as Unstructured)?.kind === 'Cluster') as Unstructured | undefined
  return {
    cluster: `${cluster?.metadata?.namespace ?? ''}/${cluster?.metadata?.name ?? ''}`,
    objects: withRefusals(objects, after.refused),
    calls: before.calls + after.calls,
    ...(after.condition ? { topologyReconciled: after.condition } : {})
  }
}

/**
 * Whether the candidate's CanUpdateMachine takes a control plane rollout in place: then KCP updates its Machines in
 * place, but for as many new Machines as its maxSurge makes first (one by default; 0 needs three replicas or more).
 */
async function controlPlaneInPlace (impact: ObjectImpact, current: LiveState, after: DryRunResult, candidate: RuntimeClient): Promise<void> {
  const stored = current.controlPlane.object
  const desired = after.desired.controlPlane.object
  if (!stored || !desired) return
  const seen = (o: Unstructured | undefined, on: Unstructured | undefined) => o && on ? after.asApplied(o, on) ?? o : o
  const kcp = seen(desired, stored) as Unstructured
  impact.inPlace = await canUpdateControlPlaneInPlace(candidate, {
    machines: current.controlPlane.machines ?? [],
    before: seen(stored, stored) as Unstructured,
    after: kcp,
    machineTemplateBefore: seen(current.controlPlane.infrastructureMachineTemplate, current.controlPlane.infrastructureMachineTemplate),
    machineTemplateAfter: seen(after.desired.controlPlane.infrastructureMachineTemplate, current.controlPlane.infrastructureMachineTemplate)
  })
  if (!impact.inPlace.accepted) return
  const surge = Number(getPath(kcp, ['spec', 'rollout', 'strategy', 'rollingUpdate', 'maxSurge']) ?? 1)
  if (surge === 0) {
    impact.effect = 'in-place'
    return
  }
  impact.machines = surge
  impact.inPlace = { ...impact.inPlace, reason: `${impact.inPlace.reason}; but KCP first makes ${surge} new Machine${surge === 1 ? '' : 's'} (maxSurge ${surge}) and removes as many old ones` }
}

/** The impact's role of a refused object (a template is its owner's). */
const roleOf = (r: RefusedObject) => r.role === 'controlPlaneMachineInfrastructure' ? 'controlPlane' : r.role.replace(/ (bootstrap|infrastructure)$/, '')

/** reconcileState's order: what a refusal stops (MachineDeployments do not stop each other). */
const ORDER = ['infrastructureCluster', 'controlPlane', 'machineDeployment', 'machinePool']
const stage = (role: string) => ORDER.indexOf(role.split(' ')[0] as string)

/** The refused objects marked so, what Cluster API would write after them waiting. */
function withRefusals (objects: ObjectImpact[], refused: readonly RefusedObject[]): ObjectImpact[] {
  if (refused.length === 0) return objects
  const first = Math.min(...refused.map(r => stage(roleOf(r))))
  const stopsAt = refused.find(r => stage(roleOf(r)) === first) as RefusedObject
  return objects.map(o => {
    const own = refused.find(r => roleOf(r) === o.role)
    if (own) return { ...o, effect: 'refused' as const, refused: own.error }
    if (stage(o.role) <= first) return o
    const { inPlace: _asked, ...rest } = o
    return { ...rest, effect: 'none' as const, waitsFor: stopsAt.object }
  })
}

/** The impact with the stored object's replicas, when it has some. */
function withMachines (impact: ObjectImpact, stored: Unstructured | undefined): ObjectImpact {
  const replicas = (stored?.['spec'] as { replicas?: unknown } | undefined)?.replicas
  return typeof replicas === 'number' ? { ...impact, machines: replicas } : impact
}

function impactOf (role: string, object: Unstructured | undefined, changes: FieldChange[]): ObjectImpact {
  return { object: describeObject(object), role, effect: strongest(changes), changes }
}
