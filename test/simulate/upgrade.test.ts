// The version decisions of Cluster API's desired-state generator, one function at a time (simulate/upgrade.ts):
// ComputeUpgradePlan, computeControlPlaneVersion with its hooks in order, getHooksToMarkPending,
// computeMachineDeploymentVersion and isMachineDeploymentDeferred.
import t from 'tap'
import { isPending } from '../../src/simulate/lifecycle-hooks.js'
import {
  computeControlPlaneVersion, computeUpgradePlan, computeWorkerVersion, controlPlaneProgress, getHooksToMarkPending, isWorkerDeferred
} from '../../src/simulate/upgrade.js'
import { controlPlaneAt, exampleScope, machineDeploymentAt, scriptedContext } from '../helpers/simulate-scope.js'

t.test('ComputeUpgradePlan: nothing to plan when everything runs the topology\'s version; else the extension\'s plan, remembered', async t => {
  const settled = await exampleScope({ controlPlane: { object: controlPlaneAt('v1.35.0', 'v1.35.0') }, machineDeployments: new Map([['md-0', machineDeploymentAt('v1.35.0')]]) })
  const ctx = scriptedContext()
  await computeUpgradePlan(settled, ctx)
  t.same(settled.upgradeTracker.controlPlane.upgradePlan, [])
  t.equal(ctx.calls.length, 0, 'GenerateUpgradePlan is not called')

  const behind = await exampleScope({ controlPlane: { object: controlPlaneAt('v1.34.0', 'v1.34.0') }, machineDeployments: new Map([['md-0', machineDeploymentAt('v1.34.0')]]) })
  await computeUpgradePlan(behind, ctx)
  t.same(behind.upgradeTracker.controlPlane.upgradePlan, ['v1.35.0'])
  t.same(behind.upgradeTracker.machineDeployments.upgradePlan, ['v1.35.0'], 'the workers\' plan defaulted to the target')
  t.equal(behind.upgradeTracker.minWorkersVersion, 'v1.34.0')
  t.match(ctx.calls, [{ hook: 'GenerateUpgradePlan', request: { fromControlPlaneKubernetesVersion: 'v1.34.0', fromWorkersKubernetesVersion: 'v1.34.0', toKubernetesVersion: 'v1.35.0' } }])
  await computeUpgradePlan(await exampleScope({ controlPlane: { object: controlPlaneAt('v1.34.0', 'v1.34.0') }, machineDeployments: new Map([['md-0', machineDeploymentAt('v1.34.0')]]) }), ctx)
  t.equal(ctx.calls.length, 1, 'the same request within ten minutes is answered from the cache')
})

t.test('computeControlPlaneVersion: the topology\'s version while creating; the current one while provisioning or upgrading', async t => {
  const creating = await exampleScope()
  t.equal(await computeControlPlaneVersion(creating, scriptedContext()), 'v1.35.0')

  const provisioning = await exampleScope({ controlPlane: { object: controlPlaneAt('v1.34.0') } })
  t.equal(await computeControlPlaneVersion(provisioning, scriptedContext()), 'v1.34.0')
  t.ok(provisioning.upgradeTracker.controlPlane.isProvisioning)

  const upgrading = await exampleScope({ controlPlane: { object: controlPlaneAt('v1.35.0', 'v1.34.0') }, machineDeployments: new Map([['md-0', machineDeploymentAt('v1.34.0')]]) })
  upgrading.upgradeTracker.machineDeployments.upgradePlan = ['v1.35.0']
  t.equal(await computeControlPlaneVersion(upgrading, scriptedContext()), 'v1.35.0')
  t.ok(upgrading.upgradeTracker.controlPlane.isUpgrading)
  t.ok(isPending('AfterControlPlaneUpgrade', upgrading.current.cluster), 'the recovery marks the step\'s hooks when they are missing')
  t.ok(isPending('BeforeWorkersUpgrade', upgrading.current.cluster))
})

