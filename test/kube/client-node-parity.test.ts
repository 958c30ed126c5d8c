// Our kubeconfig reader (src/kube, written by hand for the controller's memory) against @kubernetes/client-node on
// the same kubeconfigs: the server, the TLS settings and the credentials of a request must be the same. client-go's
// behaviour where client-node departs from it (tokenFile, which client-node reads as `token-file`; KUBECONFIG merging)
// is held to client-go in kubeconfig.test.ts instead.
import { KubeConfig } from '@kubernetes/client-node'
import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import type { RequestOptions } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { stringify } from 'yaml'
import { loadKubeConnection } from '../../src/kube/kubeconfig.js'
import { createCertificateAuthority } from '../../src/tls/certificates.js'

const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-parity-'))
const b64 = (s: string) => Buffer.from(s).toString('base64')
const ca = await createCertificateAuthority('parity CA')
const client = await ca.issue({ commonName: 'parity-user', usage: 'client' })
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const idToken = `${b64url({ alg: 'RS256' })}.${b64url({ exp: Math.floor(Date.now() / 1000) + 3600, sub: 'me' })}.signature`

await mkdir(join(dir, 'pki'))
await writeFile(join(dir, 'pki/ca.crt'), ca.cert)
await writeFile(join(dir, 'pki/user.crt'), client.cert)
await writeFile(join(dir, 'pki/user.key'), client.key)

async function script (name: string, status: Record<string, unknown>): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, `#!/bin/sh\ncat <<'EOF'\n${JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status })}\nEOF\n`)
  await chmod(path, 0o755)
  return path
}
const execToken = await script('token-plugin.sh', { token: 'from-exec' })
const execCert = await script('cert-plugin.sh', { clientCertificateData: client.cert, clientKeyData: client.key })
const exec = (command: string) => ({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command, interactiveMode: 'Never' } })

interface Case { name: string, cluster: Record<string, unknown>, user: Record<string, unknown>, context?: string, namespace?: string }
const CASES: Case[] = [
  { name: 'a token, the CA inline', cluster: { 'certificate-authority-data': b64(ca.cert) }, user: { token: 'abc' } },
  { name: 'a client certificate inline', cluster: { 'certificate-authority-data': b64(ca.cert) }, user: { 'client-certificate-data': b64(client.cert), 'client-key-data': b64(client.key) } },
  { name: 'the CA and client certificate from paths relative to the file', cluster: { 'certificate-authority': 'pki/ca.crt' }, user: { 'client-certificate': 'pki/user.crt', 'client-key': 'pki/user.key' } },
  { name: 'basic auth', cluster: {}, user: { username: 'admin', password: 's3:cret' } },
  { name: 'skip verify and a TLS server name', cluster: { 'insecure-skip-tls-verify': true, 'tls-server-name': 'kubernetes.default' }, user: { token: 'abc' } },
  { name: 'an exec plugin\'s token', cluster: { 'certificate-authority-data': b64(ca.cert) }, user: exec(execToken) },
  { name: 'an exec plugin\'s client certificate', cluster: { 'certificate-authority-data': b64(ca.cert) }, user: exec(execCert) },
  { name: 'the oidc auth provider with a valid id-token', cluster: {}, user: { 'auth-provider': { name: 'oidc', config: { 'id-token': idToken, 'client-id': 'k', 'idp-issuer-url': 'https://127.0.0.1:1' } } } },
  { name: 'a context other than current-context, with its namespace', cluster: { 'certificate-authority-data': b64(ca.cert) }, user: { token: 'abc' }, context: 'other', namespace: 'team-a' }
]

let n = 0
async function kubeconfigFor (c: Case): Promise<string> {
  const file = join(dir, `config-${n++}`)
  await writeFile(file, stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'main',
    clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443', ...c.cluster } }, { name: 'o', cluster: { server: 'https://127.0.0.1:7443', ...c.cluster } }],
    users: [{ name: 'u', user: c.user }],
    contexts: [{ name: 'main', context: { cluster: 'c', user: 'u' } }, { name: 'other', context: { cluster: 'o', user: 'u', ...(c.namespace ? { namespace: c.namespace } : {}) } }]
  }))
  return file
}

interface Request { server?: string, ca?: string, cert?: string, key?: string, authorization?: string, rejectUnauthorized?: boolean, servername?: string, namespace?: string }
const text = (b: unknown) => b === undefined || b === null ? undefined : String(b)
const defined = (r: Request): Request => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as Request

async function theirs (file: string, context?: string): Promise<Request> {
  const kc = new KubeConfig()
  kc.loadFromFile(file)
  if (context) kc.setCurrentContext(context)
  const opts: RequestOptions = {}
  await kc.applyToHTTPSOptions(opts)
  const headers = (opts.headers ?? {}) as Record<string, string>
  return defined({
    server: kc.getCurrentCluster()?.server,
    ca: text(opts.ca),
    cert: text(opts.cert),
    key: text(opts.key),
    // client-node puts basic auth in Node's `auth` option, which Node sends as this header.
    authorization: headers['Authorization'] ?? (opts.auth ? `Basic ${b64(opts.auth)}` : undefined),
    rejectUnauthorized: opts.rejectUnauthorized,
    servername: opts.servername,
    namespace: kc.getContextObject(kc.getCurrentContext())?.namespace
  })
}

async function ours (file: string, context?: string): Promise<Request> {
  const connection = loadKubeConnection({ kubeconfig: file, ...(context ? { context } : {}) })
  const credentials = await connection.credentials()
  return defined({
    server: connection.server,
    ca: text(connection.ca),
    cert: credentials.cert ?? text(connection.cert),
    key: credentials.key ?? text(connection.key),
    authorization: credentials.headers['authorization'],
    rejectUnauthorized: connection.insecureSkipTLSVerify ? false : undefined,
    servername: connection.servername,
    namespace: connection.namespace
  })
}

for (const c of CASES) {
  t.test(c.name, async t => {
    const file = await kubeconfigFor(c)
    const expected = await theirs(file, c.context)
    t.ok(expected.authorization ?? expected.cert, 'client-node found credentials')
    t.same(await ours(file, c.context), expected, 'the same server, TLS settings and credentials as client-node')
  })
}
