// The controller's HTTP endpoint: health, readiness gated by the warm-up, status documents, JSON errors.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { stringify } from 'yaml'
import { Controller } from '../../src/controller/controller.js'
import { FileSource } from '../../src/controller/file-source.js'
import { createControllerHttp } from '../../src/controller/http.js'
import { createPki, json, startExtension } from '../helpers/test-extension.js'
import { waitFor } from '../helpers/wait.js'

const API = 'hooks.runtime.cluster.x-k8s.io/v1alpha1'

t.test('status endpoint', async t => {
  const pki = await createPki()
  let answer: (() => void) | undefined
  const ext = await startExtension(pki.server, {
    [`/${API}/discovery`]: (_r, res) => { answer = () => json(res, { status: 'Success', handlers: [] }) }
  })
  const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-http-'))
  await writeFile(join(dir, 'ext.yaml'), stringify({
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'ext' }, spec: { clientConfig: { url: ext.url, caBundle: pki.caBundle } }
  }))
  await writeFile(join(dir, 'broken.yaml'), 'apiVersion: runtime.cluster.x-k8s.io/v1beta2\nkind: ExtensionConfig\nmetadata: {name: broken}\nspec: {clientConfig: {url: "http://insecure.example.com"}}\n')
  const controller = new Controller({ source: new FileSource({ dir, rescanIntervalMs: 0 }) })
  const app = createControllerHttp({ controller })
  t.teardown(async () => { await app.close(); await controller.stop(); await ext.close() })
  await controller.start()

  const notReady = await app.inject({ url: '/readyz' })
  t.equal(notReady.statusCode, 503, 'not ready while discovery of the only ExtensionConfig is in flight')
  t.same(notReady.json(), { code: 'ServiceUnavailable', message: 'the extension registry is warming up' })
  t.equal((await app.inject({ url: '/healthz' })).statusCode, 200)
  const respond = await waitFor(() => answer, { message: 'discovery is in flight' })
  respond()
  await controller.ready()
  t.equal((await app.inject({ url: '/readyz' })).statusCode, 200)

  const doc = (await app.inject({ url: '/extensionconfigs' })).json()
  t.match(doc, { source: 'file', mode: 'write', leader: true, registryReady: true, extensionConfigs: [{ name: 'ext', outcome: 'discovered', failures: 0 }] })
  t.match(doc.rejected, [{ file: 'broken.yaml', kind: 'ExtensionConfig', name: 'broken', errors: [/'https' is the only allowed URL scheme/] }])
  t.match((await app.inject({ url: '/extensionconfigs/ext' })).json(), { name: 'ext', extensionConfig: { metadata: { name: 'ext' } } })
  t.same((await app.inject({ url: '/extensionconfigs/nope' })).json(), { code: 'NotFound', message: 'extensionconfigs "nope" not found' })
  const post = await app.inject({ method: 'POST', url: '/extensionconfigs' })
  t.equal(post.statusCode, 405)
  t.equal(post.json().code, 'MethodNotAllowed')
  t.equal((await app.inject({ url: '/nope' })).json().code, 'NotFound')
  const metrics = await app.inject({ url: '/metrics' })
  t.match(metrics.body, /runtime_sdk_registry_ready 1/)
  t.match(metrics.body, /controller_runtime_reconcile_total\{controller="extensionconfig",result="requeue_after"\} 1/)
})
