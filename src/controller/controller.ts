// The ExtensionConfig controller: source events -> filtered, keyed work queue -> reconciler -> registry.
// The same code runs on the Kubernetes source and on the file source.
import { isDeepStrictEqual } from 'node:util'
import type * as prom from 'prom-client'
import { Registry as PromRegistry } from '../shims/prom-client.js'
import { INJECT_CA_FROM_SECRET_ANNOTATION } from '../api/extension-config/constants.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import { HttpRuntimeClient } from '../client/client.js'
import { registrationsOf } from '../registry/registry.js'
import { ControllerMetrics, forgetExtensionConfig, queueObserver, recordReconcile } from './metrics.js'
import { WorkQueue, type ProcessResult } from './queue.js'
import { type ReconcileOutcome, Reconciler, type RegistrySink } from './reconciler.js'
import type { ChangeKind, ExtensionConfigSource } from './source.js'

/** What the controller logs with: a pino logger is one. */
export interface ControllerLogger {
  /** info logs what the controller did: started, changed mode, waits for a Secret. */
  info: (obj: object, msg?: string) => void
  /** warn logs failures it retries, e.g. a failed reconcile. */
  warn: (obj: object, msg?: string) => void
  /** error logs failures it cannot retry. */
  error: (obj: object, msg?: string) => void
  /** debug logs details. */
  debug: (obj: object, msg?: string) => void
}

const silent: ControllerLogger = { info () {}, warn () {}, error () {}, debug () {} }

/** `write`: discover extensions and write status (the leader); `read-only`: register what status says (standbys). */
export type ControllerMode = 'write' | 'read-only'

/** The options of a {@link Controller}. */
export interface ControllerOptions {
  /** source is where ExtensionConfigs come from and status goes: a {@link KubernetesSource} or a {@link FileSource}. */
  source: ExtensionConfigSource
  /** client discovers extensions and holds the registry; by default one resolving namespaces through the source. */
  client?: HttpRuntimeClient
  /** mode: `write` discovers and writes status; `read-only` registers what status says (default write). */
  mode?: ControllerMode
  /** concurrency of reconciles (default 10). */
  concurrency?: number
  /** minIntervalMs between two reconciles of one ExtensionConfig (default 1 s). */
  minIntervalMs?: number
  /** Retry delays after errors: baseDelayMs doubling up to maxDelayMs (defaults 5 ms and 5 minutes). */
  baseDelayMs?: number
  /** maxDelayMs caps the retry delay after errors (default 5 minutes). */
  maxDelayMs?: number
  /** rediscoveryIntervalMs re-runs discovery of healthy extensions (default 10 minutes; 0 turns it off). */
  rediscoveryIntervalMs?: number
  /** resyncIntervalMs reconciles every ExtensionConfig as a safety net (default 10 hours; 0 turns it off). */
  resyncIntervalMs?: number
  /** metricsRegistry receives the controller's metrics (default: the client's registry, or a new one). */
  metricsRegistry?: prom.Registry
  /** logger receives the controller's logs (default: none). */
  logger?: ControllerLogger
}

/** What the controller knows about one ExtensionConfig, for the status endpoint and `runtime-sdk status`. */
export interface ExtensionConfigReport {
  /** name of the ExtensionConfig. */
  name: string
  /** generation is the ExtensionConfig's metadata.generation. */
  generation: number
  /** outcome of the last reconcile, `error` when it failed; absent before the first. */
  outcome?: ReconcileOutcome | 'error'
  /** message explains a wait, a read-only registration not possible yet, or the error. */
  message?: string
  /** dependency is the CA Secret `<namespace>/<name>` the ExtensionConfig waits for. */
  dependency?: string
  /** failures counts the reconciles that failed in a row (reset by a success). */
  failures: number
  /** lastReconcileTime is when the last reconcile ended (RFC 3339). */
  lastReconcileTime?: string
  /** registeredHandlers is the number of its handlers in the registry. */
  registeredHandlers: number
  /** extensionConfig is the object as the source holds it, settings values and kubectl's last-applied copy redacted. */
  extensionConfig: ExtensionConfig
}

