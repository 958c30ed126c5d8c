// deploy/observability: every query of the Grafana dashboard and of the alert rules parses with Prometheus' own PromQL
// grammar (@prometheus-io/lezer-promql, what Prometheus' UI parses with), names only metrics runtime-sdk exports
// (histograms through their _bucket, _sum and _count series), and groups or matches only on labels those metrics have.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parser } from '@prometheus-io/lezer-promql'
import t from 'tap'
import { parse } from 'yaml'
import { RuntimeClientMetrics } from '../../src/client/metrics.js'
import { ControllerMetrics } from '../../src/controller/metrics.js'
import { createMetrics } from '../../src/server/metrics.js'
import { Registry } from '../../src/shims/prom-client.js'

const dir = fileURLToPath(new URL('../../deploy/observability/', import.meta.url))
const dashboard = JSON.parse(readFileSync(`${dir}runtime-sdk-dashboard.json`, 'utf8')) as { panels: Array<{ title: string, targets: Array<{ expr: string }> }> }
const rules = parse(readFileSync(`${dir}alert-rules.yaml`, 'utf8')) as { spec: { groups: Array<{ rules: Array<{ alert: string, expr: string, for?: string }> }> } }
const queries = [
  ...dashboard.panels.flatMap(p => p.targets.map(x => ({ where: `panel "${p.title}"`, expr: x.expr.replaceAll('$__rate_interval', '5m') }))),
  ...rules.spec.groups.flatMap(g => g.rules.map(r => ({ where: `alert ${r.alert}`, expr: r.expr })))
]

/** Every metric runtime-sdk exports, with its labels: the extension server's, the runtime client's, the controller's. */
function exported (): Map<string, Set<string>> {
  const registry = new Registry()
  createMetrics({ registry })
  const client = new RuntimeClientMetrics(registry)
  const controller = new ControllerMetrics(registry)
  if (client.registry !== registry || controller.registry !== registry) throw new Error('one registry')
  const metrics = new Map<string, Set<string>>()
  for (const metric of registry.getMetricsAsArray() as unknown as Array<{ name: string, labelNames?: string[], constructor: { name: string } }>) {
    const labels = new Set(metric.labelNames ?? [])
    if (metric.constructor.name === 'Histogram') {
      metrics.set(`${metric.name}_bucket`, new Set([...labels, 'le']))
      for (const suffix of ['_sum', '_count']) metrics.set(`${metric.name}${suffix}`, labels)
    } else {
      metrics.set(metric.name, labels)
    }
  }
  return metrics
}

/** What a query names: each vector selector's metric and matched labels, and the labels of its by/without clauses. */
function namesOf (expr: string): { errors: number, selectors: Array<{ metric: string, labels: string[] }>, grouping: string[] } {
  const tree = parser.parse(expr)
  let errors = 0
  const selectors: Array<{ metric: string, labels: string[] }> = []
  const grouping: string[] = []
  tree.iterate({
    enter: node => {
      if (node.type.isError) errors++
      if (node.name === 'VectorSelector') {
        const text = (n: { from: number, to: number }) => expr.slice(n.from, n.to)
        const metric = node.node.getChild('Identifier')
        const labels: string[] = []
        const matchers = node.node.getChild('LabelMatchers')
        matchers?.toTree().iterate({ enter: m => { if (m.name === 'LabelName') labels.push(expr.slice((matchers.from) + m.from, (matchers.from) + m.to)) } })
        selectors.push({ metric: metric ? text(metric) : '', labels })
      }
      if (node.name === 'GroupingLabels') {
        node.node.toTree().iterate({ enter: m => { if (m.name === 'LabelName') grouping.push(expr.slice(node.from + m.from, node.from + m.to)) } })
      }
    }
  })
  return { errors, selectors, grouping }
}

t.test('every query parses, and names only exported metrics and their labels', async t => {
  const metrics = exported()
  t.ok(queries.length >= 14, `${queries.length} queries`)
  for (const { where, expr } of queries) {
    const { errors, selectors, grouping } = namesOf(expr)
    t.equal(errors, 0, `${where}: parses: ${expr}`)
    t.ok(selectors.length > 0, `${where}: names a metric`)
    const labels = new Set<string>()
    for (const s of selectors) {
      const known = metrics.get(s.metric)
      t.ok(known, `${where}: ${s.metric} is a metric runtime-sdk exports`)
      for (const l of s.labels) t.ok(known?.has(l), `${where}: ${s.metric} has the label ${l}`)
      for (const l of known ?? []) labels.add(l)
    }
    for (const l of grouping) t.ok(labels.has(l), `${where}: groups by ${l}, a label of what it selects`)
  }
})

t.test('the test sees mistakes: a typo, a metric that does not exist, a label it does not have', async t => {
  t.ok(namesOf('sum by (hook (rate(x[5m]))').errors > 0, 'a missing parenthesis')
  t.notOk(exported().has('capi_runtime_sdk_request_total'), 'capi_runtime_sdk_request_total (singular) is not exported')
  const { selectors, grouping } = namesOf('sum by (reason) (rate(capi_runtime_sdk_requests_total{result="x"}[5m]))')
  t.same(selectors, [{ metric: 'capi_runtime_sdk_requests_total', labels: ['result'] }])
  t.same(grouping, ['reason'])
  t.notOk(exported().get('capi_runtime_sdk_requests_total')?.has('result'))
})

t.test('every alert waits before it fires and says what to do', async t => {
  for (const group of rules.spec.groups) {
    for (const rule of group.rules as Array<{ alert: string, for?: string, annotations?: { summary?: string, description?: string } }>) {
      t.match(rule.for, /^\d+m$/, `${rule.alert} has a for:`)
      t.ok(rule.annotations?.summary && rule.annotations.description, `${rule.alert} has a summary and a description`)
    }
  }
})
