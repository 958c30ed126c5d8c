/**
 * Before deploying a new version of an extension: what it would do to the Clusters it serves. {@link rolloutImpact}
 * reads a management cluster (never writes) and compares, per Cluster, the desired objects with the extension as
 * registered and with a candidate, as Cluster API compares them: which control planes, MachineDeployments and
 * MachinePools would replace their Machines, and why. {@link replay} sends recorded hook calls
 * (`runtime-sdk serve --record`) to another version and reports what it answers differently.
 *
 * @example
 * ```ts
 * import { rolloutImpact, registeredExtensions } from 'runtime-sdk/impact'
 * import { KubeApi } from 'runtime-sdk/controller'
 *
 * const api = new KubeApi()
 * const { client: registered } = await registeredExtensions(api, ['default'])
 * const report = await rolloutImpact({ api, selection: { namespace: 'default' }, name: 'my-extension', registered, candidate })
 * console.log(report.summary.rollingOut, 'Clusters would replace', report.summary.machines, 'Machines')
 * ```
 *
 * @packageDocumentation
 */
// The files:
//   live.ts               rolloutImpact: the Clusters of a management cluster read, each one's impact, the summary
//   impact.ts             clusterImpact: one Cluster's desired state with the registered and the candidate extension
//   rollout.ts            what Cluster API does with each changed field: rollout, in place, nothing
//   in-place.ts           whether the candidate's CanUpdateMachineSet / CanUpdateMachine take a rollout in place
//   replaced-extension.ts the registered extensions with one ExtensionConfig's handlers answered by the candidate
//   recorded-client.ts    a candidate given as a recording of its traffic
//   recording.ts          reading a recording (`serve --record`)
//   replay.ts             recorded calls sent again to another version, and what it answers differently
export { rolloutImpact, summarise, isFailure, type RolloutImpactOptions, type RolloutImpactReport, type ImpactSummary, type ClusterImpactFailure } from './live.js'
// Where the runtime client's registration lives; exported here too, for the impact's "as registered" side.
export { registeredExtensions, type RegisteredExtensions } from '../client/registered-extensions.js'
export { clusterImpact, type ClusterImpact, type ImpactInput, type ObjectImpact } from './impact.js'
export type { FieldChange, RolloutEffect } from './rollout.js'
export type { InPlaceVerdict } from './in-place.js'
export { ReplacedExtensionClient, type ReplacedExtensionConfig } from './replaced-extension.js'
export { RecordedRuntimeClient } from './recorded-client.js'
export { readRecording, RecordingError } from './recording.js'
export { replay, type ReplayOptions, type ReplayReport, type ReplayedCall, type ReplayedHook, type FieldDifference, type TemplateDifference } from './replay.js'
export type { ApiReader, ChangedField, ClusterSelection, ListOf, TopologyReconciledCondition } from '../simulate/index.js'
export type { Budget } from '../budget/index.js'
export { RECORDING_FORMAT, type RecordedCall } from '../server/recording.js'
