// Scenario 5: the ExtensionConfig controller (runtime-sdk controller, Kubernetes source) discovering 1, 100 and
// 1,000 ExtensionConfigs that already exist when it starts, against the real control plane: time from start to
// every ExtensionConfig Discovered=True at its generation, and the controller's peak RSS.
import { spawn } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { EXTENSION_CONFIG_COLLECTION_PATH as COLLECTION } from '../../src/api/extension-config/constants.js'
import type { ExtensionConfig } from '../../src/api/extension-config/types.js'
import { KubeApi } from '../../src/kube/api.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { createExtensionServer } from '../../src/server/server.js'
import { startControlPlane } from '../../tools/harness/control-plane.js'
import { repoRoot, type Scenario, type ScenarioContext } from '../lib/context.js'
import { controllerId, EXTENSION_CONFIG_COUNTS } from '../lib/ids.js'
import { runToEnd, sampleRss } from '../lib/processes.js'
import { cliCommand } from '../lib/shipped.js'
import { summarize } from '../lib/stats.js'
import type { CaseResult, Run } from '../lib/types.js'

const CRD = 'deploy/crd/bases/runtime.cluster.x-k8s.io_extensionconfigs.yaml'
/** Give up on one repetition after this long (the target is 60 s for 1,000). */
const LIMIT_MS = 180_000

/** Creates ExtensionConfigs bench-<from> up to bench-<to - 1> pointing at the extension, 25 requests at a time. */
async function createExtensionConfigs (api: KubeApi, from: number, to: number, url: string, caBundle: string): Promise<void> {
  const names = Array.from({ length: to - from }, (_, i) => `bench-${String(from + i).padStart(4, '0')}`)
  for (let i = 0; i < names.length; i += 25) {
    await Promise.all(names.slice(i, i + 25).map(name => api.request('POST', COLLECTION, {
      body: { apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name }, spec: { clientConfig: { url, caBundle } } }
    })))
  }
}

async function discoveredCount (api: KubeApi): Promise<number> {
  const list = await api.request<{ items: ExtensionConfig[] }>('GET', COLLECTION)
  return list.items.filter(ec => ec.status?.conditions?.some(c => c.type === 'Discovered' && c.status === 'True' && c.observedGeneration === ec.metadata.generation)).length
}

/** One repetition: start the controller, wait until all are discovered, stop it. */
async function measure (ctx: ScenarioContext, api: KubeApi, kubeconfig: string, count: number): Promise<{ run: Run, rssMb: number | undefined }> {
  const log = openSync(join(ctx.workDir, `controller-${count}.log`), 'a')
  const command = [...ctx.pinning.server, ...cliCommand('controller', ['--kubeconfig', kubeconfig, '--metrics-port', '0', '--log-level', 'warn'])]
  const started = performance.now()
  const child = spawn(command[0] as string, command.slice(1), { cwd: repoRoot, stdio: ['ignore', log, log] })
  closeSync(log)
  // Sampled often: a peak can last only ~50 ms (V8 compiling undici's WebAssembly parser took ~30 MB for that long).
  const rss = sampleRss(child.pid as number, 25)
  const exited = new Promise<void>(resolve => child.once('close', () => resolve()))
  try {
    for (;;) {
      if (await discoveredCount(api) >= count) break
      if (child.exitCode !== null) throw new Error(`the controller exited with ${child.exitCode}; see ${ctx.workDir}/controller-${count}.log`)
      if (performance.now() - started > LIMIT_MS) throw new Error(`not all ${count} ExtensionConfigs were discovered within ${LIMIT_MS / 1000} s`)
      await sleep(count > 100 ? 500 : 100)
    }
    const ms = performance.now() - started
    return { run: { requests: count, durationS: ms / 1000, rps: count / (ms / 1000), p50Ms: ms, p99Ms: ms, maxMs: ms, errors: 0, non2xx: 0 }, rssMb: rss.stop() }
  } finally {
    rss.stop()
    child.kill('SIGTERM')
    await exited
  }
}

