// Randomised interop with Cluster API's Go types, both directions:
//
// a. Cluster API's side calls ours: `randreq` fills requests of every hook at random from Cluster API's Go types
//    (seeded, valid as the API server stores objects; tools/capi-interop/internal/randomized) plus large but valid
//    ones (1,100 labels, 2,000 annotations, 300 settings, a 100 KiB setting, 1,000 variables, a 100 step upgrade
//    plan), POSTs them like Cluster API's client to our reference extension (`runtime-sdk serve`), and every one
//    must be accepted: HTTP 200, an answer that decodes into the Go response type, and no "invalid request",
//    "error unmarshalling request" or "error reading request" failure.
// b. Our client calls Cluster API's server SDK: the Go extension answers every handler with random responses of the
//    hook's Go type (`--random-responses-seed`: Failures, 40,000 character messages, 1,500 discovered variables,
//    10,000 character schema descriptions, 100 step upgrade plans, base64 JSON patches, ...) and logs each answer
//    with the value Cluster API's client decodes from it; our RuntimeClient must accept each and hand back that value
//    (Failures: a RuntimeCallError with Cluster API's message, the response in the handler outcome).
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import t from 'tap'
import type { HookDefinition } from '../../src/api/hooks/define.js'
import { hooks as v1alpha1Hooks, sampleRequest } from '../../src/api/hooks/v1alpha1/index.js'
import type { ExtensionConfig } from '../../src/api/extension-config/types.js'
import { serve } from '../../src/cli/serve.js'
import { HttpRuntimeClient, RuntimeCallError } from '../../src/client/index.js'
import {
  buildCapiInterop,
  goAvailable,
  readCapiAnswers,
  runRandReq,
  startCapiExtension,
  type CapiAnswer,
  type RandReqCall
} from '../../tools/harness/capi-interop.js'

// A cold build of tools/capi-interop compiles controller-runtime and client-go.
t.setTimeout(900_000)
const skip = goAvailable() ? false : 'go is not installed'

const SEED = 20260314
/** Random requests per hook: 17 hooks x 25 + 79 large cases = 504 calls (plus discovery). */
const PER_HOOK = 25
/** Calls of each of the Go extension's 19 handlers: 570 calls; every response shape recurs every 10 calls. */
const CALLS_PER_HANDLER = 30
const MIN_CALLS = 480
const ALL_HOOKS = v1alpha1Hooks.map(h => h.hook)
/** Messages our server answers when it rejects a request before any handler ran. */
const REJECTED = /^(invalid request|error unmarshalling request|error reading request)/

const clip = (s: string, n = 200) => s.length > n ? `${s.slice(0, n)}...` : s

t.test('a. every request Cluster API\'s Go types produce at random is accepted by our reference extension', { skip }, async t => {
  await buildCapiInterop()
  const certDir = await mkdtemp(join(tmpdir(), 'runtime-sdk-randomized-'))
  t.teardown(() => rm(certDir, { recursive: true, force: true }))
  // `runtime-sdk serve`'s own code, in this process: the reference extension with a generated CA in certDir.
  const server = await serve({ port: 0, host: '127.0.0.1', certDir, logLevel: 'warn' }, () => {})
  t.teardown(() => server.close())
  const url = `https://127.0.0.1:${server.address()?.port ?? 0}`

  const started = Date.now()
  const res = await runRandReq(['--seed', String(SEED), '--per-hook', String(PER_HOOK), '--url', url, '--ca-file', join(certDir, 'ca.crt')], { timeoutMs: 10 * 60_000 })
  t.comment(`randreq: ${res.calls.length} calls in ${Math.round((Date.now() - started) / 1000)} s`)
  t.equal(res.code, 0, 'randreq made every call', { stderr: res.stderr })
  const [discovery, ...calls] = res.calls
  t.match(discovery, { hook: 'Discovery', case: 'discovery', httpStatus: 200, status: 'Success' }, 'discovery')
  t.ok(calls.length >= MIN_CALLS, `at least ${MIN_CALLS} calls (${calls.length})`)
  t.same([...new Set(calls.map(c => c.hook))].sort(), [...ALL_HOOKS].sort(), 'requests of all 17 hooks were sent')
  const large = calls.filter(c => c.case.startsWith('large-'))
  t.same([...new Set(large.map(c => c.case))].sort(), [
    'large-annotations-2000', 'large-labels-1100', 'large-setting-value-100KiB', 'large-settings-300',
    'large-topology-variables-1000', 'large-upgrade-plan-100', 'large-variables-1000'
  ], 'the large cases were sent')
  t.ok(calls.every(c => c.bytes < 20 * 1024 * 1024), 'every request is under Cluster API\'s 20 MiB limit')

  const rejected: RandReqCall[] = []
  for (const c of calls) {
    if (c.httpStatus !== 200 || c.error !== undefined || REJECTED.test(c.message)) rejected.push(c)
  }
  if (rejected.length > 0) {
    t.comment(`${rejected.length} of ${calls.length} valid requests were not accepted:\n` + rejected.map(c =>
      `  ${c.hook} ${c.case} (${c.bytes} bytes): ${c.httpStatus} ${clip(c.error ?? `${c.status}: ${c.message}`)}`).join('\n'))
  }
  t.equal(rejected.length, 0, 'every request was accepted: HTTP 200, decodable, not rejected (the comment above lists the others)')
  const statuses = new Map<string, number>()
  for (const c of calls) statuses.set(c.status, (statuses.get(c.status) ?? 0) + 1)
  t.comment(`statuses: ${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')}`)
})

