// Reading kubeconfigs as kubectl does: which files, how they merge, the context, relative paths, every credential kind.
import { writeFileSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import t, { type Test } from 'tap'
import { stringify } from 'yaml'
import { type KubeConnection, loadKubeConnection } from '../../src/kube/kubeconfig.js'
import { createCertificateAuthority } from '../../src/tls/certificates.js'

const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-kubeconfig-'))
const V1 = 'client.authentication.k8s.io/v1'
const b64 = (s: string) => Buffer.from(s).toString('base64')
const unique = () => Math.random().toString(36).slice(2)

async function kubeconfig (user: Record<string, unknown>, cluster: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<string> {
  const file = join(dir, `config-${unique()}`)
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

const load = (kubeconfig: string, context?: string) => loadKubeConnection({ kubeconfig, ...(context ? { context } : {}) })
const headers = async (c: KubeConnection) => (await c.credentials()).headers

/** Sets environment variables (undefined: unset) for the rest of the test. */
function setEnv (t: Test, vars: Record<string, string | undefined>): void {
  const saved = Object.fromEntries(Object.keys(vars).map(k => [k, process.env[k]]))
  t.teardown(() => assign(saved))
  assign(vars)
}

function assign (vars: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
}

/** A shell script that counts its runs (a line each in a counter file) before running body. */
async function plugin (body: string): Promise<{ path: string, runs: () => Promise<number> }> {
  const path = join(dir, `plugin-${unique()}.sh`)
  const counter = `${path}.runs`
  await writeFile(path, `#!/bin/sh\necho x >> '${counter}'\n${body}\n`)
  await chmod(path, 0o755)
  return { path, runs: async () => (await readFile(counter, 'utf8').catch(() => '')).split('\n').filter(Boolean).length }
}

const credential = (status: Record<string, unknown>, apiVersion = V1) => JSON.stringify({ apiVersion, kind: 'ExecCredential', status })
const printing = (json: string) => `cat <<'EOF'\n${json}\nEOF`
/** An unsigned JWT with this exp (seconds since the epoch): the API server checks signatures, not us. */
const jwt = (exp: number, sub = 'me') => `${b64url({ alg: 'RS256' })}.${b64url({ exp, sub })}.signature`
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s

t.test('cluster: server, CA from a path relative to the file or inline, server name, skip verify', async t => {
  await writeFile(join(dir, 'ca.crt'), 'CA FILE')
  const c = load(await kubeconfig({}, { 'certificate-authority': 'ca.crt', 'tls-server-name': 'kubernetes' }))
  t.equal(c.server, 'https://127.0.0.1:6443')
  t.equal(c.ca?.toString(), 'CA FILE')
  t.equal(c.servername, 'kubernetes')
  t.equal(c.insecureSkipTLSVerify, false)
  t.equal(c.namespace, undefined, 'no namespace in the context')
  const inline = load(await kubeconfig({}, { 'certificate-authority-data': b64('CA DATA'), 'insecure-skip-tls-verify': true }))
  t.equal(inline.ca?.toString(), 'CA DATA')
  t.equal(inline.insecureSkipTLSVerify, true)
  t.same(await inline.credentials(), { headers: {} }, 'no credentials, no headers')
})

t.test('users: token, token file (re-read), client certificate, basic auth; a token wins over the rest', async t => {
  t.same(await headers(load(await kubeconfig({ token: 'abc', username: 'u', password: 'p', exec: { apiVersion: V1, command: 'never-run' } }))), { authorization: 'Bearer abc' })
  await writeFile(join(dir, 'token'), 'from-file\n')
  const fromFile = load(await kubeconfig({ tokenFile: 'token' }))
  t.same(await headers(fromFile), { authorization: 'Bearer from-file' })
  await writeFile(join(dir, 'token'), 'rotated\n')
  t.same(await headers(fromFile), { authorization: 'Bearer from-file' }, 'read again after a minute, not at once')
  fromFile.invalidate?.(await fromFile.credentials())
  t.same(await headers(fromFile), { authorization: 'Bearer rotated' }, 'read again after a 401')
  const certs = load(await kubeconfig({ 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') }))
  t.equal(certs.cert?.toString(), 'CERT')
  t.equal(certs.key?.toString(), 'KEY')
  t.same(await headers(load(await kubeconfig({ username: 'admin', password: 'secret' }))), { authorization: `Basic ${b64('admin:secret')}` })
  const half = await kubeconfig({ 'client-certificate-data': b64('CERT') })
  t.throws(() => load(half), /user "u" has a client certificate or key without the other/)
  const noCert = await kubeconfig({ 'client-certificate': 'absent.crt', 'client-key': 'absent.key' })
  t.throws(() => load(noCert), /^kubeconfig: client-certificate .*absent\.crt: no such file or directory$/)
})

t.test('merge: KUBECONFIG files in order, missing ones skipped, the first to define a name or current-context wins', async t => {
  const one = join(dir, 'merge-one')
  const two = join(dir, 'merge-two')
  await mkdir(one)
  await mkdir(two)
  await writeFile(join(one, 'ca.crt'), 'CA OF ONE')
  await writeFile(join(two, 'token'), 'token-of-two')
  const a = join(one, 'a.yaml')
  const b = join(two, 'b.yaml')
  const c = join(dir, 'merge-c.yaml')
  await writeFile(a, stringify({
    'current-context': '',
    clusters: [{ name: 'shared', cluster: { server: 'https://one', 'certificate-authority': 'ca.crt' } }],
    users: [{ name: 'alice', user: { token: 'alice-of-one' } }]
  }))
  await writeFile(b, stringify({
    'current-context': 'ctx-b',
    clusters: [{ name: 'shared', cluster: { server: 'https://two' } }],
    users: [{ name: 'alice', user: { token: 'alice-of-two' } }, { name: 'bob', user: { tokenFile: 'token' } }],
    contexts: [{ name: 'ctx-b', context: { cluster: 'shared', user: 'alice', namespace: 'from-two' } }, { name: 'ctx-bob', context: { cluster: 'shared', user: 'bob' } }]
  }))
  await writeFile(c, stringify({
    'current-context': 'ctx-bob',
    contexts: [{ name: 'ctx-b', context: { cluster: 'shared', user: 'alice', namespace: 'from-three' } }]
  }))
  setEnv(t, { KUBECONFIG: [join(dir, 'absent'), a, '', b, a, c].join(delimiter) })
  const merged = loadKubeConnection()
  t.equal(merged.server, 'https://one', 'the first file to define a cluster wins')
  t.equal(merged.ca?.toString(), 'CA OF ONE', "a relative path is relative to its own file's directory")
  t.same(await headers(merged), { authorization: 'Bearer alice-of-one' }, 'the first file to define a user wins')
  t.equal(merged.namespace, 'from-two', 'the first file to define a context wins; the first non-empty current-context too')
  const bob = loadKubeConnection({ context: 'ctx-bob' })
  t.same(await headers(bob), { authorization: 'Bearer token-of-two' }, "bob's tokenFile is relative to the second file")
  t.equal(bob.ca?.toString(), 'CA OF ONE', 'a context of one file may use the cluster of another')

  setEnv(t, { KUBECONFIG: [join(dir, 'absent'), join(dir, 'absent-too')].join(delimiter), HOME: one, KUBERNETES_SERVICE_HOST: undefined })
  t.throws(() => loadKubeConnection(), /^no kubeconfig: set --kubeconfig or KUBECONFIG, create ~\/\.kube\/config, or run in a cluster \(the files in KUBECONFIG do not exist\)$/)

  const broken = join(dir, 'merge-broken')
  await writeFile(broken, 'clusters: [')
  setEnv(t, { KUBECONFIG: [a, broken].join(delimiter) })
  t.throws(() => loadKubeConnection(), /^kubeconfig .*merge-broken: Flow sequence .*at line 1, column 12:$/, 'a file that does not parse is named, on one line')
  await writeFile(broken, 'clusters: {}')
  t.throws(() => loadKubeConnection(), /^kubeconfig .*merge-broken: clusters is not a list$/)
})

t.test('context: --context over current-context, unknown ones listed, references checked, namespace', async t => {
  const file = await kubeconfig({ token: 't' }, {}, {
    contexts: [
      { name: 'ctx', context: { cluster: 'c', user: 'u' } },
      { name: 'dev', context: { cluster: 'c', user: 'u', namespace: 'dev-ns' } },
      { name: 'no-cluster', context: { cluster: 'gone', user: 'u' } },
      { name: 'no-user', context: { cluster: 'c', user: 'gone' } },
      { name: 'anonymous', context: { cluster: 'c' } }
    ]
  })
  t.equal(load(file).namespace, undefined)
  t.equal(load(file, 'dev').namespace, 'dev-ns')
  t.throws(() => load(file, 'prod'), { message: 'kubeconfig: context "prod" not found (contexts: ctx, dev, no-cluster, no-user, anonymous)' })
  t.throws(() => load(file, 'no-cluster'), { message: 'kubeconfig: context "no-cluster" refers to cluster "gone", which is not defined' })
  t.throws(() => load(file, 'no-user'), { message: 'kubeconfig: context "no-user" refers to user "gone", which is not defined' })
  t.same(await headers(load(file, 'anonymous')), {}, 'a context without a user has no credentials')
  const noCurrent = await kubeconfig({}, {}, { 'current-context': '' })
  t.throws(() => load(noCurrent), { message: 'kubeconfig: no current-context; choose a context (contexts: other, ctx)' })
  const noServer = await kubeconfig({}, { server: '' })
  t.throws(() => load(noServer), { message: 'kubeconfig: cluster "c" has no server' })
})

t.test('exec plugin: run with its env, the token reused until it expires, one run for concurrent requests', async t => {
  const { path, runs } = await plugin(`echo '{"apiVersion":"${V1}","kind":"ExecCredential","status":{"token":"'"$TOKEN"'"}}'`)
  await writeFile(join(dir, 'relative.sh'), await readFile(path))
  await chmod(join(dir, 'relative.sh'), 0o755)
  const forever = load(await kubeconfig({ exec: { apiVersion: V1, command: path, env: [{ name: 'TOKEN', value: 'exec-token' }] } }))
  t.same(await Promise.all([headers(forever), headers(forever)]), [{ authorization: 'Bearer exec-token' }, { authorization: 'Bearer exec-token' }])
  await headers(forever)
  t.equal(await runs(), 1, 'a token without expiry is reused; concurrent requests wait for one run')
  forever.invalidate?.(await forever.credentials())
  await headers(forever)
  t.equal(await runs(), 2, 'a 401 drops it')

  const expiring = await plugin(printing(credential({ token: 'short', expirationTimestamp: new Date(Date.now() + 5_000).toISOString() })))
  const short = load(await kubeconfig({ exec: { apiVersion: V1, command: expiring.path } }))
  t.same(await headers(short), { authorization: 'Bearer short' })
  await headers(short)
  t.equal(await expiring.runs(), 2, 'a token expiring within the safety margin is fetched again')
  const lasting = await plugin(printing(credential({ token: 'long', expirationTimestamp: new Date(Date.now() + 3_600_000).toISOString() })))
  const long = load(await kubeconfig({ exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: lasting.path } }))
  await t.rejects(long.credentials(), /printed apiVersion "client.authentication.k8s.io\/v1" kind "ExecCredential", expected an ExecCredential of client.authentication.k8s.io\/v1beta1/)
  const v1 = load(await kubeconfig({ exec: { apiVersion: V1, command: lasting.path } }))
  await headers(v1)
  await headers(v1)
  t.equal(await lasting.runs(), 2, 'one run for the wrong apiVersion, one for two requests before expiry')

  const relative = load(await kubeconfig({ exec: { apiVersion: V1, command: './relative.sh', env: [{ name: 'TOKEN', value: 'rel' }] } }))
  t.same(await headers(relative), { authorization: 'Bearer rel' }, 'a command with a slash is relative to the kubeconfig')
})

t.test('exec plugin: a client certificate instead of a token', async t => {
  const { path } = await plugin(printing(credential({ clientCertificateData: 'CERT PEM', clientKeyData: 'KEY PEM' })))
  const c = load(await kubeconfig({ exec: { apiVersion: V1, command: path } }))
  t.same(await c.credentials(), { headers: {}, cert: 'CERT PEM', key: 'KEY PEM' })
  t.equal(c.cert, undefined, 'not a static certificate')
  const half = await plugin(printing(credential({ clientCertificateData: 'CERT PEM' })))
  await t.rejects(load(await kubeconfig({ exec: { apiVersion: V1, command: half.path } })).credentials(), /returned a client certificate without its key/)
})

t.test('exec plugin: KUBERNETES_EXEC_INFO, with the cluster when provideClusterInfo is set', async t => {
  const info = join(dir, `exec-info-${unique()}`)
  const { path } = await plugin(`printf '%s' "$KUBERNETES_EXEC_INFO" > '${info}'\n${printing(credential({ token: 't' }, 'client.authentication.k8s.io/v1beta1'))}`)
  await writeFile(join(dir, 'exec-ca.crt'), 'CA FOR PLUGIN')
  const cluster = {
    'certificate-authority': 'exec-ca.crt',
    'tls-server-name': 'kubernetes',
    'insecure-skip-tls-verify': true,
    extensions: [{ name: 'client.authentication.k8s.io/exec', extension: { audience: 'me' } }, { name: 'other', extension: {} }]
  }
  const exec = { apiVersion: 'client.authentication.k8s.io/v1beta1', command: path, provideClusterInfo: true }
  await load(await kubeconfig({ exec }, cluster)).credentials()
  t.same(JSON.parse(await readFile(info, 'utf8')), {
    apiVersion: 'client.authentication.k8s.io/v1beta1',
    kind: 'ExecCredential',
    spec: {
      interactive: false,
      cluster: {
        server: 'https://127.0.0.1:6443',
        'certificate-authority-data': b64('CA FOR PLUGIN'),
        'tls-server-name': 'kubernetes',
        'insecure-skip-tls-verify': true,
        config: { audience: 'me' }
      }
    }
  })
  await load(await kubeconfig({ exec: { ...exec, provideClusterInfo: false } }, cluster)).credentials()
  t.same(JSON.parse(await readFile(info, 'utf8')), { apiVersion: 'client.authentication.k8s.io/v1beta1', kind: 'ExecCredential', spec: { interactive: false } })
})

t.test('exec plugin: one-line errors', async t => {
  const fails = async (exec: Record<string, unknown>) => load(await kubeconfig({ exec: { apiVersion: V1, ...exec } })).credentials()
  await t.rejects(fails({ command: 'runtime-sdk-no-such-plugin', installHint: 'Install it:\n  brew install runtime-sdk-no-such-plugin\n' }),
    { message: 'exec plugin runtime-sdk-no-such-plugin: executable not found; Install it: brew install runtime-sdk-no-such-plugin' })
  await t.rejects(fails({ command: 'runtime-sdk-no-such-plugin' }), { message: 'exec plugin runtime-sdk-no-such-plugin: executable not found' })
  const exit = await plugin('echo "error: you must be logged in" >&2\necho "run login first" >&2\necho "third" >&2\necho "fourth" >&2\nexit 3')
  await t.rejects(fails({ command: exit.path }), { message: `exec plugin ${exit.path}: failed with exit code 3: error: you must be logged in run login first third` })
  const garbage = await plugin('echo "not json"')
  await t.rejects(fails({ command: garbage.path }), { message: `exec plugin ${garbage.path}: printed invalid JSON: "not json"` })
  const empty = await plugin(printing(credential({})))
  await t.rejects(fails({ command: empty.path }), /returned no token and no client certificate/)
  const badTime = await plugin(printing(credential({ token: 'x', expirationTimestamp: 'soon' })))
  await t.rejects(fails({ command: badTime.path }), /returned an invalid expirationTimestamp "soon"/)
  t.throws(() => load(kubeconfigNow({ exec: { command: 'p' } })), { message: 'exec plugin p: apiVersion "" is not one of client.authentication.k8s.io/v1, client.authentication.k8s.io/v1beta1' })
  t.throws(() => load(kubeconfigNow({ exec: { apiVersion: V1, command: 'p', interactiveMode: 'Always' } })), /interactiveMode Always needs a terminal/)
})

t.test('auth-provider oidc: the id-token while valid, then refreshed at the issuer (HTTPS, its own CA)', async t => {
  const valid = jwt(inSeconds(3600))
  t.same(await headers(load(await kubeconfig({ 'auth-provider': { name: 'oidc', config: { 'id-token': valid } } }))), { authorization: `Bearer ${valid}` })

  const ca = await createCertificateAuthority('issuer CA')
  const serving = await ca.issue({ commonName: 'localhost', ipAddresses: ['127.0.0.1'] })
  const forms: URLSearchParams[] = []
  let next = 0
  const issuer = https.createServer(serving, (req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => { body += c.toString() })
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      if (req.url === '/realm/.well-known/openid-configuration') return res.end(JSON.stringify({ issuer: url, token_endpoint: `${url}/token` }))
      if (req.url === '/realm/token' && req.method === 'POST') {
        forms.push(new URLSearchParams(body))
        next++
        // The first refreshed id-token expires within the margin: the next request refreshes again, with the rotated refresh-token.
        return res.end(JSON.stringify({ id_token: jwt(inSeconds(next === 1 ? 5 : 3600), `refreshed-${next}`), refresh_token: `refresh-${next + 1}` }))
      }
      res.statusCode = 404
      res.end('{}')
    })
  })
  await new Promise<void>(resolve => issuer.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise(resolve => issuer.close(resolve)))
  const url = `https://127.0.0.1:${(issuer.address() as AddressInfo).port}/realm`
  const config = { 'id-token': jwt(inSeconds(5)), 'refresh-token': 'refresh-1', 'idp-issuer-url': `${url}/`, 'client-id': 'kubectl', 'client-secret': 's3cret', 'idp-certificate-authority-data': b64(ca.cert) }
  const file = await kubeconfig({ 'auth-provider': { name: 'oidc', config } })
  const written = await readFile(file, 'utf8')
  const c = load(file)
  const subject = async () => JSON.parse(Buffer.from(((await headers(c))['authorization'] ?? '').split('.')[1] ?? '', 'base64url').toString()).sub
  t.equal(await subject(), 'refreshed-1', 'an id-token expiring within 10 s is refreshed')
  t.same(Object.fromEntries(forms[0] ?? []), { grant_type: 'refresh_token', refresh_token: 'refresh-1', client_id: 'kubectl', client_secret: 's3cret' })
  t.equal(await subject(), 'refreshed-2', 'refreshed again when that one is about to expire')
  t.equal(await subject(), 'refreshed-2', 'a valid one is kept')
  c.invalidate?.(await c.credentials())
  t.equal(await subject(), 'refreshed-2', 'a 401 does not refresh a valid id-token (as in client-go)')
  t.same(forms.map(f => f.get('refresh_token')), ['refresh-1', 'refresh-2'], 'a rotated refresh-token is used for the next refresh')
  t.equal(await readFile(file, 'utf8'), written, 'the kubeconfig is not written')

  const expiredOnly = load(await kubeconfig({ 'auth-provider': { name: 'oidc', config: { 'id-token': jwt(inSeconds(-60)) } } }))
  await t.rejects(expiredOnly.credentials(), { message: 'oidc: the id-token is expired and refreshing it needs refresh-token, idp-issuer-url and client-id; log in again' })
  await t.rejects(load(await kubeconfig({ 'auth-provider': { name: 'oidc', config: { 'id-token': 'opaque' } } })).credentials(), { message: 'oidc: the id-token is not a JWT' })
  const untrusted = load(await kubeconfig({ 'auth-provider': { name: 'oidc', config: { ...config, 'idp-certificate-authority-data': undefined } } }))
  await t.rejects(untrusted.credentials(), /^oidc: https:\/\/127\.0\.0\.1:\d+\/realm\/\.well-known\/openid-configuration: /, 'without the CA the issuer is not trusted')
  const noDiscovery = load(await kubeconfig({ 'auth-provider': { name: 'oidc', config: { ...config, 'idp-issuer-url': `${url}/nowhere` } } }))
  await t.rejects(noDiscovery.credentials(), /^oidc: https:.*\/nowhere\/\.well-known\/openid-configuration answered 404: \{\}$/)
})

t.test('auth-provider: client-go\'s messages for the removed gcp and azure providers, others unsupported', async t => {
  const provider = async (name: string) => kubeconfig({ 'auth-provider': { name, config: {} } })
  t.throws(() => load(kubeconfigNow({ 'auth-provider': { name: 'gcp' } })), {
    message: 'The gcp auth plugin has been removed. Please use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead. See https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke for further details'
  })
  const azure = await provider('azure')
  t.throws(() => load(azure), /^The azure auth plugin has been removed\. Please use the https:\/\/github\.com\/Azure\/kubelogin kubectl\/client-go credential plugin instead\. See .* for further details$/)
  const other = await provider('openstack')
  t.throws(() => load(other), { message: 'auth-provider "openstack" is not supported; use an exec credential plugin' })
})

t.test('which files: --kubeconfig alone, KUBECONFIG, ~/.kube/config, in-cluster unless a context is asked for', async t => {
  const home = join(dir, 'home')
  await mkdir(join(home, '.kube'), { recursive: true })
  const explicit = await kubeconfig({ token: 'explicit' })
  const fromEnv = await kubeconfig({ token: 'env' })
  setEnv(t, { KUBECONFIG: fromEnv, HOME: home, KUBERNETES_SERVICE_HOST: undefined })
  t.same(await headers(loadKubeConnection({ kubeconfig: explicit })), { authorization: 'Bearer explicit' }, '--kubeconfig over KUBECONFIG')
  t.throws(() => loadKubeConnection({ kubeconfig: join(dir, 'absent') }), { message: `kubeconfig ${join(dir, 'absent')}: no such file` })
  t.same(await headers(loadKubeConnection()), { authorization: 'Bearer env' })

  setEnv(t, { KUBECONFIG: '' })
  t.throws(() => loadKubeConnection(), { message: 'no kubeconfig: set --kubeconfig or KUBECONFIG, create ~/.kube/config, or run in a cluster' })
  await writeFile(join(home, '.kube', 'config'), await readFile(await kubeconfig({ token: 'home' })))
  t.same(await headers(loadKubeConnection()), { authorization: 'Bearer home' }, '~/.kube/config without KUBECONFIG')
  setEnv(t, { KUBECONFIG: join(dir, 'absent') })
  t.throws(() => loadKubeConnection(), /the files in KUBECONFIG do not exist/, 'a set KUBECONFIG replaces ~/.kube/config, as in client-go')

  setEnv(t, { KUBECONFIG: '', HOME: dir, KUBERNETES_SERVICE_HOST: '10.0.0.1' })
  t.throws(() => loadKubeConnection(), /^in-cluster service account: \/var\/run\/secrets\/kubernetes\.io\/serviceaccount\/ca\.crt: /, 'in-cluster reads the service account CA')
  t.throws(() => loadKubeConnection({ context: 'prod' }), { message: 'no kubeconfig for context "prod": set --kubeconfig or KUBECONFIG, or create ~/.kube/config' }, 'not in-cluster for a named context')
})

/** A kubeconfig written synchronously, for t.throws on configuration errors. */
function kubeconfigNow (user: Record<string, unknown>): string {
  const file = join(dir, `now-${unique()}`)
  writeFileSync(file, stringify({ 'current-context': 'ctx', contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }], clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443' } }], users: [{ name: 'u', user }] }))
  return file
}
