// Prometheus metrics of one extension server, in a registry of its own (several servers per process work).
import { collectDefaultMetrics, Counter, Histogram, Registry } from '../shims/prom-client.js'

/** Why a call ended in Failure without (or despite) the handler: a stable label value. */
export type FailureReason = 'body_too_large' | 'malformed_json' | 'invalid_request' | 'handler_error' | 'handler_failure' | 'deadline_exceeded' | 'invalid_response'

/** The metrics of one hook route: its label children are looked up once, so a call only counts. */
interface RouteMetrics {
  observe: (status: string, seconds: number, reason?: FailureReason) => void
}

export interface ServerMetrics {
  registry: Registry
  route: (labels: { hook: string, handler: string }) => RouteMetrics
}

export function createMetrics (options: { defaultMetrics?: boolean, prefix?: string, registry?: Registry } = {}): ServerMetrics {
  const registry = options.registry ?? new Registry()
  const prefix = options.prefix ?? 'runtime_sdk_extension_'
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: `${prefix}requests_total`,
    help: 'Hook calls answered, by hook, handler and response status.',
    labelNames: ['hook', 'handler', 'status'] as const,
    registers: [registry]
  })
  const duration = new Histogram({
    name: `${prefix}request_duration_seconds`,
    help: 'Time to answer a hook call, by hook and handler.',
    labelNames: ['hook', 'handler'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry]
  })
  const failures = new Counter({
    name: `${prefix}failures_total`,
    help: 'Hook calls answered with status Failure, by hook, handler and reason.',
    labelNames: ['hook', 'handler', 'reason'] as const,
    registers: [registry]
  })
  return {
    registry,
    route ({ hook, handler }) {
      const byStatus = new Map<string, { inc: () => void }>()
      const byReason = new Map<string, { inc: () => void }>()
      const durations = duration.labels(hook, handler)
      return {
        observe (status, seconds, reason) {
          let counter = byStatus.get(status)
          if (!counter) byStatus.set(status, counter = requests.labels(hook, handler, status))
          counter.inc()
          durations.observe(seconds)
          if (!reason) return
          let failed = byReason.get(reason)
          if (!failed) byReason.set(reason, failed = failures.labels(hook, handler, reason))
          failed.inc()
        }
      }
    }
  }
}
