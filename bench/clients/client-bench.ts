// Scenario 4's measuring process: a HttpRuntimeClient calling mock extensions, one call at a time (one reconcile),
// timed with performance.now(). Reads the plan from the file named by argv[2]; prints one result line per case.
import { readFileSync } from 'node:fs'
import { Agent, request as undiciRequest } from 'undici'
import { BeforeClusterCreate } from '../../src/api/hooks/v1alpha1/index.js'
import { HttpRuntimeClient } from '../../src/client/index.js'
import { extensionConfig } from '../../tools/harness/extension-config.js'
import { runFromLatencies } from '../lib/stats.js'
import type { Run } from '../lib/types.js'
import { beforeClusterCreateRequest } from '../lib/workloads.js'
import { RESULT_MARKER, type ClientCase, type ClientCaseResult, type ClientPlan } from './plan.js'

const plan = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as ClientPlan
const ca = readFileSync(plan.caFile, 'utf8')
const caBundle = Buffer.from(ca).toString('base64')
const request = beforeClusterCreateRequest() as { cluster: { metadata: { name: string, namespace: string } } }
const cluster = request.cluster
let peakRss = 0

function report (result: Omit<ClientCaseResult, 'rssMb'>): void {
  process.stdout.write(`${RESULT_MARKER}${JSON.stringify({ ...result, rssMb: peakRss / (1024 * 1024) })}\n`)
}

/** A client whose registry is warmed up with one ExtensionConfig per handler, each on its own mock extension. */
function clientFor (handlers: number, handlerName: string, dead: boolean): HttpRuntimeClient {
  // No backoff: every repetition must pay for its dead handlers (with backoff, later calls fail fast instead).
  const client = new HttpRuntimeClient({ backoff: false })
  client.warmUp(Array.from({ length: handlers }, (_, i) => extensionConfig(`ext-${i}`, plan.urls[i] as string, caBundle, [{
    name: handlerName, hook: 'BeforeClusterCreate', timeoutSeconds: dead ? 1 : 10, failurePolicy: dead ? 'Ignore' : 'Fail'
  }])))
  return client
}

/** Calls `call` back to back for plan.repS (at least minCalls times) and summarizes the latencies. */
async function repetition (call: () => Promise<unknown>, minCalls = plan.minCalls, repS = plan.repS): Promise<Run> {
  const latencies: number[] = []
  let errors = 0
  const started = performance.now()
  while (latencies.length < minCalls || performance.now() - started < repS * 1000) {
    const t0 = performance.now()
    try {
      await call()
    } catch (err) {
      errors++
      if (errors === 1) process.stderr.write(`call failed: ${(err as Error).message}\n`)
    }
    latencies.push(performance.now() - t0)
    peakRss = Math.max(peakRss, process.memoryUsage.rss())
  }
  return runFromLatencies(latencies, (performance.now() - started) / 1000, errors)
}

async function runCase (c: ClientCase): Promise<void> {
  peakRss = 0
  const dead = c.kind === 'dead'
  const client = clientFor(c.handlers, dead ? 'dead' : `sleep-${c.latencyMs}`, dead)
  const call = () => client.callAllExtensions(BeforeClusterCreate, cluster, request as never, { sequential: c.sequential })
  try {
    if (!dead) for (let i = 0; i < plan.warmupCalls; i++) await call()
    const runs: Run[] = []
    // A dead-handler call lasts at least one timeout: one call is one repetition.
    for (let r = 0; r < plan.repetitions; r++) runs.push(dead ? await repetition(call, 1, 0) : await repetition(call))
    report({ id: c.id, runs })
  } finally {
    await client.close()
  }
}

/**
 * Client overhead: the same call through callExtension, through callAllExtensions with one handler, and as a raw
 * undici request (stringify, POST on a keep-alive TLS connection, read, parse), interleaved repetition by
 * repetition so that drift on a shared machine hits all three alike.
 */
async function runOverhead (ids: ClientPlan['overhead']): Promise<void> {
  const client = clientFor(1, 'sleep-0', false)
  const agent = new Agent({ connect: { ca } })
  const url = `${plan.urls[0]}/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/sleep-0?timeout=10s`
  const kinds: Array<[string | undefined, () => Promise<unknown>]> = [
    [ids.raw, async () => {
      const res = await undiciRequest(url, { method: 'POST', body: JSON.stringify(request), dispatcher: agent })
      return JSON.parse(await res.body.text()) as unknown
    }],
    [ids.callExtension, () => client.callExtension(BeforeClusterCreate, cluster, 'sleep-0.ext-0', request as never)],
    [ids.callAll, () => client.callAllExtensions(BeforeClusterCreate, cluster, request as never)]
  ]
  const chosen = kinds.filter((k): k is [string, () => Promise<unknown>] => k[0] !== undefined)
  const runs = new Map<string, Run[]>(chosen.map(([id]) => [id, []]))
  const peaks = new Map<string, number>()
  try {
    for (const [, call] of chosen) for (let i = 0; i < 10 * plan.warmupCalls; i++) await call()
    for (let r = 0; r < plan.repetitions; r++) {
      for (const [id, call] of chosen) {
        peakRss = 0
        runs.get(id)?.push(await repetition(call))
        peaks.set(id, Math.max(peaks.get(id) ?? 0, peakRss))
      }
    }
    for (const [id] of chosen) {
      peakRss = peaks.get(id) ?? 0
      report({ id, runs: runs.get(id) ?? [] })
    }
  } finally {
    await client.close()
    await agent.close()
  }
}

if (Object.keys(plan.overhead).length > 0) await runOverhead(plan.overhead)
for (const c of plan.cases) await runCase(c)
