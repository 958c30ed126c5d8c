import t from 'tap'
import { compareVersions, groupHookString, gvhString, hookPath, parseApiVersion } from '../../src/catalog/identity.js'

const gvh = { group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha1', hook: 'BeforeClusterCreate' }

t.test('paths are built like Cluster API builds them', async t => {
  t.equal(hookPath({ ...gvh, hook: 'Discovery' }), '/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery')
  t.equal(hookPath(gvh, 'before-cluster-create'), '/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/before-cluster-create')
  t.equal(hookPath({ ...gvh, hook: 'CanUpdateMachineSet' }, 'Can-Update'), '/hooks.runtime.cluster.x-k8s.io/v1alpha1/canupdatemachineset/can-update', 'hook and name are lowercased')
})

t.test('identities format as in Cluster API errors', async t => {
  t.equal(gvhString(gvh), 'hooks.runtime.cluster.x-k8s.io/v1alpha1, Hook=BeforeClusterCreate')
  t.equal(groupHookString(gvh), 'BeforeClusterCreate.hooks.runtime.cluster.x-k8s.io')
})

t.test('apiVersions split like Kubernetes splits them', async t => {
  t.same(parseApiVersion('hooks.runtime.cluster.x-k8s.io/v1alpha1'), { group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha1' })
  t.same(parseApiVersion('v1'), { group: '', version: 'v1' })
  t.throws(() => parseApiVersion('a/b/c'), /unexpected GroupVersion string: a\/b\/c/)
  t.throws(() => parseApiVersion('/v1'), /unexpected GroupVersion string/)
})

t.test('versions order by Kubernetes priority, newest first', async t => {
  const sorted = ['v1alpha1', 'v1', 'v1beta1', 'v2', 'v1alpha2', 'v1beta2', 'v10alpha1', 'v2beta1'].sort(compareVersions)
  t.same(sorted, ['v2', 'v1', 'v2beta1', 'v1beta2', 'v1beta1', 'v10alpha1', 'v1alpha2', 'v1alpha1'])
  t.ok(compareVersions('v1alpha2', 'v1alpha1') < 0)
  t.equal(compareVersions('v1', 'v1'), 0)
})
