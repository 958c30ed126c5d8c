// Prometheus metrics of one extension server, in a registry of its own (several servers per process work).
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client'

/** Why a call ended in Failure without (or despite) the handler: a stable label value. */
export type FailureReason = 'body_too_large' | 'malformed_json' | 'invalid_request' | 'handler_error' | 'handler_failure' | 'deadline_exceeded' | 'invalid_response'

export interface ServerMetrics {
  registry: Registry
  observe: (labels: { hook: string, handler: string }, status: string, seconds: number, reason?: FailureReason) => void
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
    observe (labels, status, seconds, reason) {
      requests.inc({ ...labels, status })
      duration.observe(labels, seconds)
      if (reason) failures.inc({ ...labels, reason })
    }
  }
}
