// Assembles a running controller: a source (Kubernetes or directory), the controller, its HTTP endpoint,
// optionally the conversion webhook and leader election. Used by `runtime-sdk controller` and `demo`.
import { join } from 'node:path'
import { type Logger, pino } from 'pino'
import type { Registry as PromRegistry } from 'prom-client'
import { HttpRuntimeClient } from '../client/client.js'
import type { ClientCertificate } from '../client/transport.js'
import { Controller } from './controller.js'
import { ForeignCrdError, readCrdOwnership } from './crd-owner.js'
import { FileSource } from './file-source.js'
import { checkControllerHttp, type ControllerHttpOptions, serveControllerHttp } from './http-serving.js'
import { KubeApi } from '../kube/api.js'
import { isKubeApiError } from '../kube/errors.js'
import { LeaderElector, type LeaderElectorOptions } from '../kube/leader-election.js'
import { KubernetesSource } from './kubernetes-source.js'
import type { ExtensionConfigSource } from './source.js'
import { createWebhookServer } from './webhook-server.js'

/** The options of {@link runController}: where ExtensionConfigs come from and what the controller serves. */
export interface RunControllerOptions {
  /** extensionConfigsDir selects the file source; otherwise the Kubernetes API of `kubeconfig` is used. */
  extensionConfigsDir?: string
  /** kubeconfig path, read alone; default: KUBECONFIG's files merged, ~/.kube/config or the in-cluster service account. */
  kubeconfig?: string
  /** context of the kubeconfig to use instead of its current-context. */
  context?: string
  /** labelSelector limits the ExtensionConfigs handled (Kubernetes source). */
  labelSelector?: string
  /**
   * leaderElection runs the controller on standby (read-only) until it holds this coordination.k8s.io/v1 Lease, as
   * client-go's leader election does (Kubernetes source only).
   */
  leaderElection?: Pick<LeaderElectorOptions, 'namespace' | 'name' | 'identity' | 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>
  /** readOnly never discovers or writes: it registers what another controller wrote in status. */
  readOnly?: boolean
  /** takeOverCrd writes status even on an ExtensionConfig CRD another owner (Cluster API) installed. */
  takeOverCrd?: boolean
  /**
   * http serves /healthz, /readyz, /metrics and /extensionconfigs: plain HTTP on a loopback host, or with `secure`
   * HTTPS whose routes but the probes need a token the Kubernetes API authorizes (not with extensionConfigsDir).
   */
  http?: ControllerHttpOptions
  /** webhook serves the CRD conversion webhook over TLS from certDir/tls.crt and tls.key. */
  webhook?: {
    /** host to listen on. */
    host: string
    /** port to listen on; 0 picks a free port. */
    port: number
    /** certDir holds tls.crt and tls.key, read again when they change. */
    certDir: string
  }
  /** concurrency of reconciles (default 10). */
  concurrency?: number
  /** rediscoveryIntervalMs re-runs discovery of healthy extensions (default 10 minutes; 0 turns it off). */
  rediscoveryIntervalMs?: number
  /** resyncIntervalMs reconciles every ExtensionConfig as a safety net (default 10 hours; 0 turns it off). */
  resyncIntervalMs?: number
  /** clientCertificate is presented to extensions that ask for one (mTLS). */
  clientCertificate?: ClientCertificate
  /** metricsRegistry receives the controller's and the client's metrics (default: a new one). */
  metricsRegistry?: PromRegistry
  /** logger (pino) for the controller and the webhook; silent by default. */
  logger?: Logger
}

/** A controller {@link runController} started, with what runs beside it. */
export interface RunningController {
  /** controller is the running controller. */
  controller: Controller
  /** httpUrl of the status endpoint, when served. */
  httpUrl?: string
  /** webhookUrl of the conversion webhook, when served. */
  webhookUrl?: string
  /** elector is the leader election, when the options asked for one. */
  elector?: LeaderElector
  /** stop stops everything it started, in reverse order; with leader election the Lease is released. */
  stop: () => Promise<void>
}

/** Throws ForeignCrdError when someone else's CRD is installed; a CRD we may not read is logged, not fatal. */
async function refuseForeignCrd (api: KubeApi, logger: Logger): Promise<void> {
  let ownership
  try {
    ownership = await readCrdOwnership(api)
  } catch (err) {
    if (!isKubeApiError(err, 'Forbidden')) throw err
    logger.warn({ err: err.message }, 'cannot read the ExtensionConfig CRD to check who owns it; grant get on customresourcedefinitions')
    return
  }
  if (ownership.foreign) throw new ForeignCrdError(ownership)
}