/** What a hook's response looks like once our client is done with it, for comparison: no kind/apiVersion. */
function withoutTypeMeta (response: Record<string, unknown> | undefined): unknown {
  if (response === undefined) return undefined
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = JSON.parse(JSON.stringify(response)) as Record<string, unknown>
  return rest
}

/** The response shape of a call index (internal/randomized.ShapeOf), for the report. */
function shapeOf (call: number): string {
  const parts = []
  if (call % 5 === 4) parts.push('Failure')
  if (call % 10 === 3 || call % 10 === 9) parts.push('40000-char message')
  if (call % 10 === 5) parts.push('many (1500 variables / 100 plan steps)')
  if (call % 10 === 7) parts.push('10000-char variable description')
  return parts.join(', ') || 'plain'
}

interface Mismatch { hook: string, handler: string, call: number, shape: string, why: string }

t.test('b. our client accepts every random answer of Cluster API\'s server SDK and hands back what Cluster API\'s client would', { skip }, async t => {
  await buildCapiInterop()
  const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-random-answers-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const answersLog = join(dir, 'answers.jsonl')
  const ext = await startCapiExtension({ randomResponsesSeed: SEED, answersLog, exitAfter: '12m' })
  t.teardown(ext.stop)

  const client = new HttpRuntimeClient({ backoff: false })
  t.teardown(() => client.close())
  const ecName = 'capi-random'
  const ec: ExtensionConfig = {
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name: ecName, resourceVersion: '1' },
    spec: { clientConfig: { url: ext.url, caBundle: (await readFile(ext.caFile)).toString('base64') }, namespaceSelector: {} }
  }
  const discovered = await client.discover(ec)
  client.warmUp([discovered])
  const handlers = discovered.status?.handlers ?? []
  t.equal(handlers.length, 19, 'discovered the 19 handlers of the Go extension')

  interface Result { hook: string, handler: string, call: number, response?: Record<string, unknown>, error?: unknown, ignored?: string }
  const results: Result[] = []
  const started = Date.now()
  // Handlers run in parallel (4 at a time); each handler's calls are sequential, so its n-th call is the n-th
  // answer the extension logged for it.
  const queue = [...handlers]
  await Promise.all(Array.from({ length: 4 }, async () => {
    for (let h = queue.shift(); h !== undefined; h = queue.shift()) {
      const hookName = h.requestHook.hook
      const definition = v1alpha1Hooks.find(d => d.hook === hookName) as HookDefinition | undefined
      const request = sampleRequest(hookName)
      if (definition === undefined || request === undefined) throw new Error(`no hook definition or sample for ${hookName}`)
      const forObject = (request['cluster'] as Record<string, unknown> | undefined) ?? { metadata: { namespace: 'default' } }
      const handler = h.name.slice(0, -(ecName.length + 1))
      for (let call = 0; call < CALLS_PER_HANDLER; call++) {
        try {
          const { response, handlers: outcomes } = await client.callExtension(definition, forObject, h.name, sampleRequest(hookName) as never)
          const ignored = outcomes[0]?.ignored === true ? outcomes[0].error ?? '' : undefined
          results.push({ hook: hookName, handler, call, response: response as Record<string, unknown>, ...(ignored !== undefined ? { ignored } : {}) })
        } catch (error) {
          results.push({ hook: hookName, handler, call, error })
        }
      }
    }
  }))
  t.comment(`${results.length} calls in ${Math.round((Date.now() - started) / 1000)} s`)
  t.ok(results.length >= MIN_CALLS, `at least ${MIN_CALLS} calls (${results.length})`)
  t.same([...new Set(results.map(r => r.hook))].sort(), ALL_HOOKS.filter(h => h !== 'Discovery').sort(), 'every hook with handlers was called')

  const answers = new Map<string, CapiAnswer>()
  for (const a of await readCapiAnswers(answersLog)) answers.set(`${a.handler}#${a.call}`, a)
  t.equal(answers.size, results.length, 'the extension logged one answer per call')

  const mismatches: Mismatch[] = []
  let failures = 0
  let compared = 0
  for (const r of results) {
    const mismatch = (why: string) => mismatches.push({ hook: r.hook, handler: r.handler, call: r.call, shape: shapeOf(r.call), why })
    const answer = answers.get(`${r.handler}#${r.call}`)
    if (answer === undefined) { mismatch('no logged answer'); continue }
    const decoded = answer.decoded
    const registered = `${r.handler}.${ecName}`
    if (decoded['status'] === 'Failure') {
      failures++
      // Cluster API's client: `failed to call extension handler "<name>": got failure response with message: <message>`.
      const want = `failed to call extension handler "${registered}": got failure response with message: ${String(decoded['message'] ?? '')}`
      if (r.ignored !== undefined) { mismatch(`a Failure answer was rejected, then ignored (failurePolicy Ignore): ${clip(r.ignored)}`); continue }
      if (!(r.error instanceof RuntimeCallError)) { mismatch(r.error === undefined ? 'a Failure answer was not an error' : `not a RuntimeCallError: ${String(r.error)}`); continue }
      if (r.error.message !== want) { mismatch(`error message: ${clip(r.error.message)}`); continue }
      if (!isDeepStrictEqual(withoutTypeMeta(r.error.handlers[0]?.response), decoded)) mismatch('the Failure response differs from what Cluster API decodes')
      continue
    }
    if (r.error !== undefined) { mismatch(`rejected: ${clip(r.error instanceof Error ? r.error.message : String(r.error))}`); continue }
    if (r.ignored !== undefined) { mismatch(`rejected, then ignored (failurePolicy Ignore): ${clip(r.ignored)}`); continue }
    if (!isDeepStrictEqual(withoutTypeMeta(r.response), decoded)) mismatch(`response differs from what Cluster API decodes: ${clip(JSON.stringify(withoutTypeMeta(r.response)))}`)
    else if (Object.keys(decoded).some(k => !['status', 'message', 'retryAfterSeconds'].includes(k))) compared++
  }
  t.ok(compared > 0, `answers with hook-specific fields (patches, variables, plans) were compared and equal (${compared})`)
  t.ok(failures > 0, `Failure answers were exercised (${failures})`)
  if (mismatches.length > 0) {
    // Grouped by handler and reason (the handler's name taken out of the messages), with the call indices.
    const groups = new Map<string, { m: Mismatch, calls: number[] }>()
    for (const m of mismatches) {
      const why = m.why.replaceAll(`"${m.handler}.${ecName}"`, '"<handler>"')
      const key = `${ALL_HOOKS.indexOf(m.hook).toString().padStart(2, '0')} ${m.hook} ${m.handler} [${m.shape}]: ${why}`
      const group = groups.get(key) ?? { m: { ...m, why }, calls: [] }
      group.calls.push(m.call)
      groups.set(key, group)
    }
    t.comment(`${mismatches.length} of ${results.length} answers were not handed back like Cluster API's client would:\n` +
      [...groups.keys()].sort().map(k => {
        const { m, calls } = groups.get(k) as { m: Mismatch, calls: number[] }
        return `  ${m.hook} ${m.handler} calls ${calls.sort((a, b) => a - b).join(',')} [${m.shape}]: ${m.why}`
      }).join('\n'))
  }
  t.equal(mismatches.length, 0, 'our client hands back every answer like Cluster API\'s client (the comment above lists the others)')
})
