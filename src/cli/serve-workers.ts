// Several processes serving one extension (`runtime-sdk serve --workers N`): Node runs JavaScript on one core per
// process, Go's server on all of them. The primary forks the workers (node:cluster shares the listening socket),
// replaces one that dies, forwards SIGTERM/SIGINT, and answers /metrics requests with every worker's metrics summed.
// serve loads this module only with --workers above 1: node:cluster brings child_process, dgram and more along.
import cluster from 'node:cluster'
import type { Registry } from 'prom-client'
import { loadAggregatorRegistry } from '../shims/prom-client.js'
import { RetryBackoff } from '../backoff/backoff.js'
import type { MetricsView } from '../server/server.js'

const METRICS_REQUEST = 'runtime-sdk:metrics-request'
const METRICS_RESPONSE = 'runtime-sdk:metrics-response'

export function isWorker (): boolean {
  return cluster.isWorker
}

/** In a worker: whether it is the first one (the one that tells what is served). */
export function isFirstWorker (): boolean {
  return cluster.worker?.id === 1
}

/**
 * In the primary: forks `count` workers running this same command with `args` and keeps them running until a
 * signal, then resolves once all have exited. `say` reports worker deaths.
 */
export function superviseWorkers (count: number, args: string[], say: (line: string) => void): Promise<void> {
  cluster.setupPrimary({ args })
  const aggregator = new (loadAggregatorRegistry())()
  let stopping = false
  const backoff = new RetryBackoff({ initialMs: 100, maxMs: 10_000 })
  cluster.on('message', (worker, message: { type?: string, id?: number }) => {
    if (message?.type !== METRICS_REQUEST) return
    aggregator.clusterMetrics().then(
      text => worker.send({ type: METRICS_RESPONSE, id: message.id, text }),
      (err: Error) => worker.send({ type: METRICS_RESPONSE, id: message.id, error: err.message })
    )
  })
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return
    const delay = backoff.next()
    say(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another in ${delay} ms`)
    setTimeout(() => { if (!stopping) cluster.fork() }, delay).unref()
  })
  for (let i = 0; i < count; i++) cluster.fork()
  return new Promise(resolve => {
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return
      stopping = true
      say(`${signal}: stopping ${count} workers`)
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal)
    }
    process.once('SIGTERM', () => stop('SIGTERM'))
    process.once('SIGINT', () => stop('SIGINT'))
    cluster.on('exit', () => {
      if (stopping && Object.keys(cluster.workers ?? {}).length === 0) resolve()
    })
  })
}

/** In a worker: a /metrics view that sums the metrics of every worker, asked of the primary. */
export function workersMetricsView (registry: Registry): MetricsView {
  // prom-client answers the primary's requests in a worker once an AggregatorRegistry exists there.
  const AggregatorRegistry = loadAggregatorRegistry()
  AggregatorRegistry.setRegistries([registry])
  new AggregatorRegistry() // eslint-disable-line no-new
  const pending = new Map<number, (reply: { text?: string, error?: string }) => void>()
  let next = 0
  process.on('message', (message: { type?: string, id?: number, text?: string, error?: string }) => {
    if (message?.type !== METRICS_RESPONSE || message.id === undefined) return
    pending.get(message.id)?.(message)
    pending.delete(message.id)
  })
  return {
    contentType: registry.contentType,
    metrics: () => new Promise((resolve, reject) => {
      const id = next++
      pending.set(id, reply => reply.text !== undefined ? resolve(reply.text) : reject(new Error(`metrics of the workers: ${reply.error ?? 'no answer'}`)))
      process.send?.({ type: METRICS_REQUEST, id })
    })
  }
}
