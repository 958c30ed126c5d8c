// Parity of our server's request decoding with Cluster API's own server SDK, on thousands of requests per hook:
// tools/capi-interop's `parity` builds a corpus from Cluster API's Go types (valid requests, and each of them mutated
// once at a random place: wrong JSON types at every depth, fractions and out-of-range integers, bad and odd-but-valid
// timestamps and int-or-strings, unknown fields, null everywhere, strings the CRDs refuse, huge lists and maps, nesting
// around Go's limit of 10,000, keys in another letter case or given twice) and sends every request to both servers,
// whose handlers echo the request they read. Outside the differences docs/differences.md lists, both must accept or refuse
// alike, refuse in the same words (Go's), and hand their handlers the same request (both echoes read into Cluster
// API's Go type); inside them, each server must do what docs/differences.md says.
import t from 'tap'
import type { HookDefinition } from '../../src/api/hooks/define.js'
import { hooks } from '../../src/api/hooks/v1alpha1/index.js'
import { createExtensionServer } from '../../src/server/index.js'
import { buildCapiInterop, goAvailable, runParity, startCapiExtension, type ParityCase } from '../../tools/harness/capi-interop.js'
import { silent, tlsFixture } from '../helpers/server.js'

t.setTimeout(900_000)
const skip = goAvailable() ? false : 'go is not installed'

const SEED = 20260738
/** Requests per hook: 17 hooks, 34,000 requests, each sent to both servers. */
const PER_HOOK = 2000

/** Text written as it is by echo(). */
class Text {
  constructor (readonly text: string) {}
}

