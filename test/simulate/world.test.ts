// The simulated management cluster (simulate/world.ts): reconcileState's writes (creation, in-place patches, template
// rotation when a template's spec changes, workers held while pending) and what the other controllers do between
// reconciles.
import t from 'tap'
import { computeDesiredObjects } from '../../src/simulate/desired-state.js'
import { newScope, type ReconcileContext } from '../../src/simulate/reconcile.js'
import { getBlueprint } from '../../src/simulate/blueprint.js'
import { seededRandom } from '../../src/simulate/seeded.js'
import type { DesiredState } from '../../src/simulate/scope.js'
import { SimulatedWorld } from '../../src/simulate/world.js'
import { exampleInputs, scriptedContext } from '../helpers/simulate-scope.js'

const random = seededRandom('default/loop')

async function setup () {
  const inputs = await exampleInputs()
  const world = new SimulatedWorld(structuredClone(inputs.cluster), random)
  const ctx = { ...scriptedContext(), world, blueprint: getBlueprint(inputs, 'default/loop'), random, contract: 'v1beta2', patchEngine: {} } as unknown as ReconcileContext
  const desiredNow = (): { s: ReturnType<typeof newScope>, desired: DesiredState } => {
    const s = newScope(ctx)
    return { s, desired: computeDesiredObjects(s, { random, contract: 'v1beta2', controlPlaneVersion: 'v1.34.0', workerVersion: () => 'v1.34.0', upgrading: false }) }
  }
  return { world, desiredNow }
}

t.test('the first reconcile creates every object and references them from the Cluster', async t => {
  const { world, desiredNow } = await setup()
  const { s, desired } = desiredNow()
  const events = world.reconcileState(s, desired, 'v1beta2', () => {})
  t.same(events.map(e => `${e.change} ${e.object.split(' ')[0]}`), ['created DevCluster', 'created DevMachineTemplate', 'created KubeadmControlPlane', 'created MachineDeployment'])
  t.equal(world.cluster.spec?.controlPlaneRef?.name, desired.controlPlane.object.metadata?.name)
  t.equal(world.cluster.metadata.generation, 2, 'the references are a spec change')
  const again = desiredNow()
  t.same(world.reconcileState(again.s, again.desired, 'v1beta2', () => {}), [], 'nothing to write the second time')
})

t.test('a template whose spec changes is rotated: a new name, its owner\'s reference follows, the machines roll out', async t => {
  const { world, desiredNow } = await setup()
  const first = desiredNow()
  world.reconcileState(first.s, first.desired, 'v1beta2', () => {})
  const before = world.machineDeployments.get('md-0')?.infrastructure.metadata?.name
  const next = desiredNow()
  const md = next.desired.machineDeployments.get('md-0')
  if (md) md.infrastructure = { ...md.infrastructure, spec: { template: { spec: { backend: { inMemory: { vm: { provisioning: { startupDuration: '5s' } } } } } } } }
  const events = world.reconcileState(next.s, next.desired, 'v1beta2', () => {})
  const rotated = events.find(e => e.change === 'rotated')
  t.match(rotated?.detail, `replaces ${before ?? ''}`)
  const after = world.machineDeployments.get('md-0')
  t.not(after?.infrastructure.metadata?.name, before)
  t.equal((after?.object['spec'] as { template: { spec: { infrastructureRef: { name: string } } } }).template.spec.infrastructureRef.name, after?.infrastructure.metadata?.name)
  t.equal(world.advance(), 'control plane initialized at v1.34.0')
  t.equal(world.advance(), 'MachineDeployment md-0 rolled out (its machines replaced)')
  t.equal(world.advance(), undefined)
})

t.test('labels only: the template is patched in place, no rotation', async t => {
  const { world, desiredNow } = await setup()
  const first = desiredNow()
  world.reconcileState(first.s, first.desired, 'v1beta2', () => {})
  const next = desiredNow()
  const md = next.desired.machineDeployments.get('md-0')
  if (md) md.bootstrap.metadata = { ...md.bootstrap.metadata, labels: { ...md.bootstrap.metadata?.labels, extra: 'yes' } }
  const events = world.reconcileState(next.s, next.desired, 'v1beta2', () => {})
  t.same(events.map(e => `${e.change} ${e.detail}`), ['updated metadata changes'])
})

t.test('workers pending creation or upgrade are left alone; the control plane pending upgrade too', async t => {
  const { world, desiredNow } = await setup()
  const first = desiredNow()
  first.s.upgradeTracker.machineDeployments.pendingCreate.add('md-0')
  first.s.upgradeTracker.controlPlane.isPendingUpgrade = true
  world.reconcileState(first.s, first.desired, 'v1beta2', () => {})
  t.equal(world.machineDeployments.size, 0)
  t.equal(world.controlPlane, undefined)
  const second = desiredNow()
  const marked: string[][] = []
  second.s.upgradeTracker.hooksToMarkPending = ['AfterControlPlaneUpgrade']
  world.reconcileState(second.s, second.desired, 'v1beta2', hooks => marked.push(hooks))
  t.same(marked, [['AfterControlPlaneUpgrade']], 'the step\'s hooks are tracked once the control plane is written')
  t.ok(world.isUpgrading('md-0') === false)
})