t.test('computeControlPlaneVersion: BeforeClusterUpgrade holds the upgrade; once it lets go, BeforeControlPlaneUpgrade, then the next step', async t => {
  const current = { controlPlane: { object: controlPlaneAt('v1.34.0', 'v1.34.0') }, machineDeployments: new Map([['md-0', machineDeploymentAt('v1.34.0')]]) }
  const held = await exampleScope(current)
  held.upgradeTracker.controlPlane.upgradePlan = ['v1.35.0']
  held.upgradeTracker.machineDeployments.upgradePlan = ['v1.35.0']
  const holding = scriptedContext({ BeforeClusterUpgrade: { retryAfterSeconds: 30, message: 'backup' } })
  t.equal(await computeControlPlaneVersion(held, holding), 'v1.34.0')
  t.ok(held.hookResponses.isBlocking('BeforeClusterUpgrade'))
  t.match(holding.calls, [{ hook: 'BeforeClusterUpgrade', request: { fromKubernetesVersion: 'v1.34.0', toKubernetesVersion: 'v1.35.0', controlPlaneUpgrades: [{ version: 'v1.35.0' }], workersUpgrades: [{ version: 'v1.35.0' }] } }])
  t.equal(await computeControlPlaneVersion(held, holding), 'v1.34.0', 'within retryAfterSeconds the cached answer holds it without a call')
  t.equal(holding.calls.length, 1)

  const going = await exampleScope(current)
  going.upgradeTracker.controlPlane.upgradePlan = ['v1.35.0']
  going.upgradeTracker.machineDeployments.upgradePlan = ['v1.35.0']
  const ctx = scriptedContext()
  t.equal(await computeControlPlaneVersion(going, ctx), 'v1.35.0')
  t.same(ctx.calls.map(c => c.hook), ['BeforeClusterUpgrade', 'BeforeControlPlaneUpgrade'])
  t.ok(isPending('AfterClusterUpgrade', going.current.cluster))
  t.same(going.upgradeTracker.hooksToMarkPending, ['AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'AfterWorkersUpgrade'])
  t.ok(going.upgradeTracker.controlPlane.isStartingUpgrade)
  t.notOk(going.upgradeTracker.controlPlane.isPendingUpgrade)

  const noPlan = await exampleScope(current)
  await t.rejects(computeControlPlaneVersion(noPlan, scriptedContext()), /the upgrade plan is not set/)
})

t.test('computeControlPlaneVersion: AfterControlPlaneUpgrade and BeforeWorkersUpgrade when pending, then it waits for the workers', async t => {
  const scope = await exampleScope({
    controlPlane: { object: controlPlaneAt('v1.35.0', 'v1.35.0') },
    machineDeployments: new Map([['md-0', machineDeploymentAt('v1.34.0')]]),
    cluster: c => { c.metadata.annotations = { 'runtime.cluster.x-k8s.io/pending-hooks': 'AfterClusterUpgrade,AfterControlPlaneUpgrade,AfterWorkersUpgrade,BeforeWorkersUpgrade' } }
  })
  scope.upgradeTracker.machineDeployments.upgradePlan = ['v1.35.0']
  scope.upgradeTracker.minWorkersVersion = 'v1.34.0'
  const ctx = scriptedContext()
  t.equal(await computeControlPlaneVersion(scope, ctx), 'v1.35.0')
  t.same(ctx.calls.map(c => c.hook), ['AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade'])
  t.match(ctx.calls[1]?.request, { fromKubernetesVersion: 'v1.34.0', toKubernetesVersion: 'v1.35.0' })
  t.ok(scope.upgradeTracker.controlPlane.isWaitingForWorkersUpgrade)
  t.notOk(isPending('AfterControlPlaneUpgrade', scope.current.cluster), 'marked done')
  t.ok(isPending('AfterWorkersUpgrade', scope.current.cluster), 'called once the workers are there')
})

t.test('getHooksToMarkPending: the workers\' hooks only when they take the same version', async t => {
  const scope = await exampleScope()
  t.same(getHooksToMarkPending(scope, 'v1.35.0'), ['AfterControlPlaneUpgrade'])
  scope.upgradeTracker.machineDeployments.upgradePlan = ['v1.35.0']
  t.same(getHooksToMarkPending(scope, 'v1.35.0'), ['AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'AfterWorkersUpgrade'])
  t.same(getHooksToMarkPending(scope, 'v1.34.5'), ['AfterControlPlaneUpgrade'])
})

t.test('controlPlaneProgress: provisioning without a status version, upgrading while it is behind', async t => {
  t.same(controlPlaneProgress(controlPlaneAt('v1.34.0')), { provisioning: true, upgrading: false })
  t.same(controlPlaneProgress(controlPlaneAt('v1.35.0', 'v1.34.0')), { provisioning: false, upgrading: true })
  t.same(controlPlaneProgress(controlPlaneAt('v1.35.0', 'v1.35.0')), { provisioning: false, upgrading: false })
})

t.test('computeMachineDeploymentVersion: pending creation, deferral, hooks and concurrency hold a worker at its version', async t => {
  const created = await exampleScope({ controlPlane: { object: controlPlaneAt('v1.34.0') } })
  created.upgradeTracker.controlPlane.isProvisioning = true
  t.equal(computeWorkerVersion(created, 'machineDeployments', 'md-0'), 'v1.35.0', 'a new worker takes the topology\'s version')
  t.ok(created.upgradeTracker.machineDeployments.pendingCreate.has('md-0'), 'its creation waits for a stable control plane')

  const next = await exampleScope({ controlPlane: { object: controlPlaneAt('v1.35.0', 'v1.35.0') }, machineDeployments: new Map([['md-0', machineDeploymentAt('v1.34.0')]]) })
  next.upgradeTracker.machineDeployments.upgradePlan = ['v1.35.0']
  t.equal(computeWorkerVersion(next, 'machineDeployments', 'md-0'), 'v1.35.0')
  t.ok(next.upgradeTracker.machineDeployments.upgrading.has('loop-md-0-abcde'))

  const full = await exampleScope({ controlPlane: { object: controlPlaneAt('v1.35.0', 'v1.35.0') }, machineDeployments: new Map([['md-0', machineDeploymentAt('v1.34.0')]]) })
  full.upgradeTracker.machineDeployments.upgradePlan = ['v1.35.0']
  full.upgradeTracker.machineDeployments.upgrading.add('another')
  t.equal(computeWorkerVersion(full, 'machineDeployments', 'md-0'), 'v1.34.0', 'one worker upgrades at a time by default')
  t.ok(full.upgradeTracker.machineDeployments.pendingUpgrade.has('loop-md-0-abcde'))

  const blocked = await exampleScope({ controlPlane: { object: controlPlaneAt('v1.35.0', 'v1.35.0') }, machineDeployments: new Map([['md-0', machineDeploymentAt('v1.34.0')]]) })
  blocked.upgradeTracker.machineDeployments.upgradePlan = ['v1.35.0']
  blocked.hookResponses.add('BeforeWorkersUpgrade', { retryAfterSeconds: 10, message: '' })
  t.equal(computeWorkerVersion(blocked, 'machineDeployments', 'md-0'), 'v1.34.0', 'BeforeWorkersUpgrade holds the workers')

  const deferred = await exampleScope({
    controlPlane: { object: controlPlaneAt('v1.35.0', 'v1.35.0') },
    machineDeployments: new Map([['md-0', machineDeploymentAt('v1.34.0')]]),
    cluster: c => { Object.assign(c.spec?.topology?.workers?.machineDeployments?.[0] ?? {}, { metadata: { annotations: { 'topology.cluster.x-k8s.io/defer-upgrade': '' } } }) }
  })
  deferred.upgradeTracker.machineDeployments.upgradePlan = ['v1.35.0']
  t.equal(computeWorkerVersion(deferred, 'machineDeployments', 'md-0'), 'v1.34.0')
  t.ok(deferred.upgradeTracker.machineDeployments.deferred.has('loop-md-0-abcde'))

  const noPlan = await exampleScope({ controlPlane: { object: controlPlaneAt('v1.35.0', 'v1.35.0') }, machineDeployments: new Map([['md-0', machineDeploymentAt('v1.34.0')]]) })
  t.throws(() => computeWorkerVersion(noPlan, 'machineDeployments', 'md-0'), /the upgrade plan is not set/)
})

t.test('isMachineDeploymentDeferred: its own annotations, or an earlier topology holding the sequence', async t => {
  const hold = { 'topology.cluster.x-k8s.io/hold-upgrade-sequence': '' }
  const topologies = [{ name: 'a' }, { name: 'b', metadata: { annotations: hold } }, { name: 'c' }]
  t.notOk(isWorkerDeferred(topologies, 'a'))
  t.ok(isWorkerDeferred(topologies, 'b'))
  t.ok(isWorkerDeferred(topologies, 'c'), 'held by b before it')
  t.ok(isWorkerDeferred([{ name: 'a', metadata: { annotations: { 'topology.cluster.x-k8s.io/defer-upgrade': '' } } }], 'a'))
})
