// runtime-sdk demo (npm start): the embedded path end to end on loopback, no cluster needed. The reference
// extension serves HTTPS, a directory holds its ExtensionConfig and the Secret with its CA (injected through
// the annotation), and the file-source controller discovers it and reports status.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { Command } from 'commander'
import { pino } from 'pino'
import { stringify } from 'yaml'
import { INJECT_CA_FROM_SECRET_ANNOTATION, V1BETA2_API_VERSION } from '../api/extension-config/constants.js'
import { runController } from '../controller/run.js'
import { referenceHandlers } from '../reference-extension/index.js'
import { createExtensionServer } from '../server/server.js'
import { writeLoopbackServingCertificate } from '../tls/index.js'
import { action, type CliIO, defaultIO } from './command.js'
import { portOption } from './options.js'
import { renderStatus } from './status.js'
import { table } from './table.js'
import { statusDocument } from '../controller/http.js'

interface DemoOptions {
  dir?: string
  extensionPort: number
  metricsPort: number
  logLevel: string
}

export function demoCommand (io: CliIO = defaultIO): Command {
  return new Command('demo')
    .description('run the reference extension and the embedded (file-source) controller together on loopback')
    .option('--dir <dir>', 'directory for the generated manifests and certificates (default: a new temporary one)')
    .option('--extension-port <port>', 'port of the reference extension', portOption, 9443)
    .option('--metrics-port <port>', 'port of the controller\'s HTTP endpoint', portOption, 8080)
    .option('--log-level <level>', 'controller log level', 'warn')
    .action(action(io, async (opts: DemoOptions) => { await demo(opts, io) }))
}

async function demo (opts: DemoOptions, io: CliIO): Promise<void> {
  const say = (line = '') => io.stdout(`${line}\n`)
  const dir = resolve(opts.dir ?? await mkdtemp(join(tmpdir(), 'runtime-sdk-demo-')))
  const manifests = join(dir, 'extensionconfigs')
  await mkdir(manifests, { recursive: true })

  const tls = await writeLoopbackServingCertificate(dir, 'runtime-sdk demo CA')
  const extension = createExtensionServer({
    handlers: referenceHandlers(),
    tls: { certFile: tls.certFile, keyFile: tls.keyFile },
    logLevel: 'warn'
  })
  const extensionUrl = await extension.listen({ host: '127.0.0.1', port: opts.extensionPort })

  await writeFile(join(manifests, 'reference-extension.yaml'), [
    stringify({
      apiVersion: V1BETA2_API_VERSION,
      kind: 'ExtensionConfig',
      metadata: { name: 'reference-extension', annotations: { [INJECT_CA_FROM_SECRET_ANNOTATION]: 'runtime-sdk-demo/reference-extension-ca' } },
      spec: { clientConfig: { url: extensionUrl }, namespaceSelector: {}, settings: { origin: 'runtime-sdk demo' } }
    }),
    stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: 'runtime-sdk-demo', name: 'reference-extension-ca' },
      data: { 'ca.crt': Buffer.from(tls.caPem).toString('base64') }
    })
  ].join('---\n'))

  const logger = pino({ level: opts.logLevel }, pino.destination(2))
  const running = await runController({ extensionConfigsDir: manifests, http: { host: '127.0.0.1', port: opts.metricsPort }, logger })
  await running.controller.ready()
  await running.controller.idle()

  say(`reference extension:  ${extensionUrl}`)
  say(`manifests (watched):  ${manifests}`)
  say(`controller endpoint:  ${running.httpUrl}/extensionconfigs  (also /metrics, /healthz, /readyz)`)
  say()
  say(renderStatus(statusDocument(running.controller, true)).trimEnd())
  say()
  say('handlers in the registry:')
  const registered = running.controller.client.registry.all().map(r => [r.name, r.gvh.hook, `${r.timeoutSeconds}s`, r.failurePolicy])
  say(table(['NAME', 'HOOK', 'TIMEOUT', 'FAILURE POLICY'], registered).trimEnd())
  say()
  const self = process.argv[1] ? relative(process.cwd(), process.argv[1]) : 'runtime-sdk'
  say(`try: node ${self} status --url ${running.httpUrl}`)
  say(`     edit or add ExtensionConfigs in ${manifests}; the controller picks changes up at once. Ctrl-C stops.`)

  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    Promise.all([running.stop(), extension.close()]).then(() => process.exit(0), () => process.exit(1))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
