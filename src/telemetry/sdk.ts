// OTLP export for `serve` and `controller`, when the standard OTEL_* variables ask for it: OTEL_TRACES_EXPORTER
// naming otlp (and OTEL_SDK_DISABLED not true), the endpoint variables (OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT,
// _HEADERS, _TIMEOUT, read by the exporter), OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL http/protobuf (default) or
// http/json, OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, the batch processor's OTEL_BSP_*. The SDK is loaded only
// then; without them nothing is loaded and nothing is exported.
import { codedError } from '../errors/index.js'
import { context, propagation, trace } from '@opentelemetry/api'

/** An OTEL_* setting we cannot honour (a protocol other than http/protobuf or http/json). */
export class TracingConfigError extends codedError('ERR_RUNTIME_SDK_TRACING_CONFIG') {}

/** Tracing as started: shutdown flushes the spans not yet exported. */
interface Tracing {
  /** protocol is the OTLP protocol spans are exported with. */
  protocol: 'http/protobuf' | 'http/json'
  /** shutdown exports what is pending and stops. */
  shutdown: () => Promise<void>
}

/** Whether the environment asks for OTLP traces. */
export function tracingRequested (env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env['OTEL_SDK_DISABLED'] ?? '').toLowerCase() === 'true') return false
  return (env['OTEL_TRACES_EXPORTER'] ?? '').split(',').map(s => s.trim()).includes('otlp')
}

/** The batch processor's OTEL_BSP_* settings (the SDK no longer reads them itself). */
function batchSettings (env: NodeJS.ProcessEnv): { scheduledDelayMillis?: number, exportTimeoutMillis?: number, maxQueueSize?: number, maxExportBatchSize?: number } {
  const number = (name: string): number | undefined => {
    const value = Number(env[name])
    if (env[name] === undefined || env[name] === '') return undefined
    if (!Number.isInteger(value) || value < 0) throw new TracingConfigError(`${name} ${JSON.stringify(env[name])} is not a non-negative integer`)
    return value
  }
  const settings = {
    scheduledDelayMillis: number('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: number('OTEL_BSP_EXPORT_TIMEOUT'),
    maxQueueSize: number('OTEL_BSP_MAX_QUEUE_SIZE'),
    maxExportBatchSize: number('OTEL_BSP_MAX_EXPORT_BATCH_SIZE')
  }
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined))
}

/**
 * Starts exporting traces when the process's environment asks for it (the exporter reads its OTEL_EXPORTER_OTLP_*
 * variables itself); undefined otherwise, with nothing loaded.
 */
export async function startTracing (defaultServiceName: string): Promise<Tracing | undefined> {
  const env = process.env
  if (!tracingRequested(env)) return undefined
  const protocol = env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ?? env['OTEL_EXPORTER_OTLP_PROTOCOL'] ?? 'http/protobuf'
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') throw new TracingConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL ${protocol} is not supported: use http/protobuf or http/json`)
  const batch = batchSettings(env)
  const [{ BatchSpanProcessor, TracerProvider }, { W3CTraceContextPropagator }, { resourceFromAttributes, envDetector, detectResources }, { AsyncLocalStorageContextManager }, exporterModule] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/context-async-hooks'),
    protocol === 'http/json' ? import('@opentelemetry/exporter-trace-otlp-http') : import('@opentelemetry/exporter-trace-otlp-proto')
  ])
  const resource = resourceFromAttributes({ 'service.name': env['OTEL_SERVICE_NAME'] ?? defaultServiceName }).merge(detectResources({ detectors: [envDetector] }))
  const provider = new TracerProvider({ resource, spanProcessors: [new BatchSpanProcessor({ exporter: new exporterModule.OTLPTraceExporter(), ...batch })] })
  const contextManager = new AsyncLocalStorageContextManager().enable()
  context.setGlobalContextManager(contextManager)
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(provider)
  return {
    protocol,
    shutdown: async () => {
      await provider.shutdown()
      trace.disable()
      propagation.disable()
      context.disable()
    }
  }
}
