// Requests of a run: the samples or the user's files, with the ExtensionConfig's settings under the request's own.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { createCatalog, HOOKS_GROUP } from '../../src/catalog/index.js'
import { loadRequestDir, RequestFileError, requestFileNames } from '../../src/conformance/index.js'
import { requestFor } from '../../src/conformance/requests.js'
import { sampleRequest } from '../../src/api/hooks/v1alpha1/index.js'

const catalog = createCatalog()
const hook = (name: string) => catalog.latest(HOOKS_GROUP, name)

t.test('file names: CamelCase, lowercase, and the fixtures\' <hook>.request.json', async t => {
  t.same(requestFileNames('BeforeClusterCreate'), ['BeforeClusterCreate.json', 'beforeclustercreate.json', 'BeforeClusterCreate.request.json', 'beforeclustercreate.request.json'])
})

t.test('a request directory replaces samples of the hooks it has files for', async t => {
  const dir = t.testdir({
    'BeforeClusterCreate.json': JSON.stringify({ cluster: { metadata: { name: 'mine' } } }),
    'generatepatches.json': JSON.stringify({ items: [] }),
    'discovervariables.request.json': JSON.stringify({ kind: 'DiscoverVariablesRequest', settings: { a: 'b' } }),
    'notes.txt': 'ignored',
    'unknownhook.json': '{}'
  })
  const loaded = await loadRequestDir(dir, catalog)
  t.same(Object.keys(loaded).sort(), ['BeforeClusterCreate', 'DiscoverVariables', 'GeneratePatches'])
  t.same(loaded['BeforeClusterCreate'], { cluster: { metadata: { name: 'mine' } } })
})

t.test('the committed Go fixtures work as a request directory', async t => {
  const loaded = await loadRequestDir(new URL('../fixtures/v1alpha1/', import.meta.url).pathname, catalog)
  t.equal(Object.keys(loaded).length, 17)
})

t.test('unreadable directories and invalid files are usage errors naming the file', async t => {
  const dir = t.testdir()
  await t.rejects(loadRequestDir(join(dir, 'missing'), catalog), { name: 'RequestFileError', message: /^--request-dir .*missing: ENOENT/ })
  const cases: Array<[string, string, RegExp]> = [
    ['BeforeClusterDelete.json', '{"cluster":', /BeforeClusterDelete\.json: /],
    ['BeforeClusterDelete.json', '[1]', /BeforeClusterDelete\.json: must hold a JSON object$/],
    ['BeforeClusterDelete.json', '{"cluster": 5}', /BeforeClusterDelete\.json: not a valid BeforeClusterDeleteRequest: cluster: json: cannot unmarshal number into Go value of type v1beta2\.Cluster$/]
  ]
  for (const [name, text, message] of cases) {
    const sub = join(dir, String(Math.random()).slice(2))
    await mkdir(sub)
    await writeFile(join(sub, name), text)
    const err = await loadRequestDir(sub, catalog).catch((e: unknown) => e)
    t.ok(err instanceof RequestFileError)
    t.match((err as Error).message, message)
  }
})

t.test('requests carry the handler version\'s kind and apiVersion and merged settings', async t => {
  const bcc = hook('BeforeClusterCreate')
  t.same(requestFor(bcc, {}, undefined), sampleRequest('BeforeClusterCreate'), 'the sample as is')
  const overridden = requestFor(bcc, { BeforeClusterCreate: { kind: 'Wrong', cluster: { metadata: { name: 'x' } }, settings: { mine: '1', shared: 'request' } } }, { shared: 'config', extensionConfigName: 'ext' })
  t.same(overridden, {
    kind: 'BeforeClusterCreateRequest',
    apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1',
    settings: { shared: 'request', extensionConfigName: 'ext', mine: '1' },
    cluster: { metadata: { name: 'x' } }
  })
  t.notOk('settings' in (requestFor(bcc, {}, {}) as object), 'no settings at all when there are none')
})
