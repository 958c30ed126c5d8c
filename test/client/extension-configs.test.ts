// ExtensionConfigs read from files for the runtime client (e.g. by `runtime-sdk call`) are validated and defaulted
// like the controller's file source and the API server do.
import { join } from 'node:path'
import t from 'tap'
import { stringify } from 'yaml'
import { extensionConfigForUrl, loadExtensionConfig, readExtensionConfigs } from '../../src/client/extension-configs.js'

const ec = (name: string, spec: Record<string, unknown> = { clientConfig: { url: 'https://127.0.0.1:8443' } }) =>
  ({ apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name }, spec })

t.test('an ExtensionConfig without namespaceSelector matches every namespace, as the API server defaults it', async t => {
  const dir = t.testdir({ 'ext.yaml': stringify(ec('plain')) + '---\n' + stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' } }) })
  const [read, ...rest] = await readExtensionConfigs(dir)
  t.same(rest, [], 'other kinds are skipped')
  t.same(read?.spec.namespaceSelector, {})
  t.equal(read?.metadata.name, 'plain')
})

t.test('v1alpha1 is converted to v1beta2', async t => {
  const dir = t.testdir({ 'old.yaml': stringify({ ...ec('old'), apiVersion: 'runtime.cluster.x-k8s.io/v1alpha1' }) })
  const [read] = await readExtensionConfigs(dir)
  t.equal(read?.apiVersion, 'runtime.cluster.x-k8s.io/v1beta2')
})

t.test('an invalid or repeated ExtensionConfig names the file and every problem', async t => {
  const invalid = t.testdir({ 'bad.yaml': stringify(ec('broken', { clientConfig: {} })) })
  await t.rejects(readExtensionConfigs(invalid), {
    name: 'ManifestError',
    file: join(invalid, 'bad.yaml'),
    message: `${join(invalid, 'bad.yaml')}: ExtensionConfig "broken" is invalid: spec.clientConfig: Invalid value: 0: spec.clientConfig in body should have at least 1 properties; spec.clientConfig: Invalid value: either url or service must be defined`
  })
  const repeated = t.testdir({ 'a.yaml': stringify(ec('same')), 'b.yaml': stringify(ec('same')) })
  await t.rejects(readExtensionConfigs(repeated), { message: `${join(repeated, 'b.yaml')}: ExtensionConfig "same" is already defined in ${join(repeated, 'a.yaml')}` })
})

t.test('loadExtensionConfig takes a URL or the first ExtensionConfig of a file, and a CA file', async t => {
  const dir = t.testdir({ 'ext.yaml': stringify(ec('from-file')), 'ca.pem': 'PEM', 'empty.yaml': '' })
  t.same(await loadExtensionConfig('https://ext.example:9443', { name: 'x' }), extensionConfigForUrl('https://ext.example:9443', 'x'))
  const loaded = await loadExtensionConfig(join(dir, 'ext.yaml'), { caFile: join(dir, 'ca.pem') })
  t.equal(loaded.metadata.name, 'from-file')
  t.equal(loaded.spec.clientConfig.caBundle, Buffer.from('PEM').toString('base64'))
  await t.rejects(loadExtensionConfig(join(dir, 'empty.yaml')), { message: `${join(dir, 'empty.yaml')}: no ExtensionConfig found` })
  await t.rejects(loadExtensionConfig(join(dir, 'ext.yaml'), { caFile: join(dir, 'nope.pem') }), { name: 'ManifestError', file: join(dir, 'nope.pem') })
})
