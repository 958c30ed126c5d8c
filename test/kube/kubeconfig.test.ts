// Reading kubeconfig files: the current context's cluster and user, relative paths, every credential kind.
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { stringify } from 'yaml'
import { loadKubeConnection } from '../../src/kube/kubeconfig.js'

const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-kubeconfig-'))

async function kubeconfig (user: Record<string, unknown>, cluster: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<string> {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}`)
  await writeFile(file, stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'ctx',
    contexts: [{ name: 'other', context: { cluster: 'nope', user: 'nope' } }, { name: 'ctx', context: { cluster: 'c', user: 'u' } }],
    clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443', ...cluster } }],
    users: [{ name: 'u', user }],
    ...extra
  }))
  return file
}

t.test('cluster: server, CA from a path relative to the file or inline, server name, skip verify', async t => {
  await writeFile(join(dir, 'ca.crt'), 'CA FILE')
  const c = loadKubeConnection(await kubeconfig({}, { 'certificate-authority': 'ca.crt', 'tls-server-name': 'kubernetes' }))
  t.equal(c.server, 'https://127.0.0.1:6443')
  t.equal(c.ca?.toString(), 'CA FILE')
  t.equal(c.servername, 'kubernetes')
  t.equal(c.insecureSkipTLSVerify, false)
  const inline = loadKubeConnection(await kubeconfig({}, { 'certificate-authority-data': Buffer.from('CA DATA').toString('base64'), 'insecure-skip-tls-verify': true }))
  t.equal(inline.ca?.toString(), 'CA DATA')
  t.equal(inline.insecureSkipTLSVerify, true)
  t.same(await inline.headers(), {}, 'no credentials, no headers')
})

t.test('users: token, token file (re-read), client certificate, basic auth', async t => {
  t.same(await loadKubeConnection(await kubeconfig({ token: 'abc' })).headers(), { authorization: 'Bearer abc' })
  await writeFile(join(dir, 'token'), 'from-file\n')
  t.same(await loadKubeConnection(await kubeconfig({ tokenFile: 'token' })).headers(), { authorization: 'Bearer from-file' })
  const certs = loadKubeConnection(await kubeconfig({ 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key-data': Buffer.from('KEY').toString('base64') }))
  t.equal(certs.cert?.toString(), 'CERT')
  t.equal(certs.key?.toString(), 'KEY')
  t.same(await loadKubeConnection(await kubeconfig({ username: 'admin', password: 'secret' })).headers(), { authorization: `Basic ${Buffer.from('admin:secret').toString('base64')}` })
})

t.test('users: an exec credential plugin is run and its token reused until it expires', async t => {
  const plugin = join(dir, 'plugin.sh')
  const counter = join(dir, 'calls')
  await writeFile(plugin, `#!/bin/sh\necho x >> ${counter}\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"'"$TOKEN"'"}}'\n`)
  await chmod(plugin, 0o755)
  const c = loadKubeConnection(await kubeconfig({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.sh', env: [{ name: 'TOKEN', value: 'exec-token' }] } }))
  t.same(await c.headers(), { authorization: 'Bearer exec-token' })
  await c.headers()
  t.equal((await readFile(counter, 'utf8')).trim().split('\n').length, 1, 'a token without expiry is reused')
  const empty = join(dir, 'empty.sh')
  await writeFile(empty, '#!/bin/sh\necho \'{"status":{}}\'\n')
  await chmod(empty, 0o755)
  await t.rejects(loadKubeConnection(await kubeconfig({ exec: { command: empty } })).headers(), /returned no token/)
})

t.test('clear errors', async t => {
  const authProvider = await kubeconfig({ 'auth-provider': { name: 'oidc' } })
  t.throws(() => loadKubeConnection(authProvider), /auth-provider "oidc" is not supported; use an exec credential plugin/)
  const noContext = await kubeconfig({}, {}, { 'current-context': 'missing' })
  t.throws(() => loadKubeConnection(noContext), /context "missing" not found/)
  const noServer = await kubeconfig({}, { server: '' })
  t.throws(() => loadKubeConnection(noServer), /cluster "c" not found or has no server/)
  const broken = join(dir, 'broken')
  await writeFile(broken, 'clusters: [')
  t.throws(() => loadKubeConnection(broken), /^kubeconfig .*broken: /)
  t.throws(() => loadKubeConnection(join(dir, 'absent')), /kubeconfig .*absent: ENOENT/)
})

t.test('no path: the first existing KUBECONFIG entry, then ~/.kube/config, then in-cluster', async t => {
  const file = await kubeconfig({ token: 'env' })
  const saved = { KUBECONFIG: process.env['KUBECONFIG'], HOME: process.env['HOME'], KUBERNETES_SERVICE_HOST: process.env['KUBERNETES_SERVICE_HOST'] }
  t.teardown(() => { for (const [k, v] of Object.entries(saved)) { if (v === undefined) delete process.env[k]; else process.env[k] = v } })
  process.env['KUBECONFIG'] = `${join(dir, 'absent')}:${file}`
  t.same(await loadKubeConnection().headers(), { authorization: 'Bearer env' })
  process.env['KUBECONFIG'] = ''
  process.env['HOME'] = dir
  delete process.env['KUBERNETES_SERVICE_HOST']
  t.throws(() => loadKubeConnection(), /no kubeconfig: set --kubeconfig or KUBECONFIG, create ~\/\.kube\/config, or run in a cluster/)
  process.env['KUBERNETES_SERVICE_HOST'] = '10.0.0.1'
  t.throws(() => loadKubeConnection(), /serviceaccount\/ca\.crt/, 'in-cluster reads the service account CA')
})
