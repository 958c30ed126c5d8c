import t from 'tap'
import { Type, type TObject } from 'typebox'
import { defineHook, type HookGroupVersion } from '../../src/api/hooks/define.js'
import { Catalog, CatalogError, createCatalog } from '../../src/catalog/index.js'
import { TEST_GROUP, testGroupVersions, testV1alpha1, testV1alpha2, testV1alpha3 } from '../helpers/test-hooks.js'

const GROUP = 'hooks.runtime.cluster.x-k8s.io'

t.test('the default catalog holds every v1alpha1 hook of Cluster API v1.14', async t => {
  const catalog = createCatalog()
  const hooks = catalog.all().map(h => h.gvh.hook)
  t.same(hooks, [
    'Discovery', 'BeforeClusterCreate', 'AfterControlPlaneInitialized', 'BeforeClusterUpgrade', 'BeforeControlPlaneUpgrade',
    'AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'AfterWorkersUpgrade', 'AfterClusterUpgrade', 'BeforeClusterDelete',
    'GeneratePatches', 'ValidateTopology', 'DiscoverVariables', 'CanUpdateMachine', 'CanUpdateMachineSet', 'UpdateMachine', 'GenerateUpgradePlan'
  ])
  const blocking = catalog.all().filter(h => h.blocking).map(h => h.gvh.hook)
  t.same(blocking, ['BeforeClusterCreate', 'BeforeClusterUpgrade', 'BeforeControlPlaneUpgrade', 'AfterControlPlaneUpgrade',
    'BeforeWorkersUpgrade', 'AfterWorkersUpgrade', 'AfterClusterUpgrade', 'BeforeClusterDelete', 'UpdateMachine'], 'blocking = responses with retryAfterSeconds')
  const discovery = catalog.get({ group: GROUP, version: 'v1alpha1', hook: 'Discovery' })
  t.equal(discovery.definition.meta.singleton, true)
  t.equal(discovery.requestKind, 'DiscoveryRequest')
  t.equal(discovery.responseKind, 'DiscoveryResponse')
  t.equal(discovery.apiVersion, 'hooks.runtime.cluster.x-k8s.io/v1alpha1')
  t.equal(catalog.all().filter(h => h.definition.meta.singleton).length, 1, 'only Discovery is a singleton')
})

t.test('lookups', async t => {
  const catalog = createCatalog()
  const gvh = { group: GROUP, version: 'v1alpha1', hook: 'GeneratePatches' }
  t.ok(catalog.has(gvh))
  t.equal(catalog.path(gvh, 'generate-patches'), '/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/generate-patches')
  t.equal(catalog.path({ ...gvh, hook: 'Discovery' }, 'ignored'), '/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery', 'singletons have no name segment')
  t.same(catalog.versions(GROUP, 'GeneratePatches'), ['v1alpha1'])
  t.equal(catalog.latest(GROUP, 'GeneratePatches').gvh.version, 'v1alpha1')
  t.notOk(catalog.find({ ...gvh, version: 'v1alpha2' }))
  t.throws(() => catalog.get({ ...gvh, hook: 'Nope' }), new CatalogError('hook hooks.runtime.cluster.x-k8s.io/v1alpha1, Hook=Nope is not registered in catalog "runtime-sdk"'))
  t.throws(() => catalog.latest(GROUP, 'Nope'), /hook Nope.hooks.runtime.cluster.x-k8s.io is not registered/)
})

t.test('user-defined groups register with the same API, versions newest first', async t => {
  const catalog = createCatalog('mine').add(...testGroupVersions)
  t.same(catalog.versions(TEST_GROUP, 'FakeHook'), ['v1alpha3', 'v1alpha2', 'v1alpha1'])
  t.equal(catalog.latest(TEST_GROUP, 'FakeHook').gvh.version, 'v1alpha3')
  t.equal(catalog.latest(TEST_GROUP, 'RetryableFakeHook').blocking, true)
  t.equal(catalog.path({ group: TEST_GROUP, version: 'v1alpha2', hook: 'FakeHook' }, 'x'), '/test.runtime.cluster.x-k8s.io/v1alpha2/fakehook/x')
  t.ok(catalog.has({ group: GROUP, version: 'v1alpha1', hook: 'Discovery' }), 'the Cluster API hooks stay')
  t.same(createCatalog().add(testV1alpha3, testV1alpha1, testV1alpha2).versions(TEST_GROUP, 'FakeHook'), ['v1alpha3', 'v1alpha2', 'v1alpha1'], 'order of registration does not matter')
  catalog.add(testV1alpha3)
  t.equal(catalog.all().length, 17 + 4, 're-adding the same definitions is a no-op')
})

