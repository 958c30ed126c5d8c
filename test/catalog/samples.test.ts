// The sample requests shipped with the catalog: one per hook, valid, and shaped like Cluster API's own requests.
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { createCatalog } from '../../src/catalog/index.js'
import { sampleRequest, sampleRequests } from '../../src/api/hooks/v1alpha1/index.js'

const catalog = createCatalog()
const hooks = catalog.all().map(h => h.gvh)
const FIXTURES = new URL('../fixtures/v1alpha1/', import.meta.url)

/** Keys of these objects are free-form (string maps), so only their values' types are compared. */
const MAPS = new Set(['labels', 'annotations', 'matchLabels', 'settings'])

const jsonType = (v: unknown) => v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v

/** Paths where the sample has a field the fixture lacks, or a value of another JSON type. */
function shapeMismatches (sample: unknown, fixture: unknown, path = ''): string[] {
  if (jsonType(sample) !== jsonType(fixture)) return [`${path || '(root)'}: ${jsonType(sample)} in the sample, ${jsonType(fixture)} in the fixture`]
  if (Array.isArray(sample)) {
    const reference = fixture as unknown[]
    if (reference.length === 0) return sample.length === 0 ? [] : [`${path}: the fixture has no items to compare with`]
    return sample.flatMap((item, i) => shapeMismatches(item, reference[i] ?? reference[0], `${path}[${i}]`))
  }
  if (sample === null || typeof sample !== 'object') return []
  const reference = fixture as Record<string, unknown>
  const isMap = MAPS.has(path.split('.').pop() ?? '')
  return Object.entries(sample).flatMap(([key, value]) => {
    if (isMap) return typeof value === 'string' ? [] : [`${path}.${key}: map values are strings`]
    if (!(key in reference)) return [`${path}.${key}: not in the fixture`]
    return shapeMismatches(value, reference[key], path ? `${path}.${key}` : key)
  })
}

t.test('there is exactly one sample per hook of the catalog', async t => {
  t.same(Object.keys(sampleRequests).sort(), hooks.map(h => h.hook).sort())
})

t.test('every sample validates against its request schema and names its kind', async t => {
  for (const gvh of hooks) {
    const sample = sampleRequest(gvh.hook)
    t.same(catalog.validateRequest(gvh, sample), { valid: true }, gvh.hook)
    t.match(sample, { kind: `${gvh.hook}Request`, apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1' })
  }
})

t.test('every sample has the shape of the request Cluster API marshals for that hook', async t => {
  for (const gvh of hooks) {
    const fixture = JSON.parse(await readFile(new URL(`${gvh.hook.toLowerCase()}.request.json`, FIXTURES), 'utf8')) as unknown
    t.same(shapeMismatches(sampleRequest(gvh.hook), fixture), [], gvh.hook)
  }
})

t.test('the shape comparison finds a misplaced or retyped field', async t => {
  t.same(shapeMismatches({ cluster: { spec: { topology: { version: 133 } } } }, { cluster: { spec: { topology: { version: 'v1.33.0' } } } }),
    ['cluster.spec.topology.version: number in the sample, string in the fixture'])
  t.same(shapeMismatches({ cluster: { metadata: { labelz: {} } } }, { cluster: { metadata: { labels: {} } } }), ['cluster.metadata.labelz: not in the fixture'])
  t.same(shapeMismatches({ metadata: { labels: { any: 'x' } } }, { metadata: { labels: { other: 'y' } } }), [], 'label keys are free-form')
})

t.test('sampleRequest returns an independent copy and nothing for unknown hooks', async t => {
  const a = sampleRequest('BeforeClusterCreate') as { cluster: { metadata: { name: string } } }
  a.cluster.metadata.name = 'changed'
  t.equal((sampleRequest('BeforeClusterCreate') as typeof a).cluster.metadata.name, 'sample')
  t.equal(sampleRequest('NoSuchHook'), undefined)
})
