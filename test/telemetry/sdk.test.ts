// OTLP export as the OTEL_* variables ask for it: only when OTEL_TRACES_EXPORTER names otlp (and the SDK is not
// disabled), over http/protobuf (the default) or http/json; another protocol or a bad batch setting is refused with
// a message naming the variable. (End to end, across processes: test/e2e/tracing.test.ts.)
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { startTracing, TracingConfigError, tracingRequested } from '../../src/telemetry/sdk.js'
import { tracer } from '../../src/telemetry/trace.js'

/** Runs fn with these OTEL_* variables set, then puts the environment back. */
async function withEnv<T> (vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map(k => [k, process.env[k]]))
  Object.assign(process.env, vars)
  try {
    return await fn()
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) Reflect.deleteProperty(process.env, k)
      else process.env[k] = v
    }
  }
}

t.test('only OTEL_TRACES_EXPORTER naming otlp turns it on', async t => {
  t.equal(tracingRequested({}), false, 'no variables: off')
  t.equal(tracingRequested({ OTEL_TRACES_EXPORTER: 'none' }), false)
  t.equal(tracingRequested({ OTEL_TRACES_EXPORTER: 'console, otlp' }), true)
  t.equal(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'TRUE' }), false, 'OTEL_SDK_DISABLED wins')
  t.equal(await withEnv({ OTEL_TRACES_EXPORTER: 'none' }, async () => await startTracing('x')), undefined)
})

t.test('a protocol or batch setting it cannot honour is refused, naming it', async t => {
  await t.rejects(withEnv({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, async () => await startTracing('x')),
    new TracingConfigError('OTEL_EXPORTER_OTLP_PROTOCOL grpc is not supported: use http/protobuf or http/json'))
  await t.rejects(withEnv({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_BSP_SCHEDULE_DELAY: 'soon' }, async () => await startTracing('x')),
    new TracingConfigError('OTEL_BSP_SCHEDULE_DELAY "soon" is not a non-negative integer'))
})

t.test('http/protobuf by default: spans reach the endpoint, flushed on shutdown', async t => {
  const received: Array<{ url: string, type: string, bytes: number }> = []
  const receiver = createServer((req, res) => {
    let bytes = 0
    req.on('data', (c: Buffer) => { bytes += c.length }).on('end', () => {
      received.push({ url: req.url ?? '', type: String(req.headers['content-type']), bytes })
      res.writeHead(200).end()
    })
  })
  await new Promise<void>(resolve => receiver.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { receiver.close() })
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  await withEnv({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '60000' }, async () => {
    const tracing = await startTracing('unit')
    t.equal(tracing?.protocol, 'http/protobuf')
    tracer.startSpan('one').end()
    t.same(received, [], 'batched, not yet sent')
    await tracing?.shutdown()
  })
  t.match(received, [{ url: '/v1/traces', type: 'application/x-protobuf' }], 'sent on shutdown')
  t.ok((received[0]?.bytes ?? 0) > 20, 'a span in the body')
})
