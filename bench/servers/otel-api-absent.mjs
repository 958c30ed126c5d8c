// The least the OpenTelemetry API's names can do: one frozen span, no context, no propagation. The built CLI with
// this in place of @opentelemetry/api (bench/lib/build.ts untracedCli) is scenario 2's `ours-untraced`: the hook
// path without tracing.
export const ROOT_CONTEXT = Object.freeze({})
export const SpanKind = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 }
export const SpanStatusCode = { UNSET: 0, OK: 1, ERROR: 2 }

const span = Object.freeze({
  isRecording: () => false,
  setAttribute () { return span },
  setAttributes () { return span },
  setStatus () { return span },
  recordException () {},
  addEvent () { return span },
  updateName () { return span },
  end () {},
  spanContext: () => ({ traceId: '00000000000000000000000000000000', spanId: '0000000000000000', traceFlags: 0 })
})

const tracer = {
  startSpan: () => span,
  startActiveSpan (_name, ...rest) {
    const fn = rest[rest.length - 1]
    return fn(span)
  }
}

export const trace = {
  getTracer: () => tracer,
  setSpan: (ctx) => ctx,
  getSpan: () => undefined,
  setGlobalTracerProvider: () => false,
  disable () {}
}
export const context = {
  active: () => ROOT_CONTEXT,
  with: (_ctx, fn, thisArg, ...args) => fn.call(thisArg, ...args),
  setGlobalContextManager: () => false,
  disable () {}
}
export const propagation = {
  extract: (ctx) => ctx,
  inject () {},
  setGlobalPropagator: () => false,
  disable () {}
}
