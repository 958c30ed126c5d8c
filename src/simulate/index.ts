// runtime-sdk's simulation of Cluster API (`runtime-sdk simulate`, and simulate() in runtime-sdk/testing): a Cluster's
// life driven as Cluster API v1.14 drives it, against an extension, without a management cluster.
// Its files follow Cluster API's functions (core/reconcilers/topology/cluster, exp/topology/desiredstate):
//   simulate.ts          the entry point: inputs, variables, the life, the result
//   inputs.ts            the Cluster, its ClusterClass and templates, found and checked
//   variables.ts         DiscoverVariables, the class's definitions, the Cluster's values defaulted and validated
//   blueprint.ts         getBlueprint: the class and its templates as stored
//   scope.ts             what one reconcile works on: blueprint, current state, upgrade tracker, hook answers
//   reconcile.ts         one reconcile: BeforeClusterCreate, the desired state, the After* hooks, the writes
//   upgrade.ts           ComputeUpgradePlan, computeControlPlaneVersion, the workers' versions
//   lifecycle-hooks.ts   the lifecycle hooks, the pending-hooks annotation and the hook cache
//   desired-state.ts     the desired objects (desired-workers.ts for MachineDeployments and MachinePools)
//   cloning.ts           templateToObject, templateToTemplate, health checks, naming
//   names.ts, seeded.ts  naming templates and generated names; seeded randomness and uids
//   patch-engine.ts      the patch engine: the request, the variables (builtins.ts), inline (inline-patches.ts,
//                        inline-template.ts) and external patches, ValidateTopology, the desired state updated
//   patch-item.ts        a patch a hook answers, decoded and applied (the patch engine, in-place updates, replay)
//   world.ts             the simulated management cluster: what is stored, reconcileState's writes, the machines
//   writes.ts            reconcileReferencedObject and reconcileReferencedTemplate: dry runs, applies, rotations
//   refusals.ts          an object the API server refuses: Cluster API's error and the TopologyReconciled condition
//   crds.ts              the simulation's API server: Cluster API's CRDs, admission and server-side apply
//   provider-webhooks.ts the providers' admission webhooks (kubeadm-validation.ts: the kubeadm providers' checks)
//   in-place.ts          in-place updates: the CanUpdate* requests and whether an answer's patches make the change
//   lifecycle.ts         the life on a virtual clock: reconciles until settled, upgrade, deletion
//   versions.ts          Kubernetes versions and upgrade plans
//   timeline.ts          the recorded calls and the checks of every answer
//   in-process-client.ts a RuntimeClient over handlers called in process
//   dry-run.ts           dryRunDesiredState: one reconcile's desired state from where a Cluster stands (rollout-impact)
//   live.ts              reading Clusters and what the topology controller made for them from a management cluster
//   objects.ts           helpers over objects as JSON: paths and JSON Pointers, changed fields, how messages name objects
//   errors.ts            SimulationInputError: input simulate cannot use
export { classExtensionName, simulate, type SimulatedTemplate, type SimulateOptions, type SimulationResult, type SimulationState } from './simulate.js'
export type { TimelineEntry } from './timeline.js'
export type { RefusedObject, TopologyReconciledCondition } from './refusals.js'
export { canUpdateMachineSetRequest, cleanup, cleanupMachineObjects, machineDifferences, machineSetDifferences } from './in-place.js'
export { SimulationInputError } from './errors.js'
export { applyPatchItem, type PatchItem, PatchItemError, type PatchItemOptions } from './patch-item.js'
export { InProcessRuntimeClient } from './in-process-client.js'
export type { SourceOf } from './inputs.js'
export { dryRunDesiredState, type DryRunResult } from './dry-run.js'
export { templateRotation } from './writes.js'
export { type ApiReader, type ClusterSelection, type ControlPlaneState, listClusters, type ListOf, type LiveCluster, type LiveState, type MachineObjects, readLiveCluster, ResourcePaths } from './live.js'
export type { ClusterState, DesiredState, WorkerState } from './scope.js'
export { type ChangedField, changedFields, describeObject, getPath, getPointer, type JsonObject, setPath, type Stored, type Unstructured } from './objects.js'
