// kubectl's way of finding a cluster, on a real control plane: KUBECONFIG lists two files (the first defines the
// cluster and the contexts, with a broken current-context; the second the user, an exec credential plugin that
// returns the controller's ServiceAccount token, and a cluster of the same name that must lose). `controller`,
// `status` (against the controller's secure endpoint: TokenReview + SubjectAccessReview) and `preflight` all
// work with --context; the plugin runs once per process, its token cached until it expires.
import { spawn } from 'node:child_process'
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { createInterface } from 'node:readline'
import t from 'tap'
import { stringify } from 'yaml'
import { EXIT_OK } from '../../src/cli/command.js'
import type { StatusDocument } from '../../src/controller/http.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createExtensionServer } from '../../src/server/server.js'
import { createCertificateAuthority } from '../../src/tls/certificates.js'
import { conversionWebhookPatch, startControlPlane, UNREACHABLE_CONVERSION_URL } from '../../tools/harness/control-plane.js'
import { runCli } from '../helpers/run-cli.js'
import { waitFor } from '../helpers/wait.js'

const root = join(import.meta.dirname, '..', '..')
const MAIN = join(root, 'src/cli/main.ts')
const cp = await startControlPlane()
t.teardown(() => cp.stop())
const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-e2e-kubeconfig-'))
const kubectl = async (args: string[], input?: string) => {
  const r = await cp.kubectl(args, input !== undefined ? { input } : {})
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}

// Our CRD (its conversion webhook pointed at loopback before any object goes through it) and the controller's rights.
await kubectl(['apply', '--server-side', '-k', join(root, 'deploy/crd')])
await kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/extensionconfigs.runtime.cluster.x-k8s.io'])
await kubectl(['patch', 'crd', 'extensionconfigs.runtime.cluster.x-k8s.io', '--type=merge', '-p', conversionWebhookPatch(UNREACHABLE_CONVERSION_URL)])
await kubectl(['apply', '--server-side', '-k', join(root, 'deploy/rbac')])
await kubectl(['create', 'clusterrolebinding', 'e2e-metrics-reader', '--clusterrole=runtime-sdk-metrics-reader', '--serviceaccount=runtime-sdk-system:runtime-sdk-controller'])
const token = (await kubectl(['create', 'token', 'runtime-sdk-controller', '-n', 'runtime-sdk-system', '--duration=1h'])).trim()

// The exec plugin: counts its runs, answers the token with an expiry an hour ahead.
const runs = join(dir, 'plugin-runs')
await writeFile(runs, '')
const credential = { apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token, expirationTimestamp: new Date(Date.now() + 3_600_000).toISOString() } }
await writeFile(join(dir, 'plugin.sh'), `#!/bin/sh\necho run >> '${runs}'\ncat <<'EOF'\n${JSON.stringify(credential)}\nEOF\n`)
await chmod(join(dir, 'plugin.sh'), 0o755)
const pluginRuns = async () => (await readFile(runs, 'utf8')).split('\n').filter(Boolean).length