/** JSON of a request as the handler got it; values nested deeper than JSON.stringify's recursion are written without it. */
function echo (value: unknown): string {
  try {
    return JSON.stringify(value)
  } catch (err) {
    if (!(err instanceof RangeError)) throw err
  }
  const out: string[] = []
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    if (v instanceof Text) {
      out.push(v.text)
    } else if (Array.isArray(v)) {
      const parts: unknown[] = [new Text('[')]
      v.forEach((item, i) => parts.push(...(i > 0 ? [new Text(',')] : []), item ?? null))
      stack.push(...[...parts, new Text(']')].reverse())
    } else if (typeof v === 'object' && v !== null) {
      const parts: unknown[] = [new Text('{')]
      Object.entries(v).filter(([, x]) => x !== undefined).forEach(([k, x], i) => parts.push(new Text(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`), x))
      stack.push(...[...parts, new Text('}')].reverse())
    } else {
      out.push(JSON.stringify(v))
    }
  }
  return out.join('')
}

t.test('our server reads every request of the corpus as Cluster API\'s Go server SDK reads it, outside the listed differences', { skip }, async t => {
  await buildCapiInterop()
  const capi = await startCapiExtension({ echo: true, exitAfter: '20m' })
  t.teardown(capi.stop)
  const tls = await tlsFixture(t.testdir())
  const handlers = hooks.filter(h => h.hook !== 'Discovery').map(h => ({
    hook: h as HookDefinition,
    name: `echo-${h.hook.toLowerCase()}`,
    handler: (request: unknown) => ({ status: 'Success' as const, message: echo(request) })
  }))
  const ours = createExtensionServer({ logger: silent, tls: { certFile: tls.certFile, keyFile: tls.keyFile }, handlers })
  const url = await ours.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => ours.close())

  const started = Date.now()
  const res = await runParity(['--go-url', capi.url, '--go-ca-file', capi.caFile, '--url', url, '--ca-file', `${tls.dir}/ca.crt`,
    '--seed', String(SEED), '--per-hook', String(PER_HOOK)])
  t.equal(res.code, 0, 'parity sent every request', { stderr: res.stderr.slice(-4000) })
  t.comment(`${res.summaries.reduce((n, s) => n + s.cases, 0)} requests in ${Math.round((Date.now() - started) / 1000)} s`)
  t.same(res.summaries.map(s => s.hook).sort(), hooks.map(h => h.hook).sort(), 'every hook')

  for (const s of res.summaries) {
    const problems = Object.values(s.problems).reduce((a, b) => a + b, 0)
    t.comment(`${s.hook}: ${s.cases} requests, ${s.accepted} accepted and ${s.refused} refused by both alike but for ` +
      `${Object.entries(s.differences).map(([d, n]) => `${n.cases} ${d}`).join(', ') || 'none'}; disagreements: ${problems}`)
    t.equal(s.cases, PER_HOOK, `${s.hook}: every request was sent`)
  }
  const problems = res.cases.filter(c => c.problem !== undefined)
  if (problems.length > 0) {
    const byKind = new Map<string, ParityCase[]>()
    for (const p of problems) byKind.set(`${p.problem} ${p.mutation}`, [...byKind.get(`${p.problem} ${p.mutation}`) ?? [], p])
    t.comment(`${problems.length} requests where the servers disagree, by problem and mutation (first 3 of each):\n` + [...byKind].map(([kind, cases]) =>
      `  ${kind} (${cases.length}):\n` + cases.slice(0, 3).map(c => `    ${c.hook} ${c.case} at ${c.path || '(root)'}: ${c.detail ?? ''}`).join('\n')).join('\n'))
  }
  t.equal(problems.length, 0, 'same verdict, same words, same request read, outside the listed differences (the comment above lists the others)')

  const differences = (name: string) => res.summaries.reduce((n, s) => {
    const d = s.differences[name]
    return d ? { cases: n.cases + d.cases, goRefused: n.goRefused + d.goRefused, oursRefused: n.oursRefused + d.oursRefused } : n
  }, { cases: 0, goRefused: 0, oursRefused: 0 })
  const caseVariant = differences('case-variant-key')
  t.ok(caseVariant.cases > 0 && caseVariant.oursRefused === caseVariant.cases, `a key in another letter case: refused by us every time (${caseVariant.oursRefused} of ${caseVariant.cases}; Go refused ${caseVariant.goRefused})`)
  const beyond = differences('int64-beyond-2^53')
  t.ok(beyond.cases > 0 && beyond.oursRefused === beyond.cases, `an int64 from 2^53 on: refused by us every time (${beyond.oursRefused} of ${beyond.cases}; Go refused ${beyond.goRefused})`)
  const integral = differences('integral-literal')
  t.ok(integral.cases > 0 && integral.goRefused === integral.cases && integral.oursRefused === 0,
    `an integer written 2.0 or 1e2: refused by Go (${integral.goRefused} of ${integral.cases}), read by us (refused ${integral.oursRefused})`)
  const duplicates = differences('duplicate-key')
  t.ok(duplicates.cases > 0, `keys given twice were sent (${duplicates.cases}; Go refused ${duplicates.goRefused}, we refused ${duplicates.oursRefused})`)

  const mutations = new Map<string, { accepted: number, refused: number }>()
  for (const s of res.summaries) {
    for (const [m, n] of Object.entries(s.mutations)) {
      const total = mutations.get(m) ?? { accepted: 0, refused: 0 }
      mutations.set(m, { accepted: total.accepted + n.accepted, refused: total.refused + n.refused })
    }
  }
  t.comment(`verdicts per mutation: ${[...mutations].sort().map(([m, n]) => `${m} ${n.accepted}/${n.refused}`).join(', ')} (accepted/refused)`)
  for (const m of ['wrong-type', 'number', 'timestamp', 'int-or-string', 'deep', 'unknown-field', 'huge-list']) {
    const n = mutations.get(m)
    t.ok(n !== undefined && n.accepted > 0 && n.refused > 0, `${m}: requests Go accepts and requests it refuses were both sent`)
  }
  for (const m of ['valid', 'null', 'crd-string', 'huge-map']) {
    const n = mutations.get(m)
    t.ok(n !== undefined && n.accepted > 0 && n.refused === 0, `${m}: sent, and accepted every time, as Go accepts them`)
  }
})