t.test('an older version without conversions is refused (Runtime SDK rule #2)', async t => {
  const { conversions: _, ...bare } = testV1alpha1
  t.throws(() => createCatalog().add(bare, testV1alpha2, testV1alpha3), {
    message: 'hook FakeHook.test.runtime.cluster.x-k8s.io v1alpha1 is older than the latest version v1alpha3 and has no conversion: an older version must convert requests down and responses up (Runtime SDK rule #2)'
  })
  const catalog = createCatalog().add(bare)
  t.throws(() => catalog.add(testV1alpha2, testV1alpha3), /v1alpha1 is older than the latest version v1alpha3 and has no conversion/, 'adding a newer version later is refused too')
  t.equal(catalog.versions(TEST_GROUP, 'FakeHook').length, 1, 'a refused add leaves the catalog unchanged')
  t.throws(() => createCatalog().add(testV1alpha1, testV1alpha3), /v1alpha1 converts to v1alpha2, which is not registered/)
  t.throws(() => createCatalog().add(testV1alpha2), /v1alpha2 is its latest version but converts to v1alpha3, which is not registered/)
  const backwards: HookGroupVersion = { ...testV1alpha2, conversions: { FakeHook: { ...testV1alpha2.conversions!['FakeHook']!, to: 'v1alpha1' } } }
  t.throws(() => createCatalog().add(testV1alpha1, backwards, testV1alpha3), /v1alpha2 converts to v1alpha1, which is not a newer version/)
  t.throws(() => createCatalog().add({ ...testV1alpha3, conversions: { Other: testV1alpha2.conversions!['FakeHook']! } }), /has a conversion for hook Other, which it does not define/)
})

t.test('registration checks names, versions and schemas', async t => {
  const hook = (name: string, response: TObject = Type.Object({ status: Type.String() })) =>
    defineHook({ hook: name, request: Type.Object({}), response, meta: { summary: '', description: '', tags: [] } })
  const gv = (over: Partial<HookGroupVersion>): HookGroupVersion => ({ group: 'example.com', version: 'v1', hooks: [hook('Good')], ...over })
  const catalog = new Catalog('c')
  t.throws(() => catalog.add(gv({ group: 'Example.com' })), /hook group "Example.com" must be a lowercase DNS subdomain/)
  t.throws(() => catalog.add(gv({ version: '1.0' })), /hook version "1.0" of group example.com must look like v1, v1beta1 or v1alpha1/)
  t.throws(() => catalog.add(gv({ hooks: [hook('lowerCase')] })), /hook name "lowerCase" in example.com\/v1 must be UpperCamelCase/)
  t.throws(() => catalog.add(gv({ hooks: [hook('Twice'), hook('Twice')] })), /hook Twice is defined twice in example.com\/v1/)
  t.throws(() => catalog.add(gv({ hooks: [hook('NoStatus', Type.Object({}))] })), /must have a status field in its response/)
  catalog.add(gv({}))
  t.throws(() => catalog.add(gv({})), /hook example.com\/v1, Hook=Good is already registered in catalog "c" with a different definition/)
})

t.test('requests and responses validate against their version', async t => {
  const catalog = createCatalog().add(...testGroupVersions)
  const gvh = { group: GROUP, version: 'v1alpha1', hook: 'BeforeClusterCreate' }
  t.same(catalog.validateRequest(gvh, { cluster: { metadata: {} } }), { valid: true })
  t.same(catalog.validateRequest(gvh, { cluster: [] }), { valid: false, message: 'cluster: json: cannot unmarshal array into Go value of type v1beta2.Cluster' })
  t.same(catalog.validateRequest(gvh, { kind: 'BeforeClusterUpgradeRequest', apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha2' }), { valid: true },
    'Cluster API\'s decoder reads kind and apiVersion as any strings')
  t.same(catalog.validateResponse(gvh, { status: 'Success', retryAfterSeconds: 5 }), { valid: true })
  t.same(catalog.validateResponse(gvh, { status: 'Maybe', retryAfterSeconds: 0 }), { valid: false, message: 'status: must be one of "Success", "Failure", got "Maybe"' })
  t.equal(catalog.get(gvh).goDecoded, true)
  const fake = { group: TEST_GROUP, version: 'v1alpha3', hook: 'FakeHook' }
  t.equal(catalog.get(fake).goDecoded, false)
  const request = { cluster: { metadata: {} }, first: 1, second: 's' }
  t.same(catalog.validateRequest(fake, { kind: 'FakeHookRequest', ...request }), { valid: true })
  t.same(catalog.validateRequest(fake, { kind: 'OtherRequest', ...request }), { valid: false, message: 'kind: must be "FakeHookRequest", got "OtherRequest"' },
    'a hook of your own: its JSON Schema, and the kind and apiVersion of its version')
  t.same(catalog.validateRequest(fake, { ...request, apiVersion: 'test.runtime.cluster.x-k8s.io/v1alpha2' }),
    { valid: false, message: 'apiVersion: must be "test.runtime.cluster.x-k8s.io/v1alpha3", got "test.runtime.cluster.x-k8s.io/v1alpha2"' })
  t.same(catalog.validateRequest(fake, { first: 1, second: 's' }), { valid: false, message: 'cluster: is required' })
  t.same(catalog.receiveRequest(fake, request), { valid: true, request }, 'a request of your own hooks reaches its handler as it is')
  t.same(catalog.receiveRequest(fake, { ...request, kind: 'OtherRequest' }), { valid: false, message: 'kind: must be "FakeHookRequest", got "OtherRequest"' })
})
