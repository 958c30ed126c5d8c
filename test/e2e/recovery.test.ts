// The controller through control-plane trouble, on a real kube-apiserver: a 30 s outage while ExtensionConfigs change
// through a second API server on the same etcd (converged within 5 s of the first being back, /readyz saying the
// cache is stale meanwhile), and a leader stopped with SIGTERM handing over within the retry period.
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import type { ExtensionConfig } from '../../src/api/extension-config/types.js'
import { runController } from '../../src/controller/run.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createExtensionServer } from '../../src/server/server.js'
import { createCertificateAuthority } from '../../src/tls/certificates.js'
import { startCli } from '../helpers/run-cli.js'
import { waitFor } from '../helpers/wait.js'
import { conversionWebhookPatch, startControlPlane, UNREACHABLE_CONVERSION_URL } from '../../tools/harness/control-plane.js'

t.setTimeout(300_000)
const root = join(import.meta.dirname, '..', '..')
const cp = await startControlPlane()
t.teardown(() => cp.stop())

const kubectl = async (args: string[], input?: string) => {
  const r = await cp.kubectl(args, input !== undefined ? { input } : {})
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`)
  return r.stdout
}
const getEC = async (name: string): Promise<ExtensionConfig | undefined> => {
  const r = await cp.kubectl(['get', 'ext', name, '-o', 'json'])
  return r.code === 0 ? JSON.parse(r.stdout) as ExtensionConfig : undefined
}
const discovered = (ec: ExtensionConfig | undefined) => ec?.status?.conditions?.find(c => c.type === 'Discovered')?.status === 'True'

await kubectl(['apply', '-k', join(root, 'deploy/crd')])
await kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/extensionconfigs.runtime.cluster.x-k8s.io'])
await kubectl(['patch', 'crd', 'extensionconfigs.runtime.cluster.x-k8s.io', '--type=merge', '-p', conversionWebhookPatch(UNREACHABLE_CONVERSION_URL)])
await kubectl(['create', 'namespace', 'runtime-sdk-system'])

const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-e2e-recovery-'))
const ca = await createCertificateAuthority('e2e CA')
const leaf = await ca.issue({ commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], usage: 'server' })
await writeFile(join(dir, 'tls.crt'), leaf.cert)
await writeFile(join(dir, 'tls.key'), leaf.key)
const caBundle = Buffer.from(ca.cert).toString('base64')
const extension = createExtensionServer({ handlers: referenceHandlers(), tls: { certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') }, logLevel: 'silent' })
const extensionUrl = await extension.listen({ host: '127.0.0.1', port: 0 })
t.teardown(() => extension.close())

const extensionConfig = (name: string, settings?: Record<string, string>) => JSON.stringify({
  apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
  kind: 'ExtensionConfig',
  metadata: { name },
  spec: { clientConfig: { url: extensionUrl, caBundle }, ...(settings ? { settings } : {}) }
})

t.test('a 30 s API server outage: the cache is reported stale, and converges within 5 s of the server being back', async t => {
  const running = await runController({ kubeconfig: cp.kubeconfigPath, http: { host: '127.0.0.1', port: 0 } })
  t.teardown(() => running.stop())
  const { controller } = running
  const readyz = async () => { const res = await fetch(`${running.httpUrl}/readyz`); return { code: res.status, body: await res.text() } }
  for (const name of ['kept', 'changed', 'removed']) await kubectl(['apply', '-f', '-'], extensionConfig(name))
  await waitFor(async () => (await Promise.all(['kept', 'changed', 'removed'].map(name => getEC(name)))).every(discovered), { timeoutMs: 30_000, message: 'all discovered' })
  t.equal((await readyz()).code, 200, 'ready before the outage')

  const second = await cp.startSecondApiServer()
  t.teardown(() => second.stop())
  await cp.stopApiServer({ crash: true })
  const down = Date.now()
  // Changes the controller cannot see: made through the other API server.
  await kubectl([`--server=${second.server}`, 'apply', '-f', '-'], extensionConfig('created'))
  await kubectl([`--server=${second.server}`, 'apply', '-f', '-'], extensionConfig('changed', { mode: 'after-outage' }))
  await kubectl([`--server=${second.server}`, 'delete', 'ext', 'removed'])
  const stale = await waitFor(async () => { const r = await readyz(); return r.code === 503 && r }, { timeoutMs: 10_000, message: '/readyz reports the stale cache' })
  t.match(JSON.parse(stale.body), { code: 'ServiceUnavailable', message: /^the ExtensionConfig cache is stale: watching has failed since \S+Z \(.+\)$/ })
  const staleSeconds = () => fetch(`${running.httpUrl}/metrics`).then(async res => Number(/^runtime_sdk_cache_stale_seconds (\S+)$/m.exec(await res.text())?.[1]))
  t.ok(await staleSeconds() > 0, 'and the metric counts it')
  await new Promise(resolve => setTimeout(resolve, Math.max(0, 30_000 - (Date.now() - down))))

  await cp.startApiServer()
  const back = Date.now()
  const registered = (name: string) => controller.client.registry.all().some(r => r.extensionConfigName === name)
  await waitFor(async () =>
    registered('created') && !registered('removed') && registered('kept') &&
    controller.client.registry.all().find(r => r.extensionConfigName === 'changed')?.settings['mode'] === 'after-outage' &&
    discovered(await getEC('created')),
  { timeoutMs: 30_000, intervalMs: 50, message: 'converged after the outage' })
  const convergedMs = Date.now() - back
  t.ok(convergedMs <= 5000, `converged ${convergedMs} ms after the API server was ready again`)
  await waitFor(async () => (await readyz()).code === 200, { timeoutMs: 5000, message: 'ready again' })
  t.equal(await staleSeconds(), 0, 'the metric is back to 0')
})

t.test('SIGTERM on the leader: a standby leads within the retry period (2 s) + 1 s', async t => {
  const replicas: Array<{ child: ChildProcess, out: () => string, url?: string }> = []
  for (let i = 0; i < 2; i++) {
    const replica = startCli(['controller', '--kubeconfig', cp.kubeconfigPath, '--leader-elect', '--leader-election-id', 'e2e-sigterm', '--metrics-port', '0', '--log-level', 'info'])
    const kill = setTimeout(() => replica.child.kill('SIGKILL'), 240_000)
    t.teardown(() => { clearTimeout(kill); replica.child.kill('SIGKILL') })
    replicas.push(replica)
  }
  for (const r of replicas) r.url = await waitFor(() => /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(r.out())?.[1], { timeoutMs: 60_000, message: 'status URL logged' })
  const leads = async (r: { url?: string }) => (await (await fetch(`${r.url}/extensionconfigs`)).json() as { leader: boolean }).leader
  const leader = await waitFor(async () => { for (const r of replicas) if (await leads(r)) return r }, { timeoutMs: 30_000, message: 'a leader' })
  const standby = replicas.find(r => r !== leader)!
  t.notOk(await leads(standby), 'exactly one leader')

  const exited = new Promise<number | null>(resolve => leader.child.once('exit', code => resolve(code)))
  const stopped = Date.now()
  leader.child.kill('SIGTERM')
  await waitFor(() => leads(standby), { timeoutMs: 20_000, intervalMs: 20, message: 'the standby leads' })
  const handOverMs = Date.now() - stopped
  t.ok(handOverMs <= 3000, `the standby led ${handOverMs} ms after SIGTERM`)
  t.equal(await exited, 0, 'the old leader exited cleanly')
  t.match(JSON.parse(await kubectl(['get', 'lease', '-n', 'runtime-sdk-system', 'e2e-sigterm', '-o', 'json'])).spec, { leaseTransitions: 1 }, 'taken over once')
})
