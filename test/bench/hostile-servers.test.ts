// Scenario 7 runs every server its targets judge, each over the transport the targets name, and probes idle
// sockets on ours only; the webhook's healthy client sends a review the webhook converts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { reviewConversion } from '../../src/api/extension-config/conversion.js'
import type { ScenarioContext } from '../../bench/lib/context.js'
import { HOSTILE_SERVERS } from '../../bench/lib/ids.js'
import { hostileServers } from '../../bench/scenarios/hostile-servers.js'

t.test('the servers of scenario 7', async t => {
  const workDir = mkdtempSync(join(tmpdir(), 'hostile-servers-'))
  t.teardown(() => rmSync(workDir, { recursive: true, force: true }))
  const ctx = { workDir, certDir: join(workDir, 'certs') } as ScenarioContext
  const servers = hostileServers(ctx, { path: '/hook', bodyFile: join(workDir, 'hook.json'), label: 'POST hook' })
  t.same(servers.map(s => s.key), ['ours', 'capi-go', 'controller', 'controller-secure', 'webhook'])
  for (const [key, { tls }] of Object.entries(HOSTILE_SERVERS)) {
    const server = servers.find(s => s.key === key)
    t.equal(server?.tls, tls, `${key}: the transport the targets name`)
    t.equal(server?.probed, true, `${key}: idle sockets probed`)
  }
  t.equal(servers.find(s => s.key === 'capi-go')?.probed, false, 'Go\'s server closes no idle socket')
  const webhook = servers.find(s => s.key === 'webhook')?.request
  const review = JSON.parse(readFileSync(webhook?.bodyFile as string, 'utf8')) as { kind: string, request: { objects: unknown[] } }
  t.same([webhook?.path, webhook?.headers, review.kind, review.request.objects.length], ['/convert', { 'content-type': 'application/json' }, 'ConversionReview', 1])
  // The webhook answers 200 to a review it cannot convert too: the body must be one it converts.
  t.equal(reviewConversion(review).response.result.status, 'Success')
})
