// The desired objects of a topology, one Cluster API function at a time (simulate/desired-state.ts,
// desired-workers.ts, cloning.ts): templateToObject, templateToTemplate, computeInfrastructureCluster,
// computeControlPlane, computeCluster, computeMachineDeployment, computeMachinePool, computeMachineHealthCheck, and
// the names of the ClusterClass's naming templates.
import t from 'tap'
import { templateToObject, templateToTemplate } from '../../src/simulate/cloning.js'
import { computeCluster, computeControlPlane, computeDesiredObjects, computeInfrastructureCluster } from '../../src/simulate/desired-state.js'
import { computeMachineDeployment, computeMachinePool } from '../../src/simulate/desired-workers.js'
import { NamingTemplateError, simpleName, templateName } from '../../src/simulate/names.js'
import { seededRandom } from '../../src/simulate/seeded.js'
import { controlPlaneAt, exampleScope, machineDeploymentAt } from '../helpers/simulate-scope.js'

const random = seededRandom('default/loop')

t.test('templateToObject: spec.template becomes the object, with the cluster labels and cloned-from annotations', async t => {
  const s = await exampleScope()
  const template = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevClusterTemplate', metadata: { name: 'tpl', uid: 'u', resourceVersion: '7' }, spec: { template: { metadata: { labels: { own: 'x' } }, spec: { backend: { inMemory: {} } } } } }
  const object = templateToObject({ template, clonedFrom: { apiVersion: template.apiVersion, kind: template.kind, name: 'tpl' }, cluster: s.current.cluster, name: () => 'made', labels: { extra: 'y' } })
  t.same(object, {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'DevCluster',
    metadata: {
      labels: { own: 'x', extra: 'y', 'cluster.x-k8s.io/cluster-name': 'loop', 'topology.cluster.x-k8s.io/owned': '' },
      namespace: 'default',
      annotations: { 'cluster.x-k8s.io/cloned-from-name': 'tpl', 'cluster.x-k8s.io/cloned-from-groupkind': 'DevClusterTemplate.infrastructure.cluster.x-k8s.io' },
      name: 'made'
    },
    spec: { backend: { inMemory: {} } }
  })
  const noSpec = templateToObject({ template: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', metadata: { name: 'empty' } }, clonedFrom: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', name: 'empty' }, cluster: s.current.cluster, name: () => 'n', currentName: 'kept' })
  t.equal(noSpec.kind, 'KubeadmConfig', 'a template without spec.template is tolerated')
  t.equal(noSpec.metadata?.name, 'kept', 'the current object\'s name is kept')
})

t.test('templateToTemplate: a copy named for the Cluster, server fields and last-applied configuration dropped', async t => {
  const s = await exampleScope()
  const template = { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'tpl', uid: 'u', resourceVersion: '3', finalizers: ['f'], annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } }, spec: { template: { spec: { x: 1 } } } }
  const copy = templateToTemplate({ template, clonedFrom: { apiVersion: 'a/v1', kind: 'K', name: 'tpl' }, cluster: s.current.cluster, name: () => 'loop-abcde', ownerRef: { kind: 'Cluster', name: 'loop' } })
  t.same(copy.metadata, {
    name: 'loop-abcde',
    namespace: 'default',
    labels: { 'cluster.x-k8s.io/cluster-name': 'loop', 'topology.cluster.x-k8s.io/owned': '' },
    annotations: { 'cluster.x-k8s.io/cloned-from-name': 'tpl', 'cluster.x-k8s.io/cloned-from-groupkind': 'K.a' },
    ownerReferences: [{ kind: 'Cluster', name: 'loop' }]
  })
  t.same(copy.spec, template.spec)
})

