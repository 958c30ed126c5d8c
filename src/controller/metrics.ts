// Controller metrics under controller-runtime's names (dashboards carry over) plus per-ExtensionConfig gauges.
import { Counter, Gauge, Histogram, type Registry } from '../shims/prom-client.js'
import { reuse } from '../client/metrics.js'

const CONTROLLER = 'extensionconfig'

export class ControllerMetrics {
  readonly reconcileTotal: Counter<'controller' | 'result'>
  readonly reconcileErrors: Counter<'controller'>
  readonly reconcileTime: Histogram<'controller'>
  readonly queueDepth: Gauge<'name'>
  readonly queueAdds: Counter<'name'>
  readonly queueRetries: Counter<'name'>
  readonly discovered: Gauge<'name'>
  readonly handlers: Gauge<'name'>
  readonly registryReady: Gauge
  readonly leader: Gauge<'name'>
  /** Seconds the source's cache has been stale (0 while it follows the API server). */
  readonly cacheStale: Gauge

  /** staleSince says since when the source's cache is stale (undefined while it is current). */
  constructor (readonly registry: Registry, staleSince: () => Date | undefined = () => undefined) {
    const registers = [registry]
    this.reconcileTotal = reuse(registry, 'controller_runtime_reconcile_total', () => new Counter({
      name: 'controller_runtime_reconcile_total', help: 'Total number of reconciliations per controller.', labelNames: ['controller', 'result'] as const, registers
    }))
    this.reconcileErrors = reuse(registry, 'controller_runtime_reconcile_errors_total', () => new Counter({
      name: 'controller_runtime_reconcile_errors_total', help: 'Total number of reconciliation errors per controller.', labelNames: ['controller'] as const, registers
    }))
    this.reconcileTime = reuse(registry, 'controller_runtime_reconcile_time_seconds', () => new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller.',
      labelNames: ['controller'] as const,
      registers,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]
    }))
    this.queueDepth = reuse(registry, 'workqueue_depth', () => new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue.', labelNames: ['name'] as const, registers }))
    this.queueAdds = reuse(registry, 'workqueue_adds_total', () => new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue.', labelNames: ['name'] as const, registers }))
    this.queueRetries = reuse(registry, 'workqueue_retries_total', () => new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue.', labelNames: ['name'] as const, registers }))
    this.discovered = reuse(registry, 'runtime_sdk_extensionconfig_discovered', () => new Gauge({
      name: 'runtime_sdk_extensionconfig_discovered', help: '1 when the last discovery of the ExtensionConfig succeeded, 0 otherwise.', labelNames: ['name'] as const, registers
    }))
    this.handlers = reuse(registry, 'runtime_sdk_extensionconfig_handlers', () => new Gauge({
      name: 'runtime_sdk_extensionconfig_handlers', help: 'Number of registered handlers of the ExtensionConfig.', labelNames: ['name'] as const, registers
    }))
    this.registryReady = reuse(registry, 'runtime_sdk_registry_ready', () => new Gauge({
      name: 'runtime_sdk_registry_ready', help: '1 once every ExtensionConfig was tried at start-up (the registry is warmed up).', registers
    }))
    this.cacheStale = reuse(registry, 'runtime_sdk_cache_stale_seconds', () => new Gauge({
      name: 'runtime_sdk_cache_stale_seconds',
      help: 'Seconds since the watch of ExtensionConfigs or Secrets started failing; 0 while the cache follows the API server.',
      registers,
      collect () {
        const since = staleSince()
        this.set(since ? (Date.now() - since.getTime()) / 1000 : 0)
      }
    }))
    this.leader = reuse(registry, 'leader_election_master_status', () => new Gauge({
      name: 'leader_election_master_status', help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master.', labelNames: ['name'] as const, registers
    }))
  }

  queueObserver () {
    return {
      added: () => this.queueAdds.inc({ name: CONTROLLER }),
      retried: () => this.queueRetries.inc({ name: CONTROLLER }),
      depth: (depth: number) => this.queueDepth.set({ name: CONTROLLER }, depth)
    }
  }

  reconciled (result: 'success' | 'error' | 'requeue_after', seconds: number): void {
    this.reconcileTotal.inc({ controller: CONTROLLER, result })
    if (result === 'error') this.reconcileErrors.inc({ controller: CONTROLLER })
    this.reconcileTime.observe({ controller: CONTROLLER }, seconds)
  }

  forget (name: string): void {
    this.discovered.remove({ name })
    this.handlers.remove({ name })
  }
}
