// Validation per direction: hook groups of your own against their JSON Schemas (Ajv, messages naming the field),
// Cluster API's hooks as Go decodes them (the details are in decoder.test.ts), and what neither does: change a value.
import t from 'tap'
import { createCatalog } from '../../src/catalog/index.js'
import { fieldPath } from '../../src/catalog/field-path.js'
import { validate } from '../../src/catalog/validate.js'
import { TEST_GROUP, testGroupVersions } from '../helpers/test-hooks.js'

const catalog = createCatalog().add(...testGroupVersions)
const capi = (hook: string) => ({ group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha1', hook })
const own = (hook: string) => ({ group: TEST_GROUP, version: hook === 'FakeHook' ? 'v1alpha3' : 'v1alpha1', hook })
const invalid = (gvh: ReturnType<typeof capi>, body: unknown, side: 'request' | 'response' = 'request') => {
  const result = side === 'request' ? catalog.validateRequest(gvh, body) : catalog.validateResponse(gvh, body)
  return result.valid ? undefined : result.message
}
/** A FakeHook request (a hook group of our own) that passes, with the fields given. */
const fake = (fields: Record<string, unknown>) => ({ cluster: { metadata: {} }, first: 1, second: 's', ...fields })

t.test('a hook group of your own keeps its JSON Schemas: messages name the field, its constraint and what was received', async t => {
  const fakeHook = own('FakeHook')
  t.equal(invalid(fakeHook, fake({})), undefined)
  t.equal(invalid(fakeHook, fake({ cluster: { metadata: { name: 5 } } })), 'cluster.metadata.name: must be a string, got an integer')
  t.equal(invalid(fakeHook, fake({ cluster: { metadata: { labels: { 'app.kubernetes.io/name': 1 } } } })), 'cluster.metadata.labels["app.kubernetes.io/name"]: must be a string, got an integer')
  t.equal(invalid(fakeHook, fake({ cluster: {} })), 'cluster.metadata: is required', 'what Cluster API\'s Go encoding always sends is required')
  t.equal(invalid(fakeHook, { cluster: { metadata: {} }, second: 's' }), 'first: is required')
  t.equal(invalid(fakeHook, fake({ second: 'x'.repeat(257) })), 'second: must be at most 256 characters long')
  t.equal(invalid(fakeHook, fake({ first: 1.5 })), 'first: must be an integer, got a number')
  t.equal(invalid(fakeHook, fake({ cluster: { metadata: { creationTimestamp: 'yesterday' } } })), 'cluster.metadata.creationTimestamp: must be an RFC 3339 date and time, got "yesterday"')
  t.match(invalid(fakeHook, fake({ cluster: { metadata: {}, spec: { topology: { classRef: { name: 'Not_A_Name' }, version: 'v1.33.0' } } } })), /^cluster\.spec\.topology\.classRef\.name: /,
    'Cluster API\'s markers apply to the objects it embeds')
  t.equal(invalid(fakeHook, fake({ kind: 'OtherRequest' })), 'kind: must be "FakeHookRequest", got "OtherRequest"')
  t.equal(invalid(fakeHook, []), '(root): must be an object, got an array')
  t.equal(invalid(fakeHook, fake({ settings: { k: 1 } })), 'settings.k: must be a string, got an integer')
  t.equal(invalid(fakeHook, { status: 'Maybe', first: 1, second: 's' }, 'response'), 'status: must be one of "Success", "Failure", got "Maybe"')
  t.equal(invalid(own('RetryableFakeHook'), { status: 'Success' }, 'response'), 'retryAfterSeconds: is required')
  t.equal(invalid(own('RetryableFakeHook'), { status: 'Success', retryAfterSeconds: -1 }, 'response'), 'retryAfterSeconds: must be >= 0, got -1')
  t.equal(invalid(fakeHook, fake({ cluster: { metadata: {}, status: { phase: 42, conditions: 'not a list' } } })), undefined, 'an embedded object\'s status passes whatever it holds')
})

t.test('a value too deeply nested for JSON.stringify is described without it', async t => {
  const deep = JSON.parse(`${'['.repeat(100000)}${']'.repeat(100000)}`) as unknown
  t.equal(invalid(own('FakeHook'), fake({ kind: deep })), 'kind: must be a string, got an array')
  t.equal(invalid(own('RetryableFakeHook'), { status: 'Success', retryAfterSeconds: deep }, 'response'), 'retryAfterSeconds: must be an integer, got an array')
})

t.test('a malformed schema (a hook of your own) is refused when first compiled, naming the keyword', async t => {
  const schema = (extra: Record<string, unknown>) => ({ type: 'object', properties: { name: { type: 'string', ...extra } } }) as never
  t.throws(() => validate(schema({ maxLength: '5' }), {}), /maxLength value must be \["number"\]/)
  t.throws(() => validate(schema({ pattern: '(' }), {}), /Invalid regular expression/)
  t.throws(() => validate(schema({ maxLenght: 5 }), {}), /unknown keyword: "maxLenght"/)
})

t.test('Cluster API\'s hooks are checked as Go decodes them, with Go\'s words after the field', async t => {
  t.equal(invalid(capi('BeforeClusterCreate'), { cluster: { metadata: { name: 5 } } }), 'cluster.metadata.name: json: cannot unmarshal number into Go value of type string')
  t.equal(invalid(capi('BeforeClusterCreate'), {}), undefined, 'nothing is required: Go reads what is left out as its zero value')
  t.equal(invalid(capi('GeneratePatches'), { items: null }), undefined)
  t.equal(invalid(capi('ValidateTopology'), { items: [{ holderReference: { apiVersion: 'a', kind: 'k', namespace: 'n', name: 'x', fieldPath: 'f' }, object: null }] }), undefined)
  t.equal(invalid(capi('BeforeClusterCreate'), { cluster: { metadata: { creationTimestamp: null } } }), undefined)
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
  t.equal(invalid(capi('BeforeClusterUpgrade'), body), undefined, 'unknown fields and unknown status values are accepted')
  t.equal(JSON.stringify(body), before, 'byte for byte the same after validation')
  const response = { status: 'Success' }
  t.equal(invalid(own('RetryableFakeHook'), response, 'response'), 'retryAfterSeconds: is required', 'no default is filled in')
  t.equal(invalid(capi('BeforeClusterCreate'), response, 'response'), undefined, 'Cluster API\'s client reads a retryAfterSeconds left out as 0')
  t.same(response, { status: 'Success' })
  t.equal(invalid(capi('BeforeClusterCreate'), { status: 'Success', retryAfterSeconds: '5' }, 'response'),
    'retryAfterSeconds: json: cannot unmarshal string into Go value of type int32', 'no coercion')
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
  t.equal(invalid(capi('BeforeClusterCreate'), { settings, cluster: { metadata: { labels, annotations: labels } } }), undefined, 'labels, annotations and settings')
  const steps = Array.from({ length: 100 }, (_, i) => ({ version: `v1.${i}.0` }))
  t.equal(invalid(capi('BeforeClusterUpgrade'), { cluster: { metadata: {} }, fromKubernetesVersion: 'v1.0.0', toKubernetesVersion: 'v1.99.0', controlPlaneUpgrades: steps, workersUpgrades: steps }), undefined, 'upgrade plans')
  t.equal(invalid(capi('BeforeClusterCreate'), { status: 'Success', retryAfterSeconds: 0, message: 'x'.repeat(40000) }, 'response'), undefined, 'messages')
  t.equal(invalid(capi('Discovery'), { status: 'Success', handlers: Array.from({ length: 600 }, (_, i) => ({ name: `h${i}`, requestHook: { apiVersion: 'a', hook: 'b' } })) }, 'response'), undefined, 'handlers')
})
