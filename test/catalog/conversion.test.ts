import fc from 'fast-check'
import t from 'tap'
import { schemaProperties } from '../../src/api/schema/builders.js'
import { createCatalog } from '../../src/catalog/index.js'
import { TEST_GROUP, testGroupVersions } from '../helpers/test-hooks.js'

const catalog = createCatalog().add(...testGroupVersions)
const HOOK = 'FakeHook'
const gvh = (version: string) => ({ group: TEST_GROUP, version, hook: HOOK })

const text = fc.string({ maxLength: 40 })
const int32 = fc.integer({ min: -2147483648, max: 2147483647 })
const settings = fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), text, { maxKeys: 4 })
const cluster = fc.record({
  metadata: fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), labels: fc.dictionary(fc.stringMatching(/^[a-z]{1,10}$/), fc.stringMatching(/^[a-z0-9]{0,10}$/)) }),
  unknownField: fc.jsonValue()
})
const shared = { first: int32, second: text }

// Requests of the latest version: all fields any version defines.
const latestRequest = fc.record({ settings, cluster, ...shared, third: text, fourth: fc.boolean() }, { requiredKeys: ['cluster', 'first', 'second'] })
// Responses of the oldest version.
const oldestResponse = fc.record({ status: fc.constantFrom('Success', 'Failure'), message: text, ...shared }, { requiredKeys: ['status', 'first', 'second'] })

const sharedKeys = (version: string, side: 'request' | 'response') =>
  schemaProperties(catalog.get(gvh(version)).definition[side]).filter(k => k !== 'kind' && k !== 'apiVersion')

t.test('down-converting a request keeps every field the older version shares, through any number of versions', async t => {
  for (const target of ['v1alpha2', 'v1alpha1']) {
    fc.assert(fc.property(latestRequest, request => {
      const converted = catalog.convertRequest(TEST_GROUP, HOOK, request, 'v1alpha3', target) as Record<string, unknown>
      const keep = sharedKeys(target, 'request')
      const expected = Object.fromEntries(Object.entries(request).filter(([k]) => keep.includes(k)))
      t.same(converted, expected, `fields of ${target}`)
      t.same(catalog.validateRequest(gvh(target), converted), { valid: true }, `valid ${target} request`)
    }), { numRuns: 50 })
  }
})

t.test('up-converting a response keeps every field and validates against the newer version', async t => {
  fc.assert(fc.property(oldestResponse, response => {
    for (const target of ['v1alpha2', 'v1alpha3']) {
      const converted = catalog.convertResponse(TEST_GROUP, HOOK, response, 'v1alpha1', target)
      t.same(converted, response)
      t.same(catalog.validateResponse(gvh(target), converted), { valid: true })
    }
  }), { numRuns: 50 })
})

t.test('down then up keeps every field both versions share', async t => {
  fc.assert(fc.property(latestRequest, request => {
    const down = catalog.convertRequest(TEST_GROUP, HOOK, request, 'v1alpha3', 'v1alpha1') as Record<string, unknown>
    // A v1alpha1 handler echoes what it received; the caller sees it as a v1alpha3 response.
    const echoed = { status: 'Success', first: down['first'], second: down['second'] }
    const up = catalog.convertResponse(TEST_GROUP, HOOK, echoed, 'v1alpha1', 'v1alpha3') as Record<string, unknown>
    t.equal(up['first'], request.first)
    t.equal(up['second'], request.second)
  }), { numRuns: 50 })
})

t.test('conversion between the same version is the identity; the wrong direction is an error', async t => {
  const request = { cluster: { metadata: {} }, first: 1, second: 'x' }
  t.equal(catalog.convertRequest(TEST_GROUP, HOOK, request, 'v1alpha2', 'v1alpha2'), request)
  t.throws(() => catalog.convertRequest(TEST_GROUP, HOOK, request, 'v1alpha1', 'v1alpha3'), /v1alpha3 is not older than v1alpha1/)
  t.throws(() => catalog.convertResponse(TEST_GROUP, HOOK, request, 'v1alpha1', 'v1alpha9'), /hook test.runtime.cluster.x-k8s.io\/v1alpha9, Hook=FakeHook is not registered/)
})