t.test('names: SimpleNameGenerator and the naming templates, with missingkey=error', async t => {
  t.equal(simpleName('loop-', 'abcde'), 'loop-abcde')
  t.equal(simpleName(`${'x'.repeat(70)}-`, 'abcde').length, 63, 'the base is cut to 58 characters')
  t.equal(templateName('{{ .cluster.name }}-cp-{{ .random }}', 'loop', {}, random, 'k'), `loop-cp-${random('k')}`)
  t.equal(templateName('{{ .cluster.name }}-{{ .machineDeployment.topologyName }}', 'loop', { machineDeployment: { topologyName: 'md-0' } }, random, 'k'), 'loop-md-0')
  const long = templateName(`{{ .cluster.name }}-${'y'.repeat(70)}`, 'loop', {}, random, 'k')
  t.equal(long.length, 63)
  t.throws(() => templateName('{{ .nope.name }}', 'loop', {}, random, 'k'), new NamingTemplateError('rendering template: template: template name generator:1:8: executing "template name generator" at <.nope.name>: map has no entry for key "nope"'))
  t.throws(() => templateName('{{ .cluster.name ', 'loop', {}, random, 'k'), /^parsing template "\{\{ \.cluster\.name ": template: template name generator:1: /)
})

t.test('computeInfrastructureCluster: named by the class\'s naming template; the current name is kept', async t => {
  const s = await exampleScope()
  s.blueprint.clusterClass.spec = { ...s.blueprint.clusterClass.spec, infrastructure: { ...s.blueprint.clusterClass.spec?.infrastructure, naming: { template: '{{ .cluster.name }}-infra-{{ .random }}' } } }
  const made = computeInfrastructureCluster(s, random)
  t.match(made.metadata?.name, /^loop-infra-[a-z0-9]{5}$/)
  t.equal(made.kind, 'DevCluster')
  s.current.cluster.spec = { ...s.current.cluster.spec, infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevCluster', name: 'existing' } }
  t.equal(computeInfrastructureCluster(s, random).metadata?.name, 'existing')
})

t.test('computeControlPlane: labels and annotations of class and topology, to its machines too; topology settings over the class\'s', async t => {
  const s = await exampleScope()
  const spec = s.blueprint.clusterClass.spec ?? {}
  s.blueprint.clusterClass.spec = { ...spec, controlPlane: { ...spec.controlPlane, metadata: { labels: { from: 'class', both: 'class' }, annotations: { a: 'class' } }, readinessGates: [{ conditionType: 'ClassGate' }], deletion: { nodeDrainTimeoutSeconds: 10 } } }
  s.blueprint.topology = { ...s.blueprint.topology, controlPlane: { replicas: 3, metadata: { labels: { both: 'topology' } }, taints: [{ key: 'k', effect: 'NoSchedule', propagation: 'Always' }], deletion: { nodeDrainTimeoutSeconds: 20 }, rollout: { after: '2030-01-01T00:00:00Z' } } }
  const machineTemplate = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachineTemplate', metadata: { name: 'loop-mt', namespace: 'default' } }
  const cp = computeControlPlane(s, machineTemplate, 'v1.34.0', 'v1beta2', random) as { metadata: { labels: Record<string, string>, annotations: Record<string, string> }, spec: Record<string, any> }
  t.same(cp.metadata.labels, { from: 'class', both: 'topology', 'cluster.x-k8s.io/cluster-name': 'loop', 'topology.cluster.x-k8s.io/owned': '' })
  t.equal(cp.metadata.annotations['a'], 'class')
  t.same(cp.spec['machineTemplate'].spec.infrastructureRef, { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevMachineTemplate', name: 'loop-mt' })
  t.same(cp.spec['machineTemplate'].metadata.labels, cp.metadata.labels, 'the machines get the control plane\'s labels')
  t.same(cp.spec['machineTemplate'].spec.readinessGates, [{ conditionType: 'ClassGate' }])
  t.same(cp.spec['machineTemplate'].spec.taints, [{ key: 'k', effect: 'NoSchedule', propagation: 'Always' }])
  t.equal(cp.spec['machineTemplate'].spec.deletion.nodeDrainTimeoutSeconds, 20, 'the topology\'s timeout wins')
  t.equal(cp.spec['replicas'], 3)
  t.equal(cp.spec['rollout'].after, '2030-01-01T00:00:00Z')
  t.equal(cp.spec['version'], 'v1.34.0')
  const v1beta1 = computeControlPlane(s, machineTemplate, 'v1.34.0', 'v1beta1', random) as { spec: Record<string, any> }
  t.same(v1beta1.spec['machineTemplate'].infrastructureRef, { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachineTemplate', name: 'loop-mt', namespace: 'default' })
  t.equal(v1beta1.spec['machineTemplate'].nodeDrainTimeout, '20s', 'the v1beta1 contract takes durations')
})

t.test('computeCluster: topology labels, references, and the upgrade step while an upgrade is under way', async t => {
  const s = await exampleScope({ cluster: c => { c.metadata.annotations = { 'topology.internal.cluster.x-k8s.io/upgrade-step': 'v1.34.0', keep: 'x' } } })
  const infra = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevCluster', metadata: { name: 'i' } }
  const cp = controlPlaneAt('v1.35.0')
  const upgrading = computeCluster(s, infra, cp, true)
  t.same(upgrading.spec?.infrastructureRef, { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevCluster', name: 'i' })
  t.equal(upgrading.metadata.annotations?.['topology.internal.cluster.x-k8s.io/upgrade-step'], 'v1.35.0')
  t.same(computeCluster(s, infra, cp, false).metadata.annotations, { keep: 'x' }, 'the step is dropped once the upgrade is over')
})

t.test('computeMachineDeployment: rollout, deletion, failure domain, readiness gates, taints and health check from topology or class', async t => {
  const s = await exampleScope()
  const spec = s.blueprint.clusterClass.spec ?? {}
  const mdClass = spec.workers?.machineDeployments?.[0] ?? {}
  s.blueprint.clusterClass.spec = {
    ...spec,
    workers: {
      machineDeployments: [{
        ...mdClass,
        naming: { template: '{{ .cluster.name }}-md-{{ .machineDeployment.topologyName }}-{{ .random }}' },
        failureDomain: 'fd-class',
        minReadySeconds: 5,
        rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2 } } },
        deletion: { order: 'Oldest', nodeDrainTimeoutSeconds: 30 },
        metadata: { labels: { l: 'class' }, annotations: { a: 'class' } },
        healthCheck: { checks: { unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }] }, remediation: { maxInFlight: 1 } }
      }]
    }
  }
  const blueprint = s.blueprint.machineDeployments.get('default-worker')
  if (blueprint) blueprint.metadata = { labels: { l: 'class' }, annotations: { a: 'class' } }
  const topology = { ...s.blueprint.topology.workers?.machineDeployments?.[0], failureDomain: 'fd-topology', metadata: { annotations: { 'topology.cluster.x-k8s.io/defer-upgrade': '', b: 'topology' } } }
  const md = computeMachineDeployment(s, topology, 'v1.34.0', random)
  const object = md.object as { metadata: { name: string, labels: Record<string, string>, annotations: Record<string, string> }, spec: Record<string, any> }
  t.match(object.metadata.name, /^loop-md-md-0-[a-z0-9]{5}$/)
  t.same(object.metadata.annotations, { b: 'topology', a: 'class' }, 'the upgrade-sequence annotations are not propagated')
  t.equal(object.metadata.labels['topology.cluster.x-k8s.io/deployment-name'], 'md-0')
  t.same(object.spec['rollout'], { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2 } } })
  t.same(object.spec['deletion'], { order: 'Oldest' })
  t.same(object.spec['remediation'], { maxInFlight: 1 })
  t.equal(object.spec['template'].spec.failureDomain, 'fd-topology')
  t.equal(object.spec['template'].spec.minReadySeconds, 5)
  t.same(object.spec['template'].spec.deletion, { nodeDrainTimeoutSeconds: 30 })
  t.equal(object.spec['template'].spec.version, 'v1.34.0')
  t.same(object.spec['template'].spec.bootstrap.configRef, { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfigTemplate', name: md.bootstrap.metadata?.name })
  t.match(md.bootstrap.metadata?.name, /^loop-md-0-[a-z0-9]{5}$/)
  t.equal(md.bootstrap.metadata?.labels?.['topology.cluster.x-k8s.io/deployment-name'], 'md-0')
  t.match(md.machineHealthCheck, { kind: 'MachineHealthCheck', spec: { selector: { matchLabels: { 'topology.cluster.x-k8s.io/deployment-name': 'md-0' } }, checks: { nodeStartupTimeoutSeconds: 600 } } })
  t.notOk('maxInFlight' in ((md.machineHealthCheck?.['spec'] as { remediation?: object }).remediation ?? {}), 'maxInFlight goes to the MachineDeployment, not its health check')

  const current = await exampleScope({ machineDeployments: new Map([['md-0', machineDeploymentAt('v1.34.0', 'existing-md')]]) })
  const kept = computeMachineDeployment(current, current.blueprint.topology.workers?.machineDeployments?.[0] ?? {}, 'v1.34.0', random)
  t.equal(kept.object.metadata?.name, 'existing-md')
  t.equal(kept.bootstrap.metadata?.name, 'b', 'the current templates\' names are kept')
})

t.test('computeMachinePool: objects made from the templates, failure domains and the pool label', async t => {
  const s = await exampleScope()
  const spec = s.blueprint.clusterClass.spec ?? {}
  const mdClass = spec.workers?.machineDeployments?.[0] ?? {}
  s.blueprint.clusterClass.spec = { ...spec, workers: { ...spec.workers, machinePools: [{ class: 'pool', bootstrap: mdClass.bootstrap ?? {}, infrastructure: mdClass.infrastructure ?? {}, failureDomains: ['a', 'b'] }] } }
  s.blueprint.machinePools.set('pool', s.blueprint.machineDeployments.get('default-worker') as never)
  const mp = computeMachinePool(s, { class: 'pool', name: 'mp-0', replicas: 2 }, 'v1.34.0', random)
  t.equal(mp.bootstrap.kind, 'KubeadmConfig')
  t.equal(mp.infrastructure.kind, 'DevMachine')
  t.equal(mp.bootstrap.metadata?.labels?.['topology.cluster.x-k8s.io/pool-name'], 'mp-0')
  t.same((mp.object['spec'] as { failureDomains: string[] }).failureDomains, ['a', 'b'])
  t.match(mp.object.metadata?.name, /^loop-mp-0-[a-z0-9]{5}$/)
})

t.test('computeDesiredObjects: every object of the example topology, the control plane\'s health check only when defined', async t => {
  const s = await exampleScope()
  const desired = computeDesiredObjects(s, { random, contract: 'v1beta2', controlPlaneVersion: 'v1.35.0', workerVersion: () => 'v1.35.0', upgrading: false })
  t.equal(desired.infrastructureCluster.kind, 'DevCluster')
  t.equal(desired.controlPlane.object.kind, 'KubeadmControlPlane')
  t.equal(desired.controlPlane.infrastructureMachineTemplate?.kind, 'DevMachineTemplate')
  t.notOk(desired.controlPlane.machineHealthCheck)
  t.same([...desired.machineDeployments.keys()], ['md-0'])
  s.blueprint.clusterClass.spec = { ...s.blueprint.clusterClass.spec, controlPlane: { ...s.blueprint.clusterClass.spec?.controlPlane, healthCheck: { checks: { nodeStartupTimeoutSeconds: 30 } } } }
  const checked = computeDesiredObjects(s, { random, contract: 'v1beta2', controlPlaneVersion: 'v1.35.0', workerVersion: () => 'v1.35.0', upgrading: false })
  t.match(checked.controlPlane.machineHealthCheck, { spec: { checks: { nodeStartupTimeoutSeconds: 30 }, selector: { matchLabels: { 'cluster.x-k8s.io/control-plane': '' } } } })
})