const admin = JSON.parse(await readFile(cp.kubeconfigPath, 'utf8')) as { clusters: Array<{ cluster: Record<string, unknown> }> }
const first = join(dir, 'first.yaml')
const second = join(dir, 'second.yaml')
await writeFile(first, stringify({
  apiVersion: 'v1',
  kind: 'Config',
  'current-context': 'broken',
  clusters: [{ name: 'e2e', cluster: admin.clusters[0]?.cluster }],
  contexts: [{ name: 'e2e', context: { cluster: 'e2e', user: 'plugin' } }, { name: 'broken', context: { cluster: 'nowhere', user: 'plugin' } }]
}))
await writeFile(second, stringify({
  apiVersion: 'v1',
  kind: 'Config',
  'current-context': 'e2e',
  clusters: [{ name: 'e2e', cluster: { server: 'https://127.0.0.1:1' } }],
  users: [{ name: 'plugin', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.sh', interactiveMode: 'Never' } } }]
}))
const env = { KUBECONFIG: [first, join(dir, 'missing.yaml'), second].join(delimiter) }

// An extension on loopback for the controller to discover.
const ca = await createCertificateAuthority('e2e CA')
const leaf = await ca.issue({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usage: 'server' })
await writeFile(join(dir, 'tls.crt'), leaf.cert)
await writeFile(join(dir, 'tls.key'), leaf.key)
const extension = createExtensionServer({ handlers: referenceHandlers(), tls: { certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') }, logLevel: 'silent' })
const extensionUrl = await extension.listen({ host: '127.0.0.1', port: 0 })
t.teardown(() => extension.close())
await kubectl(['apply', '-f', '-'], JSON.stringify({
  apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
  kind: 'ExtensionConfig',
  metadata: { name: 'via-exec' },
  spec: { clientConfig: { url: extensionUrl, caBundle: Buffer.from(ca.cert).toString('base64') } }
}))

t.test('the current-context of the first file is broken: without --context the commands say so', async t => {
  const res = await runCli(['preflight'], { env })
  t.equal(res.code, 1)
  t.match(res.stderr, /^error: .*cluster "nowhere"/)
  t.equal(await pluginRuns(), 0, 'no credentials asked for a context that cannot work')
})

t.test('controller, status and preflight with --context and the exec plugin', async t => {
  const child = spawn(process.execPath, [...process.execArgv, MAIN, 'controller', '--context', 'e2e', '--metrics-secure', '--metrics-port', '0', '--log-level', 'info'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe']
  })
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000)
  t.teardown(() => { clearTimeout(killer); child.kill('SIGTERM') })
  const log: string[] = []
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stderr }).on('line', line => {
      log.push(line)
      if (!line.startsWith('{')) return // Node's own warnings
      const entry = JSON.parse(line) as { url?: string }
      if (entry.url) resolve(entry.url)
    })
    child.on('exit', code => reject(new Error(`controller exited ${code}: ${log.join('\n')}`)))
  })
  t.match(url, /^https:\/\/127\.0\.0\.1:\d+$/)

  // The controller reached the API server as the ServiceAccount the plugin vouches for: it wrote status.
  await waitFor(async () => {
    const ec = JSON.parse(await kubectl(['get', 'ext', 'via-exec', '-o', 'json'])) as { status?: { conditions?: Array<{ type: string, status: string }> } }
    return ec.status?.conditions?.some(c => c.type === 'Discovered' && c.status === 'True')
  }, { timeoutMs: 30_000, message: 'discovered by the controller' })
  const managers = JSON.parse(await kubectl(['get', 'ext', 'via-exec', '-o', 'json', '--show-managed-fields'])) as { metadata: { managedFields: Array<{ manager: string, subresource?: string }> } }
  t.ok(managers.metadata.managedFields.some(m => m.subresource === 'status'), 'status written')
  t.equal(await pluginRuns(), 1, 'the controller ran the plugin once and reused its token')

  const status = await runCli(['status', '--url', url, '--context', 'e2e', '--insecure-skip-tls-verify', '-o', 'json'], { env })
  t.equal(status.code, EXIT_OK, status.stderr)
  const doc = JSON.parse(status.stdout) as StatusDocument
  t.match(doc.extensionConfigs.find(r => r.name === 'via-exec'), { name: 'via-exec', outcome: 'discovered' })
  t.equal(await pluginRuns(), 2)

  const forged = join(dir, 'forged.yaml')
  await writeFile(forged, stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'x',
    clusters: [{ name: 'x', cluster: admin.clusters[0]?.cluster }],
    users: [{ name: 'x', user: { token: 'not-a-token' } }],
    contexts: [{ name: 'x', context: { cluster: 'x', user: 'x' } }]
  }))
  const refused = await runCli(['status', '--url', url, '--kubeconfig', forged, '--insecure-skip-tls-verify'])
  t.equal(refused.code, 1)
  t.match(refused.stderr, /^error: https:\/\/127\.0\.0\.1:\d+ answered 401/)

  const preflight = await runCli(['preflight', '--context', 'e2e', '-o', 'json'], { env })
  t.equal(preflight.code, EXIT_OK, preflight.stderr)
  t.match(JSON.parse(preflight.stdout), { crd: { installed: true, owner: 'runtime-sdk', foreign: false }, problems: [] })
  t.equal(await pluginRuns(), 3)
})
