// Who owns the ExtensionConfig CRD, from its labels: Cluster API's provider label wins over everything.
import t from 'tap'
import { crdOwnership, describeCrdOwnership, ForeignCrdError } from '../../src/controller/crd-owner.js'

const crd = (labels?: Record<string, string>) => ({ metadata: { name: 'extensionconfigs.runtime.cluster.x-k8s.io', ...(labels ? { labels } : {}) } })

t.test('ownership by label', async t => {
  t.same(crdOwnership(undefined), { installed: false, owner: '', foreign: false })
  t.same(crdOwnership(crd()), { installed: true, owner: '', foreign: false }, 'unlabelled: installed by hand, ours')
  t.same(crdOwnership(crd({ 'app.kubernetes.io/part-of': 'runtime-sdk' })), { installed: true, owner: 'runtime-sdk', foreign: false, label: 'app.kubernetes.io/part-of=runtime-sdk' })
  t.same(crdOwnership(crd({ 'cluster.x-k8s.io/provider': 'cluster-api' })), { installed: true, owner: 'Cluster API', foreign: true, label: 'cluster.x-k8s.io/provider=cluster-api' })
  t.match(crdOwnership(crd({ 'cluster.x-k8s.io/provider': 'cluster-api', 'app.kubernetes.io/part-of': 'runtime-sdk' })), { owner: 'Cluster API', foreign: true }, 'applied over Cluster API\'s: still Cluster API\'s')
  t.same(crdOwnership(crd({ 'app.kubernetes.io/part-of': 'platform' })), { installed: true, owner: 'platform', foreign: true, label: 'app.kubernetes.io/part-of=platform' })
})

t.test('messages say what to do', async t => {
  t.equal(describeCrdOwnership(crdOwnership(undefined)), 'the ExtensionConfig CRD extensionconfigs.runtime.cluster.x-k8s.io is not installed')
  const err = new ForeignCrdError(crdOwnership(crd({ 'cluster.x-k8s.io/provider': 'cluster-api' })))
  t.equal(err.code, 'ERR_RUNTIME_SDK_FOREIGN_CRD')
  t.equal(err.message, 'the ExtensionConfig CRD extensionconfigs.runtime.cluster.x-k8s.io belongs to Cluster API (label cluster.x-k8s.io/provider=cluster-api): ' +
    'run beside it with --read-only (deploy/beside-cluster-api), or pass --take-over-crd to write status there anyway')
})