/** What stands for a settings value wherever the controller shows an ExtensionConfig. */
const REDACTED = '<redacted>'
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

/**
 * The ExtensionConfig without its settings values: they often carry tokens, and the status endpoint may be read by
 * anyone who can reach it. Keys stay (they say what is configured); kubectl's last-applied copy of the spec goes too.
 */
function withoutSecrets (ec: ExtensionConfig): ExtensionConfig {
  const settings = ec.spec.settings
  const annotations = ec.metadata.annotations
  if (!settings && annotations?.[LAST_APPLIED] === undefined) return ec
  return {
    ...ec,
    metadata: { ...ec.metadata, ...(annotations?.[LAST_APPLIED] !== undefined ? { annotations: { ...annotations, [LAST_APPLIED]: REDACTED } } : {}) },
    spec: { ...ec.spec, ...(settings ? { settings: Object.fromEntries(Object.keys(settings).map(key => [key, REDACTED])) } : {}) }
  }
}

/**
 * The ExtensionConfig controller, as Cluster API's: for each ExtensionConfig of its source it discovers the
 * extension, writes the result into its status (conditions Discovered and Paused, the handlers) and registers the
 * handlers in its client's registry, which becomes ready once every ExtensionConfig was tried. A CA Secret named by
 * the inject-ca-from-secret annotation is copied into the caBundle. Failed reconciles are retried with backoff;
 * healthy extensions are discovered again every rediscoveryIntervalMs. In read-only mode it only registers what
 * another controller wrote. {@link runController} assembles one with its source, endpoint and leader election.
 *
 * @example
 * ```ts
 * import { Controller, FileSource } from 'runtime-sdk/controller'
 *
 * const controller = new Controller({ source: new FileSource({ dir: './extension-configs' }) })
 * await controller.start()
 * await controller.ready()
 * // controller.client calls the hooks of every registered handler
 * await controller.stop()
 * ```
 */
export class Controller {
  /** client discovers extensions and calls their hooks; its registry holds the registered handlers. */
  readonly client: HttpRuntimeClient
  /** source is where ExtensionConfigs come from and status goes. */
  readonly source: ExtensionConfigSource
  /** metrics are the controller's Prometheus metrics. */
  readonly metrics: ControllerMetrics
  readonly #queue: WorkQueue
  readonly #reconciler: Reconciler
  readonly #logger: ControllerLogger
  readonly #rediscoveryMs: number
  readonly #resyncMs: number
  readonly #reports = new Map<string, Pick<ExtensionConfigReport, 'outcome' | 'message' | 'dependency' | 'lastReconcileTime'>>()
  /** CA Secret `<namespace>/<name>` -> names of the ExtensionConfigs injecting it. */
  readonly #dependents = new Map<string, Set<string>>()
  /** Registrations made before the warm-up ends; handed to registry.warmUp at once. */
  readonly #pending = new Map<string, ExtensionConfig>()
  /** Names not yet tried since start (warm-up waits for them). */
  #untried = new Set<string>()
  #mode: ControllerMode
  #resyncTimer: NodeJS.Timeout | undefined
  #started = false

