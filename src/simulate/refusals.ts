// When the API server refuses what the topology controller writes, the reconcile ends with an error, worded as
// Cluster API wraps it (core/reconcilers/topology/cluster/reconcile_state.go), and the Cluster's TopologyReconciled
// condition says it: False, ReconcileFailed, `error reconciling the Cluster topology: <error>`. Nothing written
// after the refused object is written; the Cluster's topology stays stuck until the extension answers differently.
import { errorBody } from '../apiserver/index.js'
import type { ApiRefusal } from './crds.js'
import { describeObject, type Unstructured } from './objects.js'
import { SimulationFailure } from './timeline.js'

/** The TopologyReconciled condition of a reconcile that failed. */
export interface TopologyReconciledCondition {
  /** status is False. */
  status: 'False'
  /** reason is ReconcileFailed. */
  reason: 'ReconcileFailed'
  /** message is the reconcile's error, as Cluster API writes it. */
  message: string
}

/** An object the API server refused: where it sits in the topology, and Cluster API's error for it. */
export interface RefusedObject {
  /** role: infrastructureCluster, controlPlane, controlPlaneMachineInfrastructure, `machineDeployment <name>`, `machinePool <name>` (and `bootstrap`/`infrastructure` for their templates). */
  role: string
  /** object is `Kind namespace/name` of the object written (the stored one on an update). */
  object: string
  /** error is the reconcile's error for it, without the `error reconciling the Cluster topology: ` prefix. */
  error: string
}

/** A reconcile of the topology ended by the API server's refusal of what it wrote. */
export class TopologyReconcileError extends SimulationFailure {
  /** refused lists every object refused in this reconcile, the one the condition names first. */
  readonly refused: RefusedObject[]
  /** condition is the Cluster's TopologyReconciled condition after this reconcile. */
  readonly condition: TopologyReconciledCondition

  constructor (refused: RefusedObject[]) {
    const message = `error reconciling the Cluster topology: ${refused[0]?.error ?? ''}`
    super(message)
    this.refused = refused
    this.condition = { status: 'False', reason: 'ReconcileFailed', message }
  }
}

/** The error of one refused write, in Cluster API's words; `role` says where it sits. */
export class ObjectRefused extends Error {
  constructor (readonly role: string, readonly object: string, message: string) {
    super(message)
  }
}

/**
 * createErrorWithoutObjectName: a create's refusal without the generated name, so that the condition does not change
 * at every attempt: `failed to create Kind.group` and the causes the refusal details, if any.
 */
export function createError (refusal: ApiRefusal, object: Unstructured): string {
  const groupKind = `${object.kind ?? ''}.${String(object.apiVersion ?? '').split('/')[0] ?? ''}`
  const details = refusal.details
  if (!details) return `failed to create ${groupKind}`
  const causes = details.causes.map(c => `${c.type}: ${c.field}: ${errorBody(c)}`)
  return causes.length > 0 ? `failed to create ${details.kind}.${details.group}: ${causes.join(' ')}` : `failed to create ${details.kind}.${details.group}`
}

/** NewServerSidePatchHelper's dry run over the stored object refused. */
export function dryRunError (refusal: ApiRefusal, current: Unstructured): string {
  return `failed to create patch helper for ${describeObject(current)}: server side apply dry-run failed for modified object: ${refusal.message}`
}

/** The apply after a successful dry run refused. */
export function patchError (refusal: ApiRefusal, current: Unstructured): string {
  return `failed to patch ${describeObject(current)}: ${refusal.message}`
}
