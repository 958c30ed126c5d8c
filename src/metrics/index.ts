// Prometheus metrics: prom-client's classes without the parts of the package a process does not use.
export { collectDefaultMetrics, Counter, Gauge, Histogram, loadAggregatorRegistry, Registry } from './prom-client.js'
