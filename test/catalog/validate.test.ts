import t from 'tap'
import { createCatalog } from '../../src/catalog/index.js'
import { fieldPath } from '../../src/catalog/validate.js'

const catalog = createCatalog()
const gvh = (hook: string) => ({ group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha1', hook })
const invalid = (hook: string, body: unknown, side: 'request' | 'response' = 'request') => {
  const result = side === 'request' ? catalog.validateRequest(gvh(hook), body) : catalog.validateResponse(gvh(hook), body)
  return result.valid ? undefined : result.message
}

t.test('messages name the field, its constraint and what was received', async t => {
  t.equal(invalid('BeforeClusterCreate', { cluster: { metadata: { name: 5 } } }), 'cluster.metadata.name: must be a string, got an integer')
  t.equal(invalid('BeforeClusterCreate', { cluster: { metadata: { labels: { 'app.kubernetes.io/name': 1 } } } }), 'cluster.metadata.labels["app.kubernetes.io/name"]: must be a string, got an integer')
  t.equal(invalid('BeforeClusterUpgrade', { cluster: {}, fromKubernetesVersion: 'v1.30.0' }), 'toKubernetesVersion: is required')
  t.equal(invalid('GeneratePatches', { items: [{ uid: 'u', holderReference: { apiVersion: 'a', kind: 'k', namespace: 'n', name: 'x' }, object: {} }] }), 'items[0].holderReference.fieldPath: is required')
  t.equal(invalid('GeneratePatches', { items: [] }, 'response'), 'status: is required')
  t.equal(invalid('GeneratePatches', { status: 'Success', items: [{ uid: 'u', patchType: 'JSONPatch', patch: 'not base64!' }] }, 'response'), 'items[0].patch: must be standard base64 with padding')
  t.equal(invalid('GeneratePatches', { status: 'Success', items: [{ uid: 'u', patchType: 'StrategicMerge', patch: '' }] }, 'response'), 'items[0].patchType: must be one of "JSONPatch", "JSONMergePatch", got "StrategicMerge"')
  t.equal(invalid('BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 2 ** 31 }, 'response'), 'retryAfterSeconds: must be <= 2147483647, got 2147483648')
  t.equal(invalid('BeforeClusterCreate', { status: 'Success', retryAfterSeconds: -1 }, 'response'), 'retryAfterSeconds: must be >= 0, got -1')
  t.equal(invalid('BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 1.5 }, 'response'), 'retryAfterSeconds: must be an integer, got a number')
  t.equal(invalid('BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 0, message: 'x'.repeat(32769) }, 'response'), 'message: must be at most 32768 characters long')
  t.equal(invalid('Discovery', { status: 'Success', handlers: Array.from({ length: 513 }, (_, i) => ({ name: `h${i}`, requestHook: { apiVersion: 'a', hook: 'b' } })) }, 'response'), 'handlers: must have at most 512 items')
  t.equal(invalid('BeforeClusterCreate', [], 'request'), '(root): must be an object, got an array')
  t.equal(invalid('BeforeClusterCreate', { settings: { k: 1 }, cluster: {} }), 'settings.k: must be a string, got an integer')
})

t.test('Go encodes nil lists and empty raw objects as null: accepted where Go emits them', async t => {
  t.equal(invalid('GeneratePatches', { items: null }), undefined)
  t.equal(invalid('ValidateTopology', { items: [{ holderReference: { apiVersion: 'a', kind: 'k', namespace: 'n', name: 'x', fieldPath: 'f' }, object: null }] }), undefined)
  t.equal(invalid('BeforeClusterCreate', { cluster: { metadata: { creationTimestamp: null } } }), undefined)
})

t.test('validation never changes the value: unknown fields, defaults and types stay as sent', async t => {
  const body = {
    kind: 'BeforeClusterUpgradeRequest',
    cluster: {
      metadata: { name: 'c1', managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': {} } }], futureField: { nested: [1, 'two', null] } },
      spec: { topology: { version: 'v1.33.0', futureTopologyField: true } },
      status: { phase: 'SomethingNew', conditions: [{ type: 'X', status: 'Maybe' }] }
    },
    fromKubernetesVersion: 'v1.32.0',
    toKubernetesVersion: 'v1.33.0',
    unknownTopLevelField: 'kept'
  }
  const before = JSON.stringify(body)
  t.equal(invalid('BeforeClusterUpgrade', body), undefined, 'unknown fields and unknown status values are accepted')
  t.equal(JSON.stringify(body), before, 'byte for byte the same after validation')
  const response = { status: 'Success' }
  t.equal(invalid('BeforeClusterCreate', response, 'response'), 'retryAfterSeconds: is required', 'no default is filled in')
  t.same(response, { status: 'Success' })
  t.equal(invalid('BeforeClusterCreate', { status: 'Success', retryAfterSeconds: '5' }, 'response'), 'retryAfterSeconds: must be an integer, got a string', 'no coercion')
})

t.test('field paths', async t => {
  t.equal(fieldPath(''), '')
  t.equal(fieldPath('/items/0/uid'), 'items[0].uid')
  t.equal(fieldPath('/a~1b/c~0d'), '["a/b"]["c~d"]')
  t.equal(fieldPath('/0'), '[0]')
})
