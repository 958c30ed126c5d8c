/**
 * hooks.runtime.cluster.x-k8s.io/v1alpha1: every hook Cluster API v1.14 defines, with the named types of their
 * requests, responses and the objects they carry (Cluster, ClusterClass, Machine, ...), and a sample request of each.
 *
 * @packageDocumentation
 */
import type { HookGroupVersion } from '../define.js'
import { GROUP, VERSION } from './constants.js'
import { hooks } from './hooks.js'

export * from './constants.js'
export * from './hooks.js'
export type * from './types.generated.js'
export { sampleRequest, sampleRequests } from './samples.js'

/** The group version of these hooks, as a catalog registers it: every hook of Cluster API v1.14. */
export const groupVersion: HookGroupVersion = { group: GROUP, version: VERSION, hooks }