/** Clears the status the previous repetition wrote, so the next controller discovers from scratch. */
async function resetStatus (api: KubeApi): Promise<void> {
  const list = await api.request<{ items: ExtensionConfig[] }>('GET', COLLECTION)
  for (let i = 0; i < list.items.length; i += 25) {
    await Promise.all(list.items.slice(i, i + 25).map(ec => api.request('PUT', `${COLLECTION}/${ec.metadata.name}/status`, { body: { ...ec, status: { handlers: [] } } })))
  }
}

export const controllerScenario: Scenario = {
  id: '5',
  name: 'Our controller: discovering ExtensionConfigs',
  description: 'runtime-sdk controller (compiled, with its Deployment\'s NODE_OPTIONS; Kubernetes source, default concurrency 10) started against a real kube-apiserver where N ' +
    'ExtensionConfigs already exist, all pointing at the reference extension (16 handlers) over HTTPS on loopback. Measured: ' +
    'from process start to every ExtensionConfig Discovered=True at its generation (read from the API server), and the ' +
    'controller\'s peak RSS. "req/s" is ExtensionConfigs discovered per second; the latency columns are the total time.',
  columns: ['extensionconfigs'],
  rateUnit: 'ExtensionConfigs/s',
  run: async (ctx) => {
    const counts = (ctx.mode === 'smoke' ? [1, 10] : EXTENSION_CONFIG_COUNTS).filter(n => ctx.selected(controllerId(n)))
    if (counts.length === 0) return []
    const results: CaseResult[] = counts.map(n => ({ id: controllerId(n), labels: { extensionconfigs: String(n) }, runs: [] }))
    // The controller runs as shipped (compiled), not through the TypeScript loader, whose memory would count.
    await runToEnd(['npm', 'run', '-s', 'build'], { cwd: repoRoot })
    const cp = await startControlPlane()
    const extension = createExtensionServer({ handlers: referenceHandlers(), tls: { certFile: join(ctx.certDir, 'tls.crt'), keyFile: join(ctx.certDir, 'tls.key') }, logLevel: 'silent' })
    const api = new KubeApi(cp.kubeconfigPath)
    try {
      const url = await extension.listen({ host: '127.0.0.1', port: 0 })
      const caBundle = readFileSync(join(ctx.certDir, 'ca.crt')).toString('base64')
      const applied = await cp.kubectl(['apply', '-f', join(repoRoot, CRD)])
      if (applied.code !== 0) throw new Error(applied.stderr)
      await cp.kubectl(['wait', '--for=condition=Established', '--timeout=60s', 'crd/extensionconfigs.runtime.cluster.x-k8s.io'])
      let existing = 0
      for (const result of results) {
        const count = Number(result.labels['extensionconfigs'])
        await createExtensionConfigs(api, existing, count, url, caBundle)
        existing = count
        // 1,000 takes long enough that one repetition is the budget; smaller counts get the usual repetitions.
        const repetitions = count >= 1000 ? 1 : ctx.settings.repetitions
        for (let r = 0; r < repetitions; r++) {
          await resetStatus(api)
          const { run, rssMb } = await measure(ctx, api, cp.kubeconfigPath, count)
          result.runs.push(run)
          if (rssMb !== undefined) result.rssMb = Math.max(result.rssMb ?? 0, rssMb)
          ctx.log(`  ${result.id}: all discovered after ${(run.durationS).toFixed(2)} s, RSS ${rssMb?.toFixed(0) ?? '?'} MB`)
        }
        result.summary = summarize(result.runs)
      }
    } catch (err) {
      for (const result of results) if (!result.summary) result.skipped = `failed: ${(err as Error).message.split('\n')[0]}`
      ctx.log(`  controller scenario: ${(err as Error).message}`)
    } finally {
      await api.close()
      await extension.close()
      await cp.stop()
    }
    return results
  }
}
