// Prometheus metrics of the runtime client, named and labelled like Cluster API's (internal/runtime/metrics).
import type * as prom from 'prom-client'
import { Counter, Gauge, Histogram, Registry } from '../shims/prom-client.js'

/** Cluster API's buckets for capi_runtime_sdk_request_duration_seconds. */
export const REQUEST_DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60]

/**
 * The Prometheus metrics of a runtime client, named and labelled like Cluster API's runtime client metrics (plus the
 * ignored failures and backoff ones). Metrics already in the registry under these names are reused, so several
 * clients can share one registry.
 */
export class RuntimeClientMetrics {
  /** registry holds the metrics. */
  readonly registry: prom.Registry
  /** capi_runtime_sdk_requests_total{code,host,group,version,hook,status} */
  readonly requestsTotal: prom.Counter<'code' | 'host' | 'group' | 'version' | 'hook' | 'status'>
  /** capi_runtime_sdk_request_duration_seconds{host,group,version,hook} */
  readonly requestDuration: prom.Histogram<'host' | 'group' | 'version' | 'hook'>
  /** capi_runtime_sdk_ignored_failures_total: calling errors swallowed by failurePolicy Ignore (fail open). */
  readonly ignoredFailures: prom.Counter<'host' | 'group' | 'version' | 'hook' | 'name'>
  /** capi_runtime_sdk_backoff_rejections_total: calls failed fast because the handler is backing off. */
  readonly backoffRejections: prom.Counter<'group' | 'version' | 'hook' | 'name'>
  /** capi_runtime_sdk_handlers_backing_off: handlers currently backing off after calling errors. */
  readonly handlersBackingOff: prom.Gauge

  /**
   * @param registry receives the metrics (default: a new one).
   * @param backingOff counts the handlers backing off, read when the gauge is collected.
   */
  constructor (registry: prom.Registry = new Registry(), backingOff: () => number = () => 0) {
    this.registry = registry
    this.requestsTotal = reuse(registry, 'capi_runtime_sdk_requests_total', () => new Counter({
      name: 'capi_runtime_sdk_requests_total',
      help: 'Number of HTTP requests to Runtime Extensions, partitioned by status code, host, group, version, hook and response status.',
      labelNames: ['code', 'host', 'group', 'version', 'hook', 'status'] as const,
      registers: [registry]
    }))
    this.requestDuration = reuse(registry, 'capi_runtime_sdk_request_duration_seconds', () => new Histogram({
      name: 'capi_runtime_sdk_request_duration_seconds',
      help: 'Request duration in seconds of requests to Runtime Extensions, partitioned by host, group, version and hook.',
      labelNames: ['host', 'group', 'version', 'hook'] as const,
      buckets: REQUEST_DURATION_BUCKETS,
      registers: [registry]
    }))
    this.ignoredFailures = reuse(registry, 'capi_runtime_sdk_ignored_failures_total', () => new Counter({
      name: 'capi_runtime_sdk_ignored_failures_total',
      help: 'Number of calls to Runtime Extension handlers whose errors were ignored because of failurePolicy Ignore (failing open).',
      labelNames: ['host', 'group', 'version', 'hook', 'name'] as const,
      registers: [registry]
    }))
    this.backoffRejections = reuse(registry, 'capi_runtime_sdk_backoff_rejections_total', () => new Counter({
      name: 'capi_runtime_sdk_backoff_rejections_total',
      help: 'Number of calls to Runtime Extension handlers failed fast because the handler is backing off after errors.',
      labelNames: ['group', 'version', 'hook', 'name'] as const,
      registers: [registry]
    }))
    this.handlersBackingOff = reuse(registry, 'capi_runtime_sdk_handlers_backing_off', () => new Gauge({
      name: 'capi_runtime_sdk_handlers_backing_off',
      help: 'Number of Runtime Extension handlers currently backing off after calling errors.',
      registers: [registry],
      collect () { this.set(backingOff()) }
    }))
  }
}

/** The metric already registered under `name` (a registry shared by several components), else a new one. */
export function reuse<T> (registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create()
}
