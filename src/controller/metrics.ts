// Controller metrics under controller-runtime's names (dashboards carry over) plus per-ExtensionConfig gauges.
import type * as prom from 'prom-client'
import { Counter, Gauge, Histogram } from '../shims/prom-client.js'
import { reuse } from '../client/metrics.js'

const CONTROLLER = 'extensionconfig'

/**
 * The Prometheus metrics of the ExtensionConfig controller: controller-runtime's reconcile and work queue metrics
 * (their `controller` and `name` labels are `extensionconfig`) and client-go's leader election metric under their
 * names, and runtime-sdk's per-ExtensionConfig gauges. Metrics already in the registry under these names are reused.
 */
export class ControllerMetrics {
  /** controller_runtime_reconcile_total{controller,result}: reconciles by result (success, error, requeue_after). */
  readonly reconcileTotal: prom.Counter<'controller' | 'result'>
  /** controller_runtime_reconcile_errors_total{controller}: reconciles that failed. */
  readonly reconcileErrors: prom.Counter<'controller'>
  /** controller_runtime_reconcile_time_seconds{controller}: how long reconciles take. */
  readonly reconcileTime: prom.Histogram<'controller'>
  /** workqueue_depth{name}: ExtensionConfigs waiting to be reconciled. */
  readonly queueDepth: prom.Gauge<'name'>
  /** workqueue_adds_total{name}: ExtensionConfigs added to the queue. */
  readonly queueAdds: prom.Counter<'name'>
  /** workqueue_retries_total{name}: reconciles queued again after an error. */
  readonly queueRetries: prom.Counter<'name'>
  /** runtime_sdk_extensionconfig_discovered{name}: 1 when the last discovery of the ExtensionConfig succeeded, 0 otherwise. */
  readonly discovered: prom.Gauge<'name'>
  /** runtime_sdk_extensionconfig_handlers{name}: the number of registered handlers of the ExtensionConfig. */
  readonly handlers: prom.Gauge<'name'>
  /** runtime_sdk_registry_ready: 1 once every ExtensionConfig was tried at start-up (the registry is warmed up). */
  readonly registryReady: prom.Gauge
  /** leader_election_master_status{name}: 1 while this controller leads the Lease `name`, 0 on standby. */
  readonly leader: prom.Gauge<'name'>
  /** runtime_sdk_cache_stale_seconds: seconds the source's cache has been stale (0 while it follows the API server). */
  readonly cacheStale: prom.Gauge

  /**
   * @param registry receives the metrics.
   * @param staleSince says since when the source's cache is stale (undefined while it is current).
   */
  constructor (readonly registry: prom.Registry, staleSince: () => Date | undefined = () => undefined) {
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
}

/** The work queue's observer that counts into the metrics. */
export function queueObserver (metrics: ControllerMetrics) {
  return {
    added: () => metrics.queueAdds.inc({ name: CONTROLLER }),
    retried: () => metrics.queueRetries.inc({ name: CONTROLLER }),
    depth: (depth: number) => metrics.queueDepth.set({ name: CONTROLLER }, depth)
  }
}

/** Counts one reconcile and its duration. */
export function recordReconcile (metrics: ControllerMetrics, result: 'success' | 'error' | 'requeue_after', seconds: number): void {
  metrics.reconcileTotal.inc({ controller: CONTROLLER, result })
  if (result === 'error') metrics.reconcileErrors.inc({ controller: CONTROLLER })
  metrics.reconcileTime.observe({ controller: CONTROLLER }, seconds)
}

/** Drops the gauges of an ExtensionConfig that went away. */
export function forgetExtensionConfig (metrics: ControllerMetrics, name: string): void {
  metrics.discovered.remove({ name })
  metrics.handlers.remove({ name })
}
