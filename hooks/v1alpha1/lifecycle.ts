// Lifecycle hooks: called around the creation, upgrade and deletion of a Cluster with a managed topology
// (lifecyclehooks_types.go in Cluster API).
import { defineHook } from '../define.js'
import { Cluster } from '../embedded/core-v1beta2.js'
import { List, Optional, Str } from '../schema.js'
import { commonResponse, request, response, retryResponse, UpgradeStepInfo } from './common.js'

const TAGS = ['Lifecycle Hooks']
const BLOCKING = 'A non-zero retryAfterSeconds blocks the operation; the hook is called again after about that many seconds.'

const cluster = { cluster: Cluster }
const version = (name: string, what: string) => Str(256, { description: `${name} is ${what}.` })
const plan = {
  controlPlaneUpgrades: Optional(List(UpgradeStepInfo, 64, { description: 'controlPlaneUpgrades are the (remaining) upgrade steps of the control plane, the target included.' })),
  workersUpgrades: Optional(List(UpgradeStepInfo, 64, { description: 'workersUpgrades are the (remaining) upgrade steps of the workers, the target included.' }))
}
const fromTo = (scope: string) => ({
  fromKubernetesVersion: version('fromKubernetesVersion', `the current Kubernetes version of the ${scope}`),
  toKubernetesVersion: version('toKubernetesVersion', `the Kubernetes version the ${scope} moves to next`)
})

export const BeforeClusterCreate = defineHook({
  hook: 'BeforeClusterCreate',
  request: request('BeforeClusterCreate', cluster, 'BeforeClusterCreateRequest carries the new Cluster.'),
  response: response('BeforeClusterCreate', retryResponse, {}, 'BeforeClusterCreateResponse may hold back the creation of the topology.'),
  meta: {
    tags: TAGS,
    summary: 'Called before the objects of a new Cluster\'s topology are created',
    description: 'Called once the user created a Cluster with a managed topology, before its control plane and infrastructure objects exist. ' + BLOCKING
  }
})

export const AfterControlPlaneInitialized = defineHook({
  hook: 'AfterControlPlaneInitialized',
  request: request('AfterControlPlaneInitialized', cluster, 'AfterControlPlaneInitializedRequest carries the Cluster.'),
  response: response('AfterControlPlaneInitialized', commonResponse, {}, 'AfterControlPlaneInitializedResponse reports the outcome.'),
  meta: {
    tags: TAGS,
    summary: 'Called when the control plane of a Cluster becomes reachable for the first time',
    description: 'Called once the Cluster\'s ControlPlaneInitialized condition is true. The hook cannot block.'
  }
})

export const BeforeClusterUpgrade = defineHook({
  hook: 'BeforeClusterUpgrade',
  request: request('BeforeClusterUpgrade', { ...cluster, ...fromTo('cluster'), ...plan }, 'BeforeClusterUpgradeRequest carries the Cluster, its current and target versions and the upgrade plan.'),
  response: response('BeforeClusterUpgrade', retryResponse, {}, 'BeforeClusterUpgradeResponse may hold back the upgrade.'),
  meta: {
    tags: TAGS,
    summary: 'Called at the start of an upgrade, before the new version reaches the control plane',
    description: 'Called once per upgrade, after the user changed spec.topology.version and before any object is changed. ' + BLOCKING
  }
})

export const BeforeControlPlaneUpgrade = defineHook({
  hook: 'BeforeControlPlaneUpgrade',
  request: request('BeforeControlPlaneUpgrade', { ...cluster, ...fromTo('control plane'), ...plan }, 'BeforeControlPlaneUpgradeRequest carries the Cluster, the next control plane step and the remaining plan.'),
  response: response('BeforeControlPlaneUpgrade', retryResponse, {}, 'BeforeControlPlaneUpgradeResponse may hold back the control plane step.'),
  meta: {
    tags: TAGS,
    summary: 'Called before each version step is applied to the control plane',
    description: 'Called for every control plane version of an upgrade plan, after BeforeClusterUpgrade for the first one. ' + BLOCKING
  }
})

export const AfterControlPlaneUpgrade = defineHook({
  hook: 'AfterControlPlaneUpgrade',
  request: request('AfterControlPlaneUpgrade', { ...cluster, kubernetesVersion: version('kubernetesVersion', 'the version the control plane reached'), ...plan }, 'AfterControlPlaneUpgradeRequest carries the Cluster, the version reached and the remaining plan.'),
  response: response('AfterControlPlaneUpgrade', retryResponse, {}, 'AfterControlPlaneUpgradeResponse may hold back the next step.'),
  meta: {
    tags: TAGS,
    summary: 'Called after the control plane reached a version step',
    description: 'Called when every control plane machine runs the version of the current step, before workers are upgraded. ' + BLOCKING
  }
})

export const BeforeWorkersUpgrade = defineHook({
  hook: 'BeforeWorkersUpgrade',
  request: request('BeforeWorkersUpgrade', { ...cluster, ...fromTo('workers'), ...plan }, 'BeforeWorkersUpgradeRequest carries the Cluster, the next worker step and the remaining plan.'),
  response: response('BeforeWorkersUpgrade', retryResponse, {}, 'BeforeWorkersUpgradeResponse may hold back the worker step.'),
  meta: {
    tags: TAGS,
    summary: 'Called before a version step is applied to the workers',
    description: 'Called when MachineDeployments and MachinePools are about to move to the version of a step. ' + BLOCKING
  }
})

export const AfterWorkersUpgrade = defineHook({
  hook: 'AfterWorkersUpgrade',
  request: request('AfterWorkersUpgrade', { ...cluster, kubernetesVersion: version('kubernetesVersion', 'the version the workers reached'), ...plan }, 'AfterWorkersUpgradeRequest carries the Cluster, the version reached and the remaining plan.'),
  response: response('AfterWorkersUpgrade', retryResponse, {}, 'AfterWorkersUpgradeResponse may hold back the next step.'),
  meta: {
    tags: TAGS,
    summary: 'Called after the workers reached a version step',
    description: 'Called when all worker machines run the version of the current step. ' + BLOCKING
  }
})

export const AfterClusterUpgrade = defineHook({
  hook: 'AfterClusterUpgrade',
  request: request('AfterClusterUpgrade', { ...cluster, kubernetesVersion: version('kubernetesVersion', 'the version the Cluster was upgraded to') }, 'AfterClusterUpgradeRequest carries the Cluster and the version it reached.'),
  response: response('AfterClusterUpgrade', retryResponse, {}, 'AfterClusterUpgradeResponse may hold back the next upgrade.'),
  meta: {
    tags: TAGS,
    summary: 'Called after the whole Cluster was upgraded to its target version',
    description: 'Called once the control plane and all workers run spec.topology.version. A blocking answer keeps the next upgrade from starting.'
  }
})

export const BeforeClusterDelete = defineHook({
  hook: 'BeforeClusterDelete',
  request: request('BeforeClusterDelete', cluster, 'BeforeClusterDeleteRequest carries the Cluster being deleted.'),
  response: response('BeforeClusterDelete', retryResponse, {}, 'BeforeClusterDeleteResponse may hold back the deletion.'),
  meta: {
    tags: TAGS,
    summary: 'Called before the objects of a deleted Cluster are removed',
    description: 'Called once the user deleted the Cluster, before any of its objects is deleted. ' + BLOCKING
  }
})
