// Settings often carry tokens: a canary value passed as a setting must not appear on any endpoint of the controller,
// in `runtime-sdk status` in any output format, in a condition, or in a log line of the controller or the extension.
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { stringify } from 'yaml'
import { runCliHere, startCli } from '../helpers/run-cli.js'
import { API, call } from '../helpers/server.js'
import { waitFor } from '../helpers/wait.js'

const CANARY = 'canary-7f3a9c-do-not-show'

t.setTimeout(180_000)
const stopped = (child: ChildProcess) => new Promise<void>(resolve => { child.once('exit', () => resolve()); child.kill('SIGTERM') })

t.test('no settings value on the status endpoint, in status output, conditions or logs', async t => {
  const dir = t.testdir({ configs: {} })
  const certDir = join(dir, 'certs')
  const serve = startCli(['serve', '--port', '0', '--cert-dir', certDir, '--log-level', 'debug'])
  t.teardown(() => { serve.child.kill('SIGKILL') })
  const extensionUrl = await waitFor(() => /serving the reference extension at (https:\/\/127\.0\.0\.1:\d+)/.exec(serve.out())?.[1], { timeoutMs: 30_000, message: 'serve prints its URL' })
  const ca = readFileSync(join(certDir, 'ca.crt'), 'utf8')

  const extensionConfig = (name: string, url: string) => ({
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ spec: { settings: { token: CANARY } } }) } },
    spec: { clientConfig: { url, caBundle: Buffer.from(ca).toString('base64') }, settings: { token: CANARY, requiredVariables: CANARY } }
  })
  await writeFile(join(dir, 'configs', 'ext.yaml'), stringify(extensionConfig('ext', extensionUrl)))
  // Discovery fails here: the error lands in a condition, a log line and the status message.
  await writeFile(join(dir, 'configs', 'down.yaml'), stringify(extensionConfig('down', 'https://127.0.0.1:1')))

  const controller = startCli(['controller', '--extension-configs', join(dir, 'configs'), '--metrics-port', '0', '--log-level', 'debug'])
  t.teardown(() => { controller.child.kill('SIGKILL') })
  const url = await waitFor(() => /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(controller.out())?.[1], { timeoutMs: 30_000, message: 'the status URL is logged' })
  const get = async (path: string) => (await fetch(`${url}${path}`)).text()
  await waitFor(async () => {
    const reports = JSON.parse(await get('/extensionconfigs')).extensionConfigs as Array<{ name: string, outcome?: string }>
    return reports.every(r => r.outcome !== undefined)
  }, { timeoutMs: 30_000, message: 'both ExtensionConfigs reconciled' })

  // The extension receives the settings in a hook request, as the runtime client sends them.
  const reply = await call(extensionUrl, `/${API}/beforeclustercreate/before-cluster-create`, JSON.stringify({ settings: { token: CANARY }, cluster: { metadata: { name: 'c' } } }), { ca })
  t.equal(reply.json.status, 'Success')

  const shown: Record<string, string> = {
    '/extensionconfigs': await get('/extensionconfigs'),
    '/extensionconfigs/ext': await get('/extensionconfigs/ext'),
    '/extensionconfigs/down': await get('/extensionconfigs/down'),
    '/metrics': await get('/metrics'),
    '/readyz': await get('/readyz')
  }
  for (const output of ['table', 'json', 'yaml']) shown[`status -o ${output}`] = (await runCliHere(['status', '--url', url, '-o', output])).stdout
  const report = JSON.parse(shown['/extensionconfigs/ext'] as string)
  t.same(report.extensionConfig.spec.settings, { token: '<redacted>', requiredVariables: '<redacted>' }, 'the keys say what is configured')
  t.match(JSON.parse(shown['/extensionconfigs/down'] as string).extensionConfig.status.conditions, [{ type: 'Discovered', status: 'False' }], 'the failing one has a condition')
  t.match(shown['status -o json'], '"token": "<redacted>"')

  await stopped(controller.child)
  await stopped(serve.child)
  shown['controller log'] = controller.out()
  shown['extension log'] = serve.out()
  t.match(shown['extension log'], /"msg":"request completed"/, 'the extension logged the call')
  for (const [where, text] of Object.entries(shown)) t.notMatch(text, CANARY, `no settings value in ${where}`)
})
