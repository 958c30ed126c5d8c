// Traces through the OpenTelemetry API only: a no-op until an application (or `serve` and `controller` with the
// OTEL_* variables, sdk.ts) registers an SDK, as libraries do. A hook call is a span on the extension server
// (continuing the caller's W3C traceparent) and on the runtime client (sending its traceparent); the controller's
// reconciles are spans too. The helpers here keep the hook path to one allocation when nothing is registered.
import { context, type Context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'

export { context, type Span, SpanKind, trace }

/** The tracer of runtime-sdk's spans. */
export const tracer = trace.getTracer('runtime-sdk')

/** The attribute names of our spans (Cluster API's terms). */
export const ATTRIBUTES = {
  hook: 'cluster_api.hook',
  handler: 'cluster_api.handler',
  status: 'cluster_api.response.status',
  retryAfterSeconds: 'cluster_api.response.retry_after_seconds',
  failureReason: 'cluster_api.failure_reason',
  clusterNamespace: 'k8s.namespace.name',
  clusterName: 'cluster_api.cluster.name',
  extensionConfig: 'cluster_api.extension_config',
  httpStatus: 'http.response.status_code',
  serverAddress: 'server.address'
} as const

type Headers = Record<string, string | string[] | undefined>

const getter = {
  keys: (carrier: Headers) => Object.keys(carrier),
  get: (carrier: Headers, key: string) => carrier[key]
}

/** The context a request's traceparent and tracestate headers continue (the root context when there are none). */
export function incomingContext (headers: Headers | undefined): Context {
  return headers && headers['traceparent'] !== undefined ? propagation.extract(ROOT_CONTEXT, headers, getter) : ROOT_CONTEXT
}

/** The headers that carry a span's context to the callee (none when no propagator is registered). */
export function outgoingHeaders (span: Span): Record<string, string> {
  const headers: Record<string, string> = {}
  propagation.inject(trace.setSpan(context.active(), span), headers)
  return headers
}

/** Ends a span with an error status when `error` is given. */
export function endSpan (span: Span, error?: string): void {
  if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error })
  span.end()
}
