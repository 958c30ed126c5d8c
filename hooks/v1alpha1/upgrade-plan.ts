// GenerateUpgradePlan: the version steps of a chained upgrade (upgrade_plan_types.go in Cluster API).
import { defineHook } from '../define.js'
import { Cluster } from '../embedded/core-v1beta2.js'
import { List, named, Optional, Str, Type } from '../schema.js'
import { commonResponse, COMPONENT_PREFIX, request, response } from './common.js'

const version = (name: string, what: string) => Str(256, { minLength: 1, description: `${name} is ${what}.` })

export const UpgradeStep = named(`${COMPONENT_PREFIX}.UpgradeStep`, Type.Object({
  version: version('version', 'the Kubernetes version of this step')
}, { description: 'UpgradeStep is one version of an upgrade plan.' }))

export const GenerateUpgradePlan = defineHook({
  hook: 'GenerateUpgradePlan',
  request: request('GenerateUpgradePlan', {
    cluster: Cluster,
    fromControlPlaneKubernetesVersion: version('fromControlPlaneKubernetesVersion', 'the current Kubernetes version of the control plane'),
    fromWorkersKubernetesVersion: Optional(version('fromWorkersKubernetesVersion', 'the lowest current Kubernetes version of the workers')),
    toKubernetesVersion: version('toKubernetesVersion', 'the target Kubernetes version')
  }, 'GenerateUpgradePlanRequest carries the Cluster and the versions to plan between.'),
  response: response('GenerateUpgradePlan', commonResponse, {
    controlPlaneUpgrades: Optional(List(UpgradeStep, 64, { description: 'controlPlaneUpgrades are the control plane versions in order, ending with the target.' })),
    workersUpgrades: Optional(List(UpgradeStep, 64, { description: 'workersUpgrades are the worker versions in order; when empty Cluster API computes the fewest steps.' }))
  }, 'GenerateUpgradePlanResponse is the upgrade plan.'),
  meta: {
    tags: ['Chained Upgrade Hook'],
    summary: 'Plans the intermediate versions of an upgrade across several minor versions',
    description: 'The control plane plan needs at least one version per minor between the current (excluded) and target (included) version, ' +
      'increasing, ending with the target. A workers plan is optional; when given, each version must be the current control plane version or one of the control plane plan.'
  }
})
