// runtime-sdk serve: serves the reference extension, or the handlers of a module, over HTTPS.
import { existsSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Command } from 'commander'
import { referenceHandlers } from '../reference-extension/index.js'
import { createExtensionServer } from '../server/server.js'
import { DEFAULT_LIMITS } from '../http/server.js'
import type { ExtensionHandler } from '../server/types.js'
import type { TLSFileOptions } from '../tls/index.js'
import { action, type CliIO, defaultIO, hiddenAlias, UsageError } from './command.js'
import { boundedCountOption, portOption } from './options.js'
import { columns } from './table.js'
import { startTracing } from '../telemetry/sdk.js'

interface ServeOptions {
  handlers?: string
  port: number
  host: string
  certDir?: string
  tlsCertFile?: string
  tlsPrivateKeyFile?: string
  clientCaFile?: string
  insecureHttp?: boolean
  pathPrefix?: string
  responses?: string
  logLevel: string
  workers?: number
  maxConnections?: number
  record?: string
  recordMaxBytes?: number
  recordMaxFiles?: number
}

export function serveCommand (io: CliIO = defaultIO): Command {
  const command = new Command('serve')
    .description('serve a Runtime Extension over HTTPS: the reference extension, or the handlers of your module')
    .option('--handlers <module>', 'a module whose default export (or `handlers` export) is an array of extension handlers')
    .option('--port <port>', 'port to listen on', portOption, 9443)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--cert-dir <dir>', 'directory with tls.crt and tls.key (generated there when missing)')
    .option('--tls-cert-file <file>', 'serving certificate (PEM), with --tls-private-key-file')
    .option('--tls-private-key-file <file>', 'serving private key (PEM)')
    .option('--client-ca-file <file>', 'require client certificates issued by this CA (mTLS)')
    .option('--insecure-http', 'serve plain HTTP (Cluster API only calls HTTPS; for tests or behind a TLS proxy)')
    .option('--path-prefix <prefix>', 'path prefix in front of every hook path')
    .option('--responses <file>', 'reference extension: YAML/JSON file presetting lifecycle hook answers (and a GeneratePatches Failure), re-read on change')
    .option('--log-level <level>', 'pino log level', 'info')
    .option('--workers <n>', 'processes serving the same port (node:cluster), one per core to use', boundedCountOption(64), 1)
    .option('--max-connections <n>', 'open connections per process beyond which new ones are closed', boundedCountOption(1_000_000), DEFAULT_LIMITS.maxConnections)
    .option('--record <file>', 'append every hook call (request and answer, settings redacted) to this file, for `runtime-sdk replay`')
    .option('--record-max-bytes <n>', 'rotate the recording once it holds this many bytes', boundedCountOption(2 ** 40), 100 * 1024 * 1024)
    .option('--record-max-files <n>', 'recording files kept, the current one included', boundedCountOption(1000), 5)
  hiddenAlias(command, '--tls-cert <file>', 'tlsCertFile')
  hiddenAlias(command, '--tls-key <file>', 'tlsPrivateKeyFile')
  hiddenAlias(command, '--client-ca <file>', 'clientCaFile')
  return command.action(action(io, async (opts: ServeOptions & { workers: number }) => {
    const say = (line: string) => io.stderr(`${line}\n`)
    const workers = await workersModule(opts)
    if (workers && !workers.isWorker()) await serveWithWorkers(opts, workers, say)
    else await serve(opts, say)
  }))
}

export async function loadHandlers (module: string): Promise<ExtensionHandler[]> {
  const path = resolve(module)
  if (!existsSync(path)) throw new UsageError(`--handlers ${module}: no such file`)
  let loaded: { default?: unknown, handlers?: unknown }
  try {
    loaded = await import(pathToFileURL(path).href) as typeof loaded
  } catch (err) {
    throw new UsageError(`--handlers ${module} cannot be loaded: ${(err as Error).message.split('\n')[0] ?? ''}`)
  }
  const handlers = Array.isArray(loaded.default) ? loaded.default : loaded.handlers
  if (!Array.isArray(handlers)) throw new UsageError(`${module} must export an array of extension handlers as its default export or as \`handlers\``)
  return handlers as ExtensionHandler[]
}

