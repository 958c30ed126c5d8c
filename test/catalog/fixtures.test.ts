// Wire fixtures marshalled by Cluster API's own Go types (tools/capi-interop/cmd/fixtures) against our schemas.
import { readFile, readdir } from 'node:fs/promises'
import t from 'tap'
import { createCatalog } from '../../src/catalog/index.js'

const catalog = createCatalog()
const DIR = new URL('../fixtures/v1alpha1/', import.meta.url)
const hooks = catalog.all().map(h => h.gvh)

const load = async (hook: string, side: 'request' | 'response') =>
  JSON.parse(await readFile(new URL(`${hook.toLowerCase()}.${side}.json`, DIR), 'utf8')) as Record<string, unknown>
const check = (gvh: typeof hooks[number], side: 'request' | 'response', body: unknown) =>
  side === 'request' ? catalog.validateRequest(gvh, body) : catalog.validateResponse(gvh, body)

t.test('there is a request and a response fixture for every hook, and nothing else', async t => {
  const files = (await readdir(DIR)).filter(f => f.endsWith('.json')).sort()
  t.same(files, hooks.flatMap(h => [`${h.hook.toLowerCase()}.request.json`, `${h.hook.toLowerCase()}.response.json`]).sort())
})

t.test('every fixture Cluster API marshals passes in every direction, and reaches a handler unchanged', async t => {
  for (const gvh of hooks) {
    for (const side of ['request', 'response'] as const) {
      t.same(check(gvh, side, await load(gvh.hook, side)), { valid: true }, `${gvh.hook} ${side}`)
    }
    t.same(catalog.validateResponse(gvh, await load(gvh.hook, 'response'), 'decode'), { valid: true }, `${gvh.hook} response our client decodes`)
    const request = await load(gvh.hook, 'request')
    t.same(catalog.receiveRequest(gvh, structuredClone(request)), { valid: true, request }, `${gvh.hook} request received: Cluster API sends every field Go reads`)
  }
})

t.test('a fixture with a wrong type or an unknown status is rejected naming the field', async t => {
  const request = await load('BeforeClusterUpgrade', 'request')
  const gvh = hooks.find(h => h.hook === 'BeforeClusterUpgrade')!
  t.same(check(gvh, 'request', { ...request, toKubernetesVersion: 133 }), { valid: false, message: 'toKubernetesVersion: json: cannot unmarshal number into Go value of type string' })
  const cluster = request['cluster'] as { metadata: Record<string, unknown> }
  t.same(check(gvh, 'request', { ...request, cluster: { ...cluster, metadata: { ...cluster.metadata, generation: 'three' } } }),
    { valid: false, message: 'cluster.metadata.generation: json: cannot unmarshal string into Go value of type int64' })
  const response = await load('BeforeClusterUpgrade', 'response')
  t.same(check(gvh, 'response', { ...response, status: 'Pending' }), { valid: false, message: 'status: must be one of "Success", "Failure", got "Pending"' })
  const patches = await load('GeneratePatches', 'response')
  const items = patches['items'] as Array<Record<string, unknown>>
  t.same(check(hooks.find(h => h.hook === 'GeneratePatches')!, 'response', { ...patches, items: [{ ...items[0], patch: 'W3sib3Ai' + '-_' }] }),
    { valid: false, message: 'items[0].patch: illegal base64 data at input byte 8' }, 'URL-safe base64 is rejected like Go rejects it')
})

t.test('unknown fields in embedded objects survive validation byte for byte', async t => {
  for (const gvh of hooks) {
    const raw = await readFile(new URL(`${gvh.hook.toLowerCase()}.request.json`, DIR), 'utf8')
    const body = JSON.parse(raw) as Record<string, unknown>
    for (const [key, value] of Object.entries(body)) {
      if (key === 'settings') continue // an envelope string map, strictly typed
      if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(value, { 'x-future-field': { nested: [1, null, 'x'], deep: { a: true } } })
    }
    const before = JSON.stringify(body)
    t.same(check(gvh, 'request', body), { valid: true }, gvh.hook)
    t.equal(JSON.stringify(body), before, `${gvh.hook} unchanged`)
  }
})
