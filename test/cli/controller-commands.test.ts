// runtime-sdk controller (embedded mode), status, preflight and demo, run as a user runs them.
import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:http'
import { mkdtemp, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { stringify } from 'yaml'
import { runCliHere, startCli } from '../helpers/run-cli.js'
import { createPki, json, startExtension } from '../helpers/test-extension.js'
import { waitFor } from '../helpers/wait.js'

const API = 'hooks.runtime.cluster.x-k8s.io/v1alpha1'

// Every case starts node with the TypeScript loader, several seconds each on a busy machine.
t.setTimeout(180_000)

const exited = (child: ChildProcess) => new Promise<number | null>(resolve => child.once('exit', code => resolve(code)))

t.test('controller --extension-configs serves status; status and preflight read it; SIGTERM stops it', async t => {
  const pki = await createPki()
  const ext = await startExtension(pki.server, {
    [`/${API}/discovery`]: (_r, res) => json(res, { status: 'Success', handlers: [{ name: 'bcc', requestHook: { apiVersion: API, hook: 'BeforeClusterCreate' } }] })
  })
  t.teardown(() => ext.close())
  const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-cli-controller-'))
  await writeFile(join(dir, 'ext.yaml'), stringify({
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: 'ext' }, spec: { clientConfig: { url: ext.url, caBundle: pki.caBundle } }
  }))
  const { child, out } = startCli(['controller', '--extension-configs', dir, '--metrics-port', '0', '--log-level', 'info'])
  t.teardown(() => { child.kill('SIGKILL') })
  // Through the TypeScript loader a CLI process takes 7-10 s to start on 2 cores, twice that under npm test's load.
  const url = await waitFor(() => /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out())?.[1], { timeoutMs: 60_000, message: 'the status URL is logged' })
  await waitFor(() => out().includes('"msg":"ready"'), { timeoutMs: 20_000, message: 'ready is logged' })

  const status = await runCliHere(['status', '--url', url])
  t.equal(status.code, 0, status.stderr)
  t.match(status.stdout, /source: file {2}mode: write {2}leader: true {2}registry ready: true/)
  t.match(status.stdout, /NAME\s+DISCOVERED\s+HANDLERS\s+REGISTERED\s+STATE\s+MESSAGE\next\s+True\s+1\s+1\s+discovered/)
  const asJson = JSON.parse((await runCliHere(['status', '--url', url, '--output', 'json'])).stdout)
  t.equal(asJson.extensionConfigs[0].extensionConfig.status.handlers[0].name, 'bcc.ext')

  const preflight = await runCliHere(['preflight', '--url', url])
  t.equal(preflight.code, 0)
  t.match(preflight.stdout, '1 handlers checked: 0 not in the catalog, 0 deprecated')

  const code = exited(child)
  child.kill('SIGTERM')
  t.equal(await code, 0, 'SIGTERM stops the controller cleanly')
})

t.test('preflight exits 1 listing handlers whose hook version the catalog does not know', async t => {
  const server = createServer((_req, res) => json(res, {
    source: 'kubernetes',
    mode: 'write',
    leader: true,
    registryReady: true,
    extensionConfigs: [{
      name: 'ext',
      extensionConfig: {
        metadata: { name: 'ext' },
        spec: { clientConfig: { url: 'https://x' } },
        status: { handlers: [{ name: 'future.ext', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1beta9', hook: 'BeforeClusterCreate' } }] }
      }
    }]
  }))
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.close() })
  const r = await runCliHere(['preflight', '--url', `http://127.0.0.1:${(server.address() as AddressInfo).port}`])
  t.equal(r.code, 1)
  t.match(r.stdout, /ext\s+future\.ext\s+hooks\.runtime\.cluster\.x-k8s\.io\/v1beta9\/BeforeClusterCreate\s+not in catalog: will stop working/)
  t.match(r.stdout, '1 handlers checked: 1 not in the catalog, 0 deprecated')
})

t.test('bad usage gets a clear error', async t => {
  const missing = await runCliHere(['controller', '--extension-configs', '/nonexistent/runtime-sdk', '--metrics-port', '0'])
  t.equal(missing.code, 1)
  t.match(missing.stderr, 'ExtensionConfig directory /nonexistent/runtime-sdk does not exist or is not a directory')
  const mixed = await runCliHere(['controller', '--extension-configs', '/tmp', '--leader-elect'])
  t.equal(mixed.code, 2)
  t.match(mixed.stderr, '--extension-configs (embedded mode) does not combine with --kubeconfig, --context, --label-selector or --leader-elect')
  const duration = await runCliHere(['controller', '--rediscovery-interval', 'soon'])
  t.not(duration.code, 0)
  t.match(duration.stderr, 'must be a duration such as 30s, 10m or 1h30m')
  const down = await runCliHere(['status', '--url', 'http://127.0.0.1:1'])
  t.equal(down.code, 1)
  t.match(down.stderr, /^error: /)
})

t.test('demo: the reference extension discovered by the embedded controller', async t => {
  const { child, out } = startCli(['demo', '--extension-port', '0', '--metrics-port', '0'])
  t.teardown(() => { child.kill('SIGKILL') })
  await waitFor(() => out().includes('Ctrl-C stops'), { timeoutMs: 30_000, message: 'the demo is up' })
  t.match(out(), /reference-extension\s+True\s+16\s+16\s+discovered/)
  t.match(out(), /before-cluster-create\.reference-extension\s+BeforeClusterCreate\s+10s\s+Fail/)
  const code = exited(child)
  child.kill('SIGINT')
  t.equal(await code, 0)
})