/** Where ExtensionConfigs are read: a directory, or the API server (with the client that reads it). */
async function openSource (options: RunControllerOptions, logger: Logger): Promise<{ source: ExtensionConfigSource, api?: KubeApi }> {
  if (options.extensionConfigsDir) return { source: new FileSource({ dir: options.extensionConfigsDir }) }
  const api = new KubeApi({
    ...(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}),
    ...(options.context ? { context: options.context } : {})
  })
  if (!options.readOnly && !options.takeOverCrd) await refuseForeignCrd(api, logger)
  const source = new KubernetesSource({
    api,
    logger,
    // Read-only never injects CAs, so it neither needs nor asks for the right to watch Secrets.
    watchSecrets: !options.readOnly,
    ...(options.labelSelector ? { labelSelector: options.labelSelector } : {})
  })
  return { source, api }
}

/** Leader election: the controller writes only while it leads (the leader metric says which replica does). */
function electLeader (api: KubeApi, le: NonNullable<RunControllerOptions['leaderElection']>, controller: Controller, logger: Logger): LeaderElector {
  const elector = new LeaderElector(api, {
    ...le,
    onStartedLeading: () => {
      controller.metrics.leader.set({ name: le.name }, 1)
      controller.setMode('write')
    },
    onStoppedLeading: () => {
      controller.metrics.leader.set({ name: le.name }, 0)
      controller.setMode('read-only')
    },
    onNewLeader: identity => logger.info({ leader: identity }, 'new leader observed'),
    onError: err => logger.warn({ err: err.message }, 'leader election')
  })
  controller.metrics.leader.set({ name: le.name }, 0)
  elector.start()
  return elector
}

/**
 * Starts an ExtensionConfig controller as `runtime-sdk controller` does: its source (the Kubernetes API, or a directory
 * of manifests), the controller, and as asked its HTTP endpoint, the conversion webhook and leader election. It refuses
 * to write status on a CRD Cluster API installed (ForeignCrdError) unless readOnly or takeOverCrd. Anything that
 * fails to start stops what was started.
 *
 * @example
 * ```ts
 * import { runController } from 'runtime-sdk/controller'
 *
 * const running = await runController({
 *   leaderElection: { namespace: 'runtime-sdk-system', name: 'runtime-sdk-controller' },
 *   http: { host: '127.0.0.1', port: 8080 }
 * })
 * await running.controller.ready()
 * process.once('SIGTERM', () => { void running.stop() })
 * ```
 */
export async function runController (options: RunControllerOptions): Promise<RunningController> {
  const logger = options.logger ?? pino({ level: 'silent' })
  if (options.http) checkControllerHttp(options.http, !options.extensionConfigsDir)
  const { source, api } = await openSource(options, logger)
  const electing = options.leaderElection && api && !options.readOnly
  const client = new HttpRuntimeClient({
    ...(options.metricsRegistry ? { metricsRegistry: options.metricsRegistry } : {}),
    ...(source.namespaceLabels ? { namespaceLabels: source.namespaceLabels } : {}),
    ...(options.clientCertificate ? { clientCertificate: options.clientCertificate } : {})
  })
  const controller = new Controller({
    source,
    client,
    mode: options.readOnly || electing ? 'read-only' : 'write',
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.rediscoveryIntervalMs !== undefined ? { rediscoveryIntervalMs: options.rediscoveryIntervalMs } : {}),
    ...(options.resyncIntervalMs !== undefined ? { resyncIntervalMs: options.resyncIntervalMs } : {}),
    logger
  })
  const closers: Array<() => Promise<unknown>> = []
  const stop = async () => { for (const close of closers.reverse()) await close() }
  // Closed last: releasing the lease and the reviews of requests still in flight need it.
  if (api) closers.push(() => api.close())
  try {
    let elector: LeaderElector | undefined
    const running: RunningController = { controller, stop }
    if (options.webhook) {
      const { certDir, host, port } = options.webhook
      const webhook = createWebhookServer({ tls: { certFile: join(certDir, 'tls.crt'), keyFile: join(certDir, 'tls.key') }, host, port, logger })
      running.webhookUrl = await webhook.listen()
      closers.push(() => webhook.close())
    }
    await controller.start()
    closers.push(() => controller.stop())
    if (electing && api && options.leaderElection) {
      elector = electLeader(api, options.leaderElection, controller, logger)
      running.elector = elector
      closers.push(() => elector!.stop({ release: true }))
    }
    if (options.http) {
      const http = await serveControllerHttp({ controller, http: options.http, logger, ...(api ? { api } : {}), ...(elector ? { leader: () => elector!.isLeader() } : {}) })
      running.httpUrl = http.url
      closers.push(() => http.close())
    }
    return running
  } catch (err) {
    await stop()
    throw err
  }
}
