// runtime-sdk controller: runs the ExtensionConfig controller on the Kubernetes API or on a directory.
import { Command, Option } from 'commander'
import { pino } from 'pino'
import { isLoopbackHost } from '../controller/http-serving.js'
import { runController } from '../controller/run.js'
import { action, type CliIO, defaultIO, hiddenAlias, type KubeconfigFlags, kubeconfigOptions, kubeconfigSelection, UsageError } from './command.js'
import { countOption, durationOption, portOption } from './options.js'
import { startTracing } from '../telemetry/sdk.js'

interface ControllerCliOptions extends KubeconfigFlags {
  extensionConfigs?: string
  labelSelector?: string
  leaderElect?: boolean
  leaderElectionNamespace: string
  leaderElectionId: string
  readOnly?: boolean
  takeOverCrd?: boolean
  metricsHost: string
  metricsPort: number
  metricsSecure?: boolean
  metricsCertDir?: string
  webhookHost: string
  webhookPort?: number
  webhookCertDir: string
  concurrency: number
  rediscoveryInterval: number
  resyncInterval: number
  clientCertificate?: string
  clientKey?: string
  logLevel: string
}

export function controllerCommand (io: CliIO = defaultIO): Command {
  const command = new Command('controller')
    .description('run the ExtensionConfig controller: discover extensions, write status, keep the handler registry')
    .option('--extension-configs <dir>', 'embedded mode: read ExtensionConfig, Secret and Namespace manifests from a directory (watched; status kept in memory)')
  kubeconfigOptions(command, 'Kubernetes mode (the default)')
  command
    .option('--label-selector <selector>', 'only handle ExtensionConfigs with these labels (Kubernetes mode)')
    .option('--leader-elect', 'elect a leader on a coordination.k8s.io/v1 Lease; standbys only register what status says')
    .option('--leader-election-namespace <ns>', 'namespace of the Lease', process.env['POD_NAMESPACE'] ?? 'runtime-sdk-system')
    .option('--leader-election-id <name>', 'name of the Lease', 'runtime-sdk-extensionconfig-controller')
    .option('--read-only', 'never discover or write: register the handlers another controller (e.g. Cluster API\'s) wrote in status')
    .option('--take-over-crd', 'write status even when the ExtensionConfig CRD belongs to another owner (e.g. Cluster API); refused otherwise')
    .option('--metrics-host <host>', 'address of the HTTP endpoint (/metrics, /healthz, /readyz, /extensionconfigs); plain HTTP only on loopback', '127.0.0.1')
    .option('--metrics-port <port>', 'port of the HTTP endpoint (0 picks a free one)', portOption, 8080)
    .option('--metrics-secure', 'serve the endpoint over HTTPS; all but /healthz and /readyz need a bearer token allowed by TokenReview and SubjectAccessReview (Kubernetes mode)')
    .option('--metrics-cert-dir <dir>', 'directory with tls.crt and tls.key for --metrics-secure, reloaded when they change (default: a self-signed certificate)')
    .option('--webhook-host <host>', 'address the CRD conversion webhook listens on (all interfaces, as a Pod needs)', '0.0.0.0')
    .option('--webhook-port <port>', 'serve the CRD conversion webhook (HTTPS, /convert) on this port', portOption)
    .option('--webhook-cert-dir <dir>', 'directory with tls.crt and tls.key for the webhook', '/tmp/k8s-webhook-server/serving-certs')
    .option('--concurrency <n>', 'ExtensionConfigs reconciled at once', countOption, 10)
    .addOption(new Option('--rediscovery-interval <duration>', 're-run discovery of healthy extensions this often (0 turns it off)').argParser(durationOption).default(600_000, '10m'))
    .addOption(new Option('--resync-interval <duration>', 'reconcile everything this often as a safety net (0 turns it off)').argParser(durationOption).default(36_000_000, '10h'))
    .option('--client-certificate <file>', 'PEM client certificate presented to extensions (mTLS; with --client-key)')
    .option('--client-key <file>', 'PEM key of --client-certificate')
    .option('--log-level <level>', 'pino log level', 'info')
  hiddenAlias(command, '--client-cert-file <file>', 'clientCertificate')
  hiddenAlias(command, '--client-key-file <file>', 'clientKey')
  return command.action(action(io, async (opts: ControllerCliOptions) => { await startControllerCli(opts) }))
}

async function startControllerCli (opts: ControllerCliOptions): Promise<void> {
  if (Boolean(opts.clientCertificate) !== Boolean(opts.clientKey)) throw new UsageError('--client-certificate and --client-key go together')
  if (opts.extensionConfigs && (opts.kubeconfig || opts.context || opts.leaderElect || opts.labelSelector)) {
    throw new UsageError('--extension-configs (embedded mode) does not combine with --kubeconfig, --context, --label-selector or --leader-elect')
  }
  if (opts.metricsCertDir && !opts.metricsSecure) throw new UsageError('--metrics-cert-dir goes with --metrics-secure')
  if (opts.metricsSecure && opts.extensionConfigs) {
    throw new UsageError('--metrics-secure checks callers with TokenReview and SubjectAccessReview: it needs Kubernetes mode, not --extension-configs')
  }
  if (!opts.metricsSecure && !isLoopbackHost(opts.metricsHost)) {
    throw new UsageError(`--metrics-host ${opts.metricsHost} is not a loopback address: plain HTTP stays on 127.0.0.1; add --metrics-secure to serve HTTPS with Kubernetes authentication`)
  }
  const logger = pino({ level: opts.logLevel }, pino.destination(2))
  const tracing = await startTracing('runtime-sdk-controller')
  if (tracing) logger.info({ protocol: tracing.protocol }, 'exporting traces over OTLP')
  const running = await runController({
    ...(opts.extensionConfigs ? { extensionConfigsDir: opts.extensionConfigs } : {}),
    ...kubeconfigSelection(opts),
    ...(opts.labelSelector ? { labelSelector: opts.labelSelector } : {}),
    ...(opts.leaderElect ? { leaderElection: { namespace: opts.leaderElectionNamespace, name: opts.leaderElectionId } } : {}),
    readOnly: opts.readOnly ?? false,
    takeOverCrd: opts.takeOverCrd ?? false,
    http: {
      host: opts.metricsHost,
      port: opts.metricsPort,
      ...(opts.metricsSecure ? { secure: opts.metricsCertDir ? { certDir: opts.metricsCertDir } : {} } : {})
    },
    ...(opts.webhookPort !== undefined ? { webhook: { host: opts.webhookHost, port: opts.webhookPort, certDir: opts.webhookCertDir } } : {}),
    concurrency: opts.concurrency,
    rediscoveryIntervalMs: opts.rediscoveryInterval,
    resyncIntervalMs: opts.resyncInterval,
    ...(opts.clientCertificate && opts.clientKey ? { clientCertificate: { certFile: opts.clientCertificate, keyFile: opts.clientKey } } : {}),
    logger
  })
  logger.info({ url: running.httpUrl, webhook: running.webhookUrl, source: running.controller.source.kind }, 'serving status at /extensionconfigs')
  running.controller.ready().then(() => logger.info('ready'), () => {})
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'stopping')
    running.stop().then(async () => { await tracing?.shutdown(); process.exit(0) }, () => process.exit(1))
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
}