/** Certificates from flags, from --cert-dir, or a fresh self-signed CA and serving certificate for localhost. */
async function tlsFiles (opts: ServeOptions, say: (line: string) => void): Promise<TLSFileOptions & { caFile?: string }> {
  const clientCa = opts.clientCaFile ? { clientCaFile: opts.clientCaFile } : {}
  if (opts.tlsCertFile || opts.tlsPrivateKeyFile) {
    if (!opts.tlsCertFile || !opts.tlsPrivateKeyFile) throw new UsageError('--tls-cert-file and --tls-private-key-file go together')
    return { certFile: opts.tlsCertFile, keyFile: opts.tlsPrivateKeyFile, ...clientCa }
  }
  const dir = opts.certDir ?? await mkdtemp(join(tmpdir(), 'runtime-sdk-serve-'))
  const files = { certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key'), caFile: join(dir, 'ca.crt') }
  if (existsSync(files.certFile) && existsSync(files.keyFile)) return { ...files, ...(existsSync(files.caFile) ? {} : { caFile: undefined }), ...clientCa }
  // Minting certificates needs @peculiar/x509, loaded only when there are none.
  const { writeLoopbackServingCertificate } = await import('../tls/certificates.js')
  await writeLoopbackServingCertificate(dir, 'runtime-sdk serve CA')
  say(`generated a self-signed CA and a serving certificate for localhost/127.0.0.1 in ${dir} (ca.crt, tls.crt, tls.key)`)
  return { ...files, ...clientCa }
}

type Workers = typeof import('./serve-workers.js')

/** node:cluster and the supervision of workers, loaded only for `--workers` above 1. */
async function workersModule (opts: ServeOptions): Promise<Workers | undefined> {
  return (opts.workers ?? 1) > 1 ? await import('./serve-workers.js') : undefined
}

/** The primary of `serve --workers N`: makes the certificate once (every worker serves those files) and supervises. */
async function serveWithWorkers (opts: ServeOptions & { workers: number }, workers: Workers, say: (line: string) => void): Promise<void> {
  const tls = opts.insecureHttp ? undefined : await tlsFiles(opts, say)
  const args = process.argv.slice(2)
  say(`starting ${opts.workers} workers`)
  await workers.superviseWorkers(opts.workers, tls ? [...args, '--tls-cert-file', tls.certFile, '--tls-private-key-file', tls.keyFile] : args, say)
}

/** Serves in this process: alone, or as one of the workers of `serve --workers N`. */
export async function serve (opts: ServeOptions, say: (line: string) => void = line => process.stderr.write(`${line}\n`)) {
  const workers = await workersModule(opts)
  const worker = workers?.isWorker() === true
  // Only the first worker tells what is served.
  if (worker && !workers.isFirstWorker()) say = () => {}
  if (opts.record && (opts.workers ?? 1) > 1) throw new UsageError('--record takes one process: drop --workers, or record on one replica')
  // A module of handlers is loaded before a certificate is minted, so that a bad one leaves nothing behind.
  const module = opts.handlers ? await loadHandlers(opts.handlers) : undefined
  const tracing = await startTracing('runtime-sdk-serve')
  const tls = opts.insecureHttp ? undefined : await tlsFiles(opts, say)
  const handlers = module ?? referenceHandlers(opts.responses ? { responsesFile: opts.responses } : {})
  const server = createExtensionServer({
    ...(opts.maxConnections !== undefined ? { limits: { maxConnections: opts.maxConnections } } : {}),
    ...(worker ? { metricsView: workers.workersMetricsView } : {}),
    handlers,
    ...(tls ? { tls: { certFile: tls.certFile, keyFile: tls.keyFile, ...(tls.clientCaFile ? { clientCaFile: tls.clientCaFile } : {}) } } : { insecureHttp: true }),
    ...(opts.pathPrefix ? { pathPrefix: opts.pathPrefix } : {}),
    ...(opts.record ? { record: { file: opts.record, ...(opts.recordMaxBytes ? { maxBytes: opts.recordMaxBytes } : {}), ...(opts.recordMaxFiles ? { maxFiles: opts.recordMaxFiles } : {}) } } : {}),
    logLevel: opts.logLevel
  })
  const url = await server.listen({ port: opts.port, host: opts.host })
  if (worker) say(`${opts.workers} workers serve ${url}; /metrics sums them`)
  const discovery = server.routes[0]?.path ?? ''
  say(`serving ${opts.handlers ? opts.handlers : 'the reference extension'} at ${url}`)
  say('handlers:')
  for (const line of columns(server.routes.slice(1).map(r => [r.name, r.hook, `POST ${r.path}`])).trimEnd().split('\n')) say(`  ${line}`)
  if (opts.record) say(`recording every hook call to ${opts.record}`)
  if (tracing) say(`exporting traces over OTLP (${tracing.protocol})`)
  say(`operations: ${url}/healthz ${url}/readyz ${url}/metrics ${url}/docs`)
  const caFlag = tls?.caFile ? `--cacert ${tls.caFile} ` : tls ? '--cacert <ca.crt> ' : ''
  say(`try: curl -sS ${caFlag}-X POST ${url}${discovery} -H 'Content-Type: application/json' -d '{"kind":"DiscoveryRequest","apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1"}'`)
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    say(`${signal}: finishing in-flight requests`)
    server.close().then(async () => { await tracing?.shutdown(); process.exit(0) }, () => process.exit(1))
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
  return server
}
