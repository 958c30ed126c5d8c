// The rollout impact of a candidate extension on one Cluster: the desired state Cluster API computes now with the
// extension as registered and with the candidate (dry runs from where the Cluster stands), compared object by object
// as Cluster API compares them (rollout.ts). A change of a field whose candidate value the stored object already has
// (an explicit value equal to the API server's default) changes nothing. Where Machines would be replaced, the
// candidate's in-place update hooks are asked whether they take the change instead (in-place.ts).
import type { RuntimeClient } from '../client/runtime-client.js'
import { dryRunDesiredState, type DryRunResult, type LiveState } from '../simulate/index.js'
import { jsonEqual } from '../topology/json.js'
import { canUpdateMachineSetInPlace, type InPlaceVerdict } from './in-place.js'
import { controlPlaneChanges, type FieldChange, inPlaceObjectChanges, type RolloutEffect, strongest, templateChanges } from './rollout.js'

/** The impact on one object that owns Machines (or the infrastructure cluster). */
export interface ObjectImpact {
  /** object is `Kind namespace/name`. */
  object: string
  /** role: controlPlane, `machineDeployment <name>`, `machinePool <name>`, infrastructureCluster. */
  role: string
  /** effect: rollout (Machines replaced), in-place (updated in place, by Cluster API or the candidate's hook), none. */
  effect: RolloutEffect
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
  /** defaults gives an object as the API server would store it (its CRD's defaults), when known. */
  defaults?: (object: Record<string, unknown>) => Record<string, unknown>
}

type Doc = Record<string, any> & { kind?: string, metadata?: { name?: string, namespace?: string, labels?: Record<string, string>, annotations?: Record<string, string> }, spec?: unknown }

/** Drops the changes whose new value the stored object already has. */
function keepReal (changes: FieldChange[], stored: Doc | undefined): FieldChange[] {
  return changes.filter(c => !jsonEqual(valueAt(stored, c.path), c.after) || c.after === undefined)
}

function valueAt (value: unknown, pointer: string): unknown {
  let at = value
  for (const part of pointer.split('/').slice(1).map(p => p.replace(/~1/g, '/').replace(/~0/g, '~'))) at = (at as Record<string, unknown> | undefined)?.[part]
  return at
}

const describe = (o: Doc | undefined) => `${o?.kind ?? ''} ${o?.metadata?.namespace ?? ''}/${o?.metadata?.name ?? ''}`

/** The rollout impact of the candidate on one Cluster. */
export async function clusterImpact (input: ImpactInput): Promise<ClusterImpact> {
  const before = await dryRunDesiredState({ objects: input.objects, current: input.current, client: input.registered })
  const after = await dryRunDesiredState({ objects: input.objects, current: input.current, client: input.candidate })
  const d = input.defaults ?? ((o: Record<string, unknown>) => o)
  const pair = (get: (r: DryRunResult) => Doc | undefined) => [get(before), get(after)].map(o => o ? d(o) as Doc : undefined) as [Doc | undefined, Doc | undefined]
  const objects: ObjectImpact[] = []
  const cluster = input.objects.find(o => (o as Doc)?.kind === 'Cluster') as Doc

  const [infraA, infraB] = pair(r => r.desired.infrastructureCluster as Doc)
  objects.push(impactOf('infrastructureCluster', infraB ?? infraA, keepReal(inPlaceObjectChanges(infraA, infraB, 'the infrastructure cluster is patched in place; it has no Machines'), input.current.infrastructureCluster as Doc)))

  const [cpA, cpB] = pair(r => r.desired.controlPlane.object as Doc)
  const [cpMachineA, cpMachineB] = pair(r => r.desired.controlPlane.infrastructureMachineTemplate as Doc | undefined)
  objects.push(withMachines(impactOf('controlPlane', cpB ?? cpA, [
    ...keepReal(controlPlaneChanges(cpA, cpB), input.current.controlPlane.object as Doc),
    ...keepReal(templateChanges(cpMachineA, cpMachineB, 'the control plane'), input.current.controlPlane.infrastructureMachineTemplate as Doc)
  ]), input.current.controlPlane.object as Doc))

  for (const [name, a] of before.desired.machineDeployments) {
    const b = after.desired.machineDeployments.get(name)
    const stored = input.current.machineDeployments.get(name)
    const owner = `MachineDeployment ${a.object.metadata?.name ?? name}`
    const changes = [
      ...keepReal(templateChanges(d(a.bootstrap) as Doc, b ? d(b.bootstrap) as Doc : undefined, owner), stored?.bootstrap as Doc),
      ...keepReal(templateChanges(d(a.infrastructure) as Doc, b ? d(b.infrastructure) as Doc : undefined, owner), stored?.infrastructure as Doc)
    ]
    const impact = withMachines(impactOf(`machineDeployment ${name}`, (b?.object ?? a.object) as Doc, changes), stored?.object as Doc)
    if (impact.effect === 'rollout' && stored && b) {
      impact.inPlace = await canUpdateMachineSetInPlace(input.candidate, { current: stored, desired: { ...b, bootstrap: d(b.bootstrap), infrastructure: d(b.infrastructure) } })
      if (impact.inPlace.accepted) impact.effect = 'in-place'
    }
    objects.push(impact)
  }
  for (const [name, a] of before.desired.machinePools) {
    const b = after.desired.machinePools.get(name)
    const stored = input.current.machinePools.get(name)
    const why = 'a MachinePool\'s objects are patched in place: what its instances do is the infrastructure provider\'s business'
    objects.push(impactOf(`machinePool ${name}`, (b?.object ?? a.object) as Doc, [
      ...keepReal(inPlaceObjectChanges(d(a.bootstrap) as Doc, b ? d(b.bootstrap) as Doc : undefined, why), stored?.bootstrap as Doc),
      ...keepReal(inPlaceObjectChanges(d(a.infrastructure) as Doc, b ? d(b.infrastructure) as Doc : undefined, why), stored?.infrastructure as Doc)
    ]))
  }
  return {
    cluster: `${cluster?.metadata?.namespace ?? ''}/${cluster?.metadata?.name ?? ''}`,
    objects,
    calls: before.calls + after.calls
  }
}

/** The impact with the stored object's replicas, when it has some. */
function withMachines (impact: ObjectImpact, stored: Doc | undefined): ObjectImpact {
  const replicas = (stored?.spec as { replicas?: unknown } | undefined)?.replicas
  return typeof replicas === 'number' ? { ...impact, machines: replicas } : impact
}

function impactOf (role: string, object: Doc | undefined, changes: FieldChange[]): ObjectImpact {
  return { object: describe(object), role, effect: strongest(changes), changes }
}
