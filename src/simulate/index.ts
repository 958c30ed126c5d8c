// runtime-sdk's simulation of Cluster API (`runtime-sdk simulate`, and simulate() in runtime-sdk/testing): a Cluster's
// life driven as Cluster API v1.14 drives it, against an extension, without a management cluster.
//   simulate.ts           the entry point: inputs, variables, the life, the result
//   inputs.ts             the Cluster, its ClusterClass and templates, found and checked
//   variables.ts          DiscoverVariables, the class's definitions, the Cluster's values defaulted and validated
//   desired.ts            generated names, labels, builtin variables and the GeneratePatches items
//   patches.ts            the patch engine: inline and external patches in the class's order, ValidateTopology
//   lifecycle.ts          the reconciles and lifecycle hooks on a virtual clock
//   versions.ts           Kubernetes versions and upgrade plans
//   timeline.ts           the recorded calls and the checks of every answer
//   in-process-client.ts  a RuntimeClient over handlers called in process
export { classExtensionName, simulate, type SimulatedTemplate, type SimulateOptions, type SimulationResult } from './simulate.js'
export type { TimelineEntry } from './timeline.js'
export { SimulationInputError } from './errors.js'
export { InProcessRuntimeClient } from './in-process-client.js'
export type { SourceOf } from './inputs.js'
