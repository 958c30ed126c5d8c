import t from 'tap'
import { createCatalog } from '../../src/catalog/index.js'
import { fieldPath, validate } from '../../src/catalog/validate.js'

const catalog = createCatalog()
const gvh = (hook: string) => ({ group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha1', hook })
const invalid = (hook: string, body: unknown, side: 'request' | 'response' = 'request') => {
  const result = side === 'request' ? catalog.validateRequest(gvh(hook), body) : catalog.validateResponse(gvh(hook), body)
  return result.valid ? undefined : result.message
}

t.test('messages name the field, its constraint and what was received', async t => {
  t.equal(invalid('BeforeClusterCreate', { cluster: { metadata: { name: 5 } } }), 'cluster.metadata.name: must be a string, got an integer')
  t.equal(invalid('BeforeClusterCreate', { cluster: { metadata: { labels: { 'app.kubernetes.io/name': 1 } } } }), 'cluster.metadata.labels["app.kubernetes.io/name"]: must be a string, got an integer')
  t.equal(invalid('BeforeClusterUpgrade', { cluster: { metadata: {} }, fromKubernetesVersion: 'v1.30.0' }), 'toKubernetesVersion: is required')
  t.equal(invalid('BeforeClusterCreate', { cluster: {} }), 'cluster.metadata: is required', 'what Cluster API\'s Go encoding always sends is required')
  t.equal(invalid('GeneratePatches', { items: [{ uid: 'u', holderReference: { apiVersion: 'a', kind: 'k', namespace: 'n', name: 'x' }, object: {} }] }), 'items[0].holderReference.fieldPath: is required')
  t.equal(invalid('GeneratePatches', { items: [] }, 'response'), 'status: is required')
  t.equal(invalid('GeneratePatches', { status: 'Success', items: [{ uid: 'u', patchType: 'JSONPatch', patch: 'not base64!' }] }, 'response'), 'items[0].patch: must be standard base64 with padding')
  t.equal(invalid('GeneratePatches', { status: 'Success', items: [{ uid: 'u', patchType: 'StrategicMerge', patch: '' }] }, 'response'), 'items[0].patchType: must be one of "JSONPatch", "JSONMergePatch", got "StrategicMerge"')
  t.equal(invalid('BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 2 ** 31 }, 'response'), 'retryAfterSeconds: must be a 32-bit integer, got 2147483648')
  t.equal(invalid('BeforeClusterCreate', { cluster: { metadata: { creationTimestamp: 'yesterday' } } }), 'cluster.metadata.creationTimestamp: must be an RFC 3339 date and time, got "yesterday"')
  t.equal(invalid('GenerateUpgradePlan', { cluster: { metadata: {} }, toKubernetesVersion: '' }), 'toKubernetesVersion: must be at least 1 characters long', 'Cluster API\'s markers apply')
  t.equal(invalid('BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 1.5 }, 'response'), 'retryAfterSeconds: must be an integer, got a number')
  t.equal(invalid('BeforeClusterCreate', [], 'request'), '(root): must be an object, got an array')
  t.equal(invalid('BeforeClusterCreate', { settings: { k: 1 }, cluster: { metadata: {} } }), 'settings.k: must be a string, got an integer')
})

t.test('a malformed schema (a hook of your own) is refused when first compiled, naming the keyword', async t => {
  const schema = (extra: Record<string, unknown>) => ({ type: 'object', properties: { name: { type: 'string', ...extra } } }) as never
  t.throws(() => validate(schema({ maxLength: '5' }), {}), /maxLength value must be \["number"\]/)
  t.throws(() => validate(schema({ pattern: '(' }), {}), /Invalid regular expression/)
  t.throws(() => validate(schema({ maxLenght: 5 }), {}), /unknown keyword: "maxLenght"/)
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

t.test('never stricter than Cluster API: bounds it does not set are not ours to add', async t => {
  const labels = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`example.com/label-${i}`, 'v']))
  const settings = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`setting-${i}`, 'x'.repeat(i === 0 ? 100 * 1024 : 8)]))
  t.equal(invalid('BeforeClusterCreate', { settings, cluster: { metadata: { labels, annotations: labels } } }), undefined, 'labels, annotations and settings')
  const steps = Array.from({ length: 100 }, (_, i) => ({ version: `v1.${i}.0` }))
  t.equal(invalid('BeforeClusterUpgrade', { cluster: { metadata: {} }, fromKubernetesVersion: 'v1.0.0', toKubernetesVersion: 'v1.99.0', controlPlaneUpgrades: steps, workersUpgrades: steps }), undefined, 'upgrade plans')
  t.equal(invalid('BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 0, message: 'x'.repeat(40000) }, 'response'), undefined, 'messages')
  t.equal(invalid('Discovery', { status: 'Success', handlers: Array.from({ length: 600 }, (_, i) => ({ name: `h${i}`, requestHook: { apiVersion: 'a', hook: 'b' } })) }, 'response'), undefined, 'handlers')
})

t.test('an embedded object\'s status passes whatever it holds; its spec follows Cluster API\'s markers', async t => {
  const cluster = (more: object) => ({ cluster: { metadata: {}, ...more } })
  t.equal(invalid('BeforeClusterCreate', cluster({ status: { phase: 42, conditions: 'not a list', initialization: { controlPlaneInitialized: 'yes' } } })), undefined)
  t.match(invalid('BeforeClusterCreate', cluster({ spec: { topology: { classRef: { name: 'Not_A_Name' }, version: 'v1.33.0' } } })), /^cluster\.spec\.topology\.classRef\.name: /)
})

t.test('responses a client decodes: Cluster API\'s client decodes types, not bounds, enums or required fields', async t => {
  const decodes = (hook: string, body: unknown) => {
    const result = catalog.validateResponse(gvh(hook), body, 'decode')
    return result.valid ? undefined : result.message
  }
  t.equal(decodes('GeneratePatches', { status: 'Success', message: null, items: [{ uid: 'u', patchType: 'StrategicMerge', patch: 'e30=' }] }), undefined, 'an unknown patch type and a null message')
  t.equal(decodes('DiscoverVariables', { status: 'Success', variables: [{ name: 'v', schema: { openAPIV3Schema: { type: 'string', description: 'd'.repeat(10000) } } }] }), undefined, 'a description over Cluster API\'s API bound')
  t.equal(decodes('GeneratePatches', { status: 'Success', items: [{ uid: 'u', patchType: 'JSONPatch', patch: 'not base64!' }] }), 'items[0].patch: must be standard base64 with padding')
  t.equal(decodes('BeforeClusterCreate', { status: 'Success', retryAfterSeconds: 2 ** 31 }), 'retryAfterSeconds: must be a 32-bit integer, got 2147483648')
  t.equal(decodes('GenerateUpgradePlan', { status: 'Success', controlPlaneUpgrades: [{ version: 1 }] }), 'controlPlaneUpgrades[0].version: must be a string, got an integer')
})
