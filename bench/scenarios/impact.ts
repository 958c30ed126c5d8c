// Scenario 8: rollout-impact over many Clusters. A child process (bench/clients/impact-bench.ts) builds a management
// cluster in memory of N Clusters of examples/simulate's class, then computes the impact of a second version of the
// reference extension against the first, both in process; its peer is the same child computing each Cluster's
// desired state once (the least a prediction costs). Measured: the wall time of the pass and the child's peak RSS.
import { nodeScript, repoRoot, type Scenario } from '../lib/context.js'
import { impactId } from '../lib/ids.js'
import { sampleRss } from '../lib/processes.js'
import { summarize } from '../lib/stats.js'
import type { CaseResult } from '../lib/types.js'
import { spawn } from 'node:child_process'

async function measure (clusters: number, mode: 'impact' | 'dry-run', pinning: string[]): Promise<{ ms: number, rssMb: number | undefined }> {
  const command = [...pinning, ...nodeScript('clients/impact-bench.ts'), String(clusters), mode]
  const child = spawn(command[0] as string, command.slice(1), { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] })
  const rss = sampleRss(child.pid as number, 50)
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c })
  child.stderr.setEncoding('utf8').on('data', (c: string) => { err += c })
  const code = await new Promise<number | null>(resolve => child.once('close', resolve))
  const rssMb = rss.stop()
  const line = out.split('\n').find(l => l.startsWith('RESULT '))
  if (code !== 0 || !line) throw new Error(`impact-bench ${clusters} ${mode} exited with ${code}: ${err.slice(-1000)}`)
  return { ms: (JSON.parse(line.slice('RESULT '.length)) as { ms: number }).ms, rssMb }
}

export const impactScenario: Scenario = {
  id: '8',
  name: 'Rollout impact over many Clusters',
  description: 'rolloutImpact (runtime-sdk/impact) over N Clusters of examples/simulate\'s class read from a management cluster in memory: ' +
    'each Cluster read, its desired state computed with the reference extension and with a second version (both in process), compared. ' +
    'Peer: the same child computing each desired state once (dry-run). "req/s" is Clusters per second; the latency columns are the whole pass; ' +
    'RSS is the child\'s peak (the in-memory cluster included).',
  columns: ['clusters', 'computation'],
  rateUnit: 'Clusters/s',
  run: async (ctx) => {
    const counts = ctx.mode === 'smoke' ? [20] : [1000]
    const results: CaseResult[] = []
    for (const clusters of counts) {
      for (const mode of ['dry-run', 'impact'] as const) {
        const id = impactId(mode, clusters)
        if (!ctx.selected(id)) continue
        const result: CaseResult = { id, labels: { clusters: String(clusters), computation: mode === 'impact' ? 'rollout impact (2 versions)' : 'desired state once (peer)' }, runs: [], ...(mode === 'impact' ? { compare: { kind: 'latency', baseline: impactId('dry-run', clusters) } } : {}) }
        try {
          const repetitions = ctx.mode === 'smoke' ? 1 : Math.min(ctx.settings.repetitions, 2)
          for (let r = 0; r < repetitions; r++) {
            const { ms, rssMb } = await measure(clusters, mode, ctx.pinning.server)
            result.runs.push({ requests: clusters, durationS: ms / 1000, rps: clusters / (ms / 1000), p50Ms: ms, p99Ms: ms, maxMs: ms, errors: 0, non2xx: 0 })
            if (rssMb !== undefined) result.rssMb = Math.max(result.rssMb ?? 0, rssMb)
            ctx.log(`  ${id}: ${(ms / 1000).toFixed(2)} s, RSS ${rssMb?.toFixed(0) ?? '?'} MB`)
          }
          result.summary = summarize(result.runs)
        } catch (err) {
          result.skipped = `failed: ${(err as Error).message.split('\n')[0] ?? ''}`
          ctx.log(`  ${id}: ${(err as Error).message}`)
        }
        results.push(result)
      }
    }
    return results
  }
}
