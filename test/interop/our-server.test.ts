// Cluster API's side of the wire against our server: the CAPI-imitating Go caller sends requests marshalled
// from Cluster API's Go types (and the raw committed fixtures) to the reference extension served by our SDK,
// and decodes every answer strictly into Cluster API's Go response types.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { createCatalog } from '../../src/catalog/index.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { buildCapiInterop, capiFixturesDir, goAvailable, runCapiCaller } from '../../tools/harness/capi-interop.js'
import { start, tlsFixture } from '../helpers/server.js'

t.setTimeout(900_000)
const skip = goAvailable() ? false : 'go is not installed'
const hooks = createCatalog().all().map(h => h.gvh.hook)

async function serve (t: Test, handlers: Parameters<typeof start>[2]['handlers']) {
  const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-interop-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const tls = await tlsFixture(dir)
  const { url } = await start(t, tls, { handlers })
  return { url, caFile: join(dir, 'ca.crt') }
}

t.test('Cluster API decodes every answer of the reference extension', { skip }, async t => {
  await buildCapiInterop()
  const { url, caFile } = await serve(t, referenceHandlers())
  for (const mode of [[], ['--fixtures-dir', capiFixturesDir]]) {
    const result = await runCapiCaller(['--url', url, '--ca-file', caFile, ...mode])
    t.equal(result.code, 0, `caller exit code ${mode.length ? 'with raw fixtures' : 'with Go-marshalled requests'}: ${result.stderr}`)
    t.same(result.calls.filter(c => c.error), [], 'no call failed to decode')
    t.same([...new Set(result.calls.map(c => c.hook))].sort(), [...hooks].sort(), 'every hook was discovered and called')
    for (const call of result.calls) {
      t.equal(call.httpStatus, 200, `${call.hook} answered 200`)
      t.equal(call.status, 'Success', `${call.hook} succeeded`)
    }
    const discovery = result.calls.find(c => c.hook === 'Discovery')
    t.equal(discovery?.handlers?.length, hooks.length - 1, 'one handler per hook besides Discovery')
  }
})

t.test('the check can fail: an answer Cluster API cannot decode is reported', { skip }, async t => {
  await buildCapiInterop()
  const { url, caFile } = await serve(t, [{
    hook: BeforeClusterCreate,
    name: 'extra-field',
    handler: () => ({ status: 'Success', retryAfterSeconds: 0, retryAfter: 5 })
  }])
  const result = await runCapiCaller(['--url', url, '--ca-file', caFile])
  t.equal(result.code, 1)
  t.match(result.calls.find(c => c.handler === 'extra-field')?.error, /unknown field "retryAfter"/)
})