  constructor (options: ControllerOptions) {
    this.source = options.source
    this.#logger = options.logger ?? silent
    this.metrics = new ControllerMetrics(options.metricsRegistry ?? options.client?.metrics.registry ?? new PromRegistry(), () => this.source.stale?.()?.since)
    this.client = options.client ?? new HttpRuntimeClient({
      metricsRegistry: this.metrics.registry,
      ...(options.source.namespaceLabels ? { namespaceLabels: options.source.namespaceLabels } : {})
    })
    this.#mode = options.mode ?? 'write'
    this.#rediscoveryMs = options.rediscoveryIntervalMs ?? 600_000
    this.#resyncMs = options.resyncIntervalMs ?? 36_000_000
    this.#queue = new WorkQueue({
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.minIntervalMs !== undefined ? { minIntervalMs: options.minIntervalMs } : {}),
      ...(options.baseDelayMs !== undefined ? { baseDelayMs: options.baseDelayMs } : {}),
      ...(options.maxDelayMs !== undefined ? { maxDelayMs: options.maxDelayMs } : {}),
      observer: queueObserver(this.metrics)
    })
    const sink: RegistrySink = { register: ec => this.#register(ec), unregister: name => this.#unregister(name) }
    this.#reconciler = new Reconciler({ source: this.source, client: this.client, sink })
  }

  /** The current mode: write (discover, write status) or read-only (register what status says). */
  get mode (): ControllerMode {
    return this.#mode
  }

  /** Starts the source and the queue. The registry becomes ready once every ExtensionConfig was tried. */
  async start (): Promise<void> {
    if (this.#started) throw new Error('the controller has already been started')
    this.#started = true
    await this.source.start({
      extensionConfig: (kind, ec, old) => this.#onExtensionConfig(kind, ec, old),
      secret: (namespace, name) => this.#onSecret(namespace, name)
    })
    const names = this.source.list().map(ec => ec.metadata.name)
    this.#untried = new Set(names)
    this.#queue.start(key => this.#process(key))
    for (const name of names) this.#queue.add(name)
    this.#checkWarm()
    if (this.#resyncMs > 0) {
      this.#resyncTimer = setInterval(() => this.enqueueAll(), this.#resyncMs)
      this.#resyncTimer.unref()
    }
    this.#logger.info({ source: this.source.kind, mode: this.#mode, extensionConfigs: names.length }, 'controller started')
  }

  /** Resolves when the registry is warmed up. */
  ready (): Promise<void> {
    return this.client.registry.ready()
  }

  /** Switches between writing (the leader) and read-only registration (standbys); re-reconciles everything. */
  setMode (mode: ControllerMode): void {
    if (mode === this.#mode) return
    this.#mode = mode
    this.#logger.info({ mode }, 'controller mode changed')
    this.enqueueAll()
  }

  /** Queues a reconcile of every ExtensionConfig of the source. */
  enqueueAll (): void {
    for (const ec of this.source.list()) this.#queue.add(ec.metadata.name)
  }

  /** Resolves when no reconcile is queued or running. */
  idle (): Promise<void> {
    return this.#queue.idle()
  }

  /** Stops reconciling (waiting for reconciles in flight), then the source, then closes the client's connections. */
  async stop (): Promise<void> {
    if (this.#resyncTimer) clearInterval(this.#resyncTimer)
    await this.#queue.stop()
    await this.source.stop()
    await this.client.close()
  }

  /** Every known ExtensionConfig with the controller's view of it, ordered by name; settings values redacted. */
  reports (): ExtensionConfigReport[] {
    const registered = this.client.registry.isReady() ? this.client.registry.all() : []
    return this.source.list()
      .map(ec => ({
        name: ec.metadata.name,
        generation: ec.metadata.generation ?? 0,
        ...this.#reports.get(ec.metadata.name),
        failures: this.#queue.failures(ec.metadata.name),
        registeredHandlers: registered.filter(r => r.extensionConfigName === ec.metadata.name).length,
        extensionConfig: withoutSecrets(ec)
      }))
      .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  }

  #onExtensionConfig (kind: ChangeKind, ec: ExtensionConfig, old?: ExtensionConfig): void {
    const name = ec.metadata.name
    this.#index(name, kind === 'delete' ? undefined : ec)
    if (kind === 'update' && old && !this.#relevant(old, ec)) return
    this.#queue.add(name)
  }

  /** Generation-aware filtering: status-only changes matter only to read-only registration. */
  #relevant (old: ExtensionConfig, ec: ExtensionConfig): boolean {
    if (old.metadata.generation !== ec.metadata.generation) return true
    if (!isDeepStrictEqual(old.metadata.annotations ?? {}, ec.metadata.annotations ?? {})) return true
    if (ec.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) return true
    return this.#mode === 'read-only' && !isDeepStrictEqual(old.status ?? {}, ec.status ?? {})
  }

  #onSecret (namespace: string, name: string): void {
    for (const dependent of this.#dependents.get(`${namespace}/${name}`) ?? []) this.#queue.add(dependent)
  }

  #index (name: string, ec: ExtensionConfig | undefined): void {
    for (const [secret, names] of this.#dependents) {
      names.delete(name)
      if (names.size === 0) this.#dependents.delete(secret)
    }
    const ref = ec?.metadata.annotations?.[INJECT_CA_FROM_SECRET_ANNOTATION]
    if (ref === undefined) return
    const names = this.#dependents.get(ref) ?? new Set<string>()
    names.add(name)
    this.#dependents.set(ref, names)
  }

  async #process (name: string): Promise<ProcessResult> {
    const started = performance.now()
    const mode = this.#mode
    try {
      const result = mode === 'write' ? await this.#reconciler.reconcile(name) : await this.#reconciler.register(name)
      this.#report(name, { outcome: result.outcome, ...(result.message ? { message: result.message } : {}), ...(result.dependency ? { dependency: result.dependency } : {}) })
      if (result.outcome === 'removed') {
        this.#queue.forget(name)
        this.#reports.delete(name)
        forgetExtensionConfig(this.metrics, name)
      } else {
        this.metrics.discovered.set({ name }, result.outcome === 'discovered' || result.outcome === 'registered' ? 1 : 0)
      }
      if (result.outcome === 'waiting') this.#logger.info({ extensionConfig: name, dependency: result.dependency }, result.message ?? 'waiting')
      const requeue = mode === 'write' && result.outcome === 'discovered' && this.#rediscoveryMs > 0
      recordReconcile(this.metrics, requeue ? 'requeue_after' : 'success', (performance.now() - started) / 1000)
      return requeue ? { requeueAfterMs: this.#rediscoveryMs } : undefined
    } catch (err) {
      const message = (err as Error).message
      this.#report(name, { outcome: 'error', message })
      this.metrics.discovered.set({ name }, 0)
      recordReconcile(this.metrics, 'error', (performance.now() - started) / 1000)
      this.#logger.warn({ extensionConfig: name, err: message, failures: this.#queue.failures(name) + 1 }, 'reconcile failed; retrying with backoff')
      throw err
    } finally {
      this.#tried(name)
    }
  }

  #report (name: string, report: { outcome: ExtensionConfigReport['outcome'], message?: string, dependency?: string }): void {
    this.#reports.set(name, { ...report, lastReconcileTime: new Date().toISOString() })
  }

  #tried (name: string): void {
    if (this.#untried.delete(name)) this.#checkWarm()
  }

  #checkWarm (): void {
    const registry = this.client.registry
    if (registry.isReady() || this.#untried.size > 0) return
    registry.warmUp([...this.#pending.values()])
    this.#pending.clear()
    this.metrics.registryReady.set(1)
    this.#logger.info({ handlers: registry.all().length }, 'The extension registry is warmed up')
  }

  #register (ec: ExtensionConfig): void {
    const name = ec.metadata.name
    const registry = this.client.registry
    if (registry.isReady()) {
      registry.add(ec)
    } else {
      registrationsOf(ec) // fails here rather than spoiling the warm-up of every other ExtensionConfig
      this.#pending.set(name, ec)
    }
    this.metrics.handlers.set({ name }, ec.status?.handlers?.length ?? 0)
  }

  #unregister (name: string): void {
    const registry = this.client.registry
    const ec = { metadata: { name } } as ExtensionConfig
    if (registry.isReady()) registry.remove(ec)
    else this.#pending.delete(name)
  }
}
