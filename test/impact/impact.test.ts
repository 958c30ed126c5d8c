// The rollout impact of a candidate extension (src/impact): the example Cluster created with the reference
// extension, then the desired state computed with version 1 and with a version 2 compared as Cluster API compares it.
import t from 'tap'
import { fileURLToPath } from 'node:url'
import { clusterImpact } from '../../src/impact/impact.js'
import { readDocuments } from '../../src/kube/manifests.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createInProcessExtension } from '../../src/server/in-process.js'
import type { ExtensionHandler } from '../../src/server/types.js'
import { InProcessRuntimeClient, simulate } from '../../src/simulate/index.js'
import { referenceHandlersV2 } from '../helpers/reference-extension-v2.js'

const EXAMPLE = fileURLToPath(new URL('../../examples/simulate/', import.meta.url))
const classAndTemplates = [...await readDocuments(`${EXAMPLE}clusterclass.yaml`), ...await readDocuments(`${EXAMPLE}templates.yaml`)]
const created = await simulate({ handlers: referenceHandlers(), objects: [...await readDocuments(`${EXAMPLE}cluster.yaml`), ...classAndTemplates], delete: false })
const state = created.state
if (!state) throw new Error(`the example Cluster was not created: ${created.error ?? ''}`)
const client = (handlers: ExtensionHandler[]) => new InProcessRuntimeClient(createInProcessExtension({ handlers }), 'reference')
const impactOf = async (candidate: ExtensionHandler[]) => await clusterImpact({ objects: [state.cluster, ...classAndTemplates], current: state.current, registered: client(referenceHandlers()), candidate: client(candidate) })
const byRole = (impact: Awaited<ReturnType<typeof impactOf>>) => Object.fromEntries(impact.objects.map(o => [o.role, o]))

t.test('the same version changes nothing', async t => {
  const impact = await impactOf(referenceHandlers())
  t.equal(impact.cluster, 'default/loop')
  t.same(impact.objects.map(o => [o.role, o.effect, o.changes.length]), [['infrastructureCluster', 'none', 0], ['controlPlane', 'none', 0], ['machineDeployment md-0', 'none', 0]])
  t.ok(impact.calls > 0, 'both versions were called')
})

t.test('a spec change of a MachineDeployment\'s template rolls out that MachineDeployment only', async t => {
  const impact = byRole(await impactOf(referenceHandlersV2('command')))
  t.equal(impact['controlPlane']?.effect, 'none')
  t.equal(impact['machineDeployment md-0']?.effect, 'rollout')
  t.match(impact['machineDeployment md-0']?.changes, [{ object: /^KubeadmConfigTemplate /, path: '/spec/template/spec/preKubeadmCommands/1', after: 'echo v2', effect: 'rollout' }])
  t.match(impact['machineDeployment md-0']?.inPlace, { hook: 'CanUpdateMachineSet', accepted: false }, 'version 1\'s CanUpdateMachineSet only updates versions in place')
})

t.test('a label of a MachineDeployment\'s templates is patched in place: nothing rolls out', async t => {
  const impact = byRole(await impactOf(referenceHandlersV2('label')))
  t.equal(impact['machineDeployment md-0']?.effect, 'none')
  t.match(impact['machineDeployment md-0']?.changes, [{ path: '/metadata/labels/example.com~1extension-version', after: 'v2', effect: 'none' }, { path: '/metadata/labels/example.com~1extension-version', effect: 'none' }])
})

t.test('a change the candidate\'s CanUpdateMachineSet takes is reported in place', async t => {
  const impact = byRole(await impactOf(referenceHandlersV2('in-place')))
  t.equal(impact['machineDeployment md-0']?.effect, 'in-place')
  t.match(impact['machineDeployment md-0']?.inPlace, { hook: 'CanUpdateMachineSet', handler: 'can-update-machineset.reference', accepted: true })
})
