// prom-client's metric classes, each loaded from its own file. The package's index also loads the default process
// metrics, the Summary's t-digest, the Pushgateway and @opentelemetry/api: ~5 MB of `serve`'s idle resident set
// (measured) that a process using none of them would carry. The classes are the package's own (the same files its
// index exports), so `instanceof` and registries shared with code importing 'prom-client' work as usual.
import { createRequire } from 'node:module'
import type * as PromClient from 'prom-client'

const require = createRequire(import.meta.url)

// Each name is a class, value and instance type, as 'prom-client' exports it.
/* eslint-disable @typescript-eslint/no-redeclare */
export const Registry = require('prom-client/lib/registry') as typeof PromClient.Registry
export const Counter = require('prom-client/lib/counter') as typeof PromClient.Counter
export const Gauge = require('prom-client/lib/gauge') as typeof PromClient.Gauge
export const Histogram = require('prom-client/lib/histogram') as typeof PromClient.Histogram
export type Registry = PromClient.Registry
export type Counter<T extends string = string> = PromClient.Counter<T>
export type Gauge<T extends string = string> = PromClient.Gauge<T>
export type Histogram<T extends string = string> = PromClient.Histogram<T>
/* eslint-enable @typescript-eslint/no-redeclare */

/** prom-client's default process metrics (CPU, memory, event loop lag, GC), loaded on first use. */
export function collectDefaultMetrics (config?: Parameters<typeof PromClient.collectDefaultMetrics>[0]): void {
  (require('prom-client/lib/defaultMetrics') as typeof PromClient.collectDefaultMetrics)(config)
}

/** prom-client's AggregatorRegistry, which sums the metrics of node:cluster workers (`serve --workers`). */
export function loadAggregatorRegistry (): typeof PromClient.AggregatorRegistry {
  return require('prom-client/lib/cluster') as typeof PromClient.AggregatorRegistry
}
