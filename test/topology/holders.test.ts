// Which template an item is, from its holder reference, as Cluster API's inline patches tell it.
import t from 'tap'
import {
  isControlPlaneMachineInfrastructureTemplate, isControlPlaneTemplate, isInfrastructureClusterTemplate, isMachineDeploymentBootstrapTemplate,
  isMachineDeploymentInfrastructureTemplate, isMachinePoolBootstrapTemplate, isMachinePoolInfrastructureTemplate, matchesClass, templateRole, toVariables
} from '../../src/topology/index.js'

const holders = {
  InfrastructureCluster: { kind: 'Cluster', fieldPath: 'spec.infrastructureRef' },
  ControlPlane: { kind: 'Cluster', fieldPath: 'spec.controlPlaneRef' },
  ControlPlaneMachineInfrastructure: { kind: 'KubeadmControlPlane', fieldPath: 'spec.machineTemplate.spec.infrastructureRef' },
  MachineDeploymentBootstrap: { kind: 'MachineDeployment', fieldPath: 'spec.template.spec.bootstrap.configRef' },
  MachineDeploymentInfrastructure: { kind: 'MachineDeployment', fieldPath: 'spec.template.spec.infrastructureRef' },
  MachinePoolBootstrap: { kind: 'MachinePool', fieldPath: 'spec.template.spec.bootstrap.configRef' },
  MachinePoolInfrastructure: { kind: 'MachinePool', fieldPath: 'spec.template.spec.infrastructureRef' }
} as const
const predicates = {
  InfrastructureCluster: isInfrastructureClusterTemplate,
  ControlPlane: isControlPlaneTemplate,
  ControlPlaneMachineInfrastructure: isControlPlaneMachineInfrastructureTemplate,
  MachineDeploymentBootstrap: isMachineDeploymentBootstrapTemplate,
  MachineDeploymentInfrastructure: isMachineDeploymentInfrastructureTemplate,
  MachinePoolBootstrap: isMachinePoolBootstrapTemplate,
  MachinePoolInfrastructure: isMachinePoolInfrastructureTemplate
}

t.test('each holder Cluster API sends has exactly one role', async t => {
  for (const [role, holder] of Object.entries(holders)) {
    t.equal(templateRole(holder), role)
    for (const [other, is] of Object.entries(predicates)) t.equal(is(holder), other === role, `${role}: ${other}`)
  }
  t.equal(templateRole({ kind: 'TalosControlPlane', fieldPath: 'spec.machineTemplate.infrastructureRef' }), 'ControlPlaneMachineInfrastructure', 'the v1beta1 contract path too, for any control plane kind')
  t.equal(templateRole({ kind: 'Cluster', fieldPath: 'spec.topology' }), undefined)
  t.equal(templateRole({ kind: 'MachineSet', fieldPath: 'spec.template.spec.infrastructureRef' }), undefined)
})

t.test('matchesClass: names, *, prefix* and *suffix against builtin.machineDeployment.class / machinePool.class', async t => {
  const md = toVariables([{ name: 'builtin', value: { machineDeployment: { class: 'default-worker' } } }])
  const mp = toVariables([{ name: 'builtin', value: { machinePool: { class: 'pool-a' } } }])
  const cases: Array<[string[], boolean]> = [[['default-worker'], true], [['*'], true], [['default*'], true], [['*worker'], true], [['other', '*-worker'], true], [['worker'], false], [['*default'], false], [[], false]]
  for (const [names, want] of cases) t.equal(matchesClass(holders.MachineDeploymentBootstrap, md, names), want, names.join(','))
  t.ok(matchesClass(holders.MachinePoolInfrastructure, mp, ['pool*']))
  t.notOk(matchesClass(holders.MachinePoolInfrastructure, md, ['*']), 'a MachinePool template without builtin.machinePool.class')
  t.notOk(matchesClass(holders.ControlPlane, md, ['*']), 'not a worker template')
  t.notOk(matchesClass({ kind: 'MachineDeployment', fieldPath: 'spec.other' }, md, ['*']))
  const numeric = toVariables([{ name: 'builtin', value: { machineDeployment: { class: 5 } } }])
  t.ok(matchesClass(holders.MachineDeploymentInfrastructure, numeric, ['*']), 'a class that is not a string matches only *')
  t.notOk(matchesClass(holders.MachineDeploymentInfrastructure, numeric, ['5', '5*']))
  t.notOk(matchesClass(holders.MachineDeploymentInfrastructure, toVariables([{ name: 'builtin', value: { machineDeployment: [] } }]), ['*']), 'an unreadable builtin matches nothing')
})
