// runtime-sdk/topology against Cluster API's own toolkit (exp/runtime/topologymutation), on random GeneratePatches
// requests whose templates (KubeadmControlPlaneTemplate, KubeadmConfigTemplate, the in-memory provider's Dev*
// templates, sometimes a kind neither side knows) and variables (builtin from Cluster API's Go types, global values
// overridden per template, a second builtin part to merge) are filled at random from Cluster API's Go types:
// - one set of mutations (fields, list items and map keys with "/" and "~" added, replaced and removed, nested
//   objects created, templates left unchanged) written with WalkTemplates (tools/capi-interop/internal/walk) and with
//   walkTemplates (test/helpers/topology-mutations.ts): in both patch formats, Cluster API's patch engine applying
//   each side's answer gives identical templates, and both answer the same status (Go answers `items: null` where
//   we answer `items: []`: the same to Cluster API's decoder);
// - getVariable, getString and getBoolean agree with GetVariable, GetStringVariable and GetBoolVariable on every path
//   read: the value, not found (undefined), or an error (Go's GetBoolVariable also reads the JSON numbers 1 and 0 as
//   booleans, which we refuse: asserted as the one difference).
import { isDeepStrictEqual } from 'node:util'
import t from 'tap'
import { getBoolean, getString, getVariable, mergeVariables, toVariables } from '../../src/topology/index.js'
import { capiTopologyCases, goAvailable, startCapiPatchApplier, type CapiGetterResult } from '../../tools/harness/capi-interop.js'
import { generatePatches } from '../helpers/topology-mutations.js'

// A cold build of tools/capi-interop compiles controller-runtime and client-go.
t.setTimeout(900_000)
const skip = goAvailable() ? false : 'go is not installed'

const SEED = 20260535
const CASES = 300

/** What our getter did: the value, undefined, or the error's message. */
function outcome (read: () => unknown): CapiGetterResult {
  try {
    const value = read()
    return value === undefined ? { notFound: true } : { value }
  } catch (err) {
    return { error: (err as Error).message }
  }
}

/** Ours agrees with Go's when both found the same value, both found nothing, or both refused. */
function agrees (ours: CapiGetterResult, go: CapiGetterResult): boolean {
  if (go.error !== undefined) return ours.error !== undefined
  if (go.notFound) return ours.notFound === true
  return ours.error === undefined && !ours.notFound && isDeepStrictEqual(ours.value, go.value)
}

/** A value in a message: JSON, ASCII only (a raw U+2028 would end a TAP line), cut short. */
function show (value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 400)
}

t.test('the same mutations and reads as Cluster API\'s toolkit, on random requests', { skip }, async t => {
  const cases = await capiTopologyCases(SEED, CASES)
  t.equal(cases.length, CASES)
  const applier = await startCapiPatchApplier()
  t.teardown(() => applier.stop())
  const tally = { compared: 0, failures: 0, changedTemplates: 0, reads: 0, notFound: 0, refused: 0, boolNumbers: 0 }
  for (const c of cases) {
    for (const format of ['JSONPatch', 'JSONMergePatch'] as const) {
      const theirs = c.responses[format]
      const ours = await generatePatches(structuredClone(c.request), format)
      if (ours.status !== theirs.status) {
        t.fail(`${c.name} ${format}: we answer ${ours.status} (${show(ours.message)}), Cluster API ${theirs.status} (${show(theirs.message)})`)
        continue
      }
      if (ours.status === 'Failure') { tally.failures++; continue }
      t.same(ours.items?.map(i => [i.uid, i.patchType]), (theirs.items ?? []).map(i => [i.uid, i.patchType]), `${c.name} ${format}: an item per template of a known kind, in order`)
      const [byUs, byThem] = await Promise.all([applier.apply(c.request, ours), applier.apply(c.request, theirs)])
      if (!t.strictSame(byUs, byThem, `${c.name} ${format}: Cluster API applying our answer gives what it gives applying its own`)) continue
      tally.compared++
      tally.changedTemplates += byUs.filter((template, i) => !isDeepStrictEqual(template, c.request.items?.[i]?.object)).length
    }
    const global = toVariables(c.request.variables)
    for (const lookup of c.lookups) {
      const vars = mergeVariables(global, toVariables(c.request.items?.[lookup.item]?.variables))
      const where = `${c.name} item ${lookup.item} ${show(lookup.path)}`
      tally.reads++
      if (lookup.get.notFound) tally.notFound++
      if (lookup.get.error !== undefined) tally.refused++
      const get = outcome(() => getVariable(vars, lookup.path))
      if (!agrees(get, lookup.get)) t.fail(`${where}: getVariable ${show(get)}, GetVariable ${show(lookup.get)}`)
      const str = outcome(() => getString(vars, lookup.path))
      if (!agrees(str, lookup.string)) t.fail(`${where}: getString ${show(str)}, GetStringVariable ${show(lookup.string)}`)
      const bool = outcome(() => getBoolean(vars, lookup.path))
      if (typeof get.value === 'number' && lookup.bool.value !== undefined) {
        tally.boolNumbers++
        if (bool.error === undefined) t.fail(`${where}: getBoolean reads the number ${String(get.value)} as a boolean`)
      } else if (!agrees(bool, lookup.bool)) {
        t.fail(`${where}: getBoolean ${show(bool)}, GetBoolVariable ${show(lookup.bool)}`)
      }
    }
  }
  t.comment(JSON.stringify(tally))
  t.ok(tally.compared >= CASES, `${tally.compared} answers compared template by template`)
  t.ok(tally.changedTemplates > CASES, `${tally.changedTemplates} templates changed by the mutations`)
  t.ok(tally.failures > 0, `${tally.failures} answers are Failures on both sides (variables of the wrong type)`)
  t.ok(tally.notFound > 1000 && tally.refused > 100, `${tally.reads} reads, ${tally.notFound} not found, ${tally.refused} refused by Go`)
})
