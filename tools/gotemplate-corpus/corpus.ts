// The corpus's case list, built the same way by the generator and by the interop test's drift check: Cluster API's
// templates over each quick-start variable set (valueFrom.template rendered and as a patch value, enabledIf
// rendered and as a patch's enabledIf), then the hand-written cases, then the seeded random ones, deduplicated.
import type { CapiTemplate } from './capi.js'
import type { HandCase } from './cases.js'
import type { RandomCase } from './random.js'
import type { Mode } from './compare.js'
import type { GoTemplateResult } from '../harness/capi-interop.js'

/** The seed and number of the random cases committed with the corpus. */
export const RANDOM_SEED = 20261128
export const RANDOM_IN_CORPUS = 400

/** A case of the corpus. */
export interface CorpusCase {
  id: string
  group: string
  /** Where Cluster API has the template, for its own templates. */
  source?: string
  template: string
  /** The name of the variable set (VARIABLE_SETS). */
  vars: string
  mode: Mode
  /** What Go answered. */
  go: GoTemplateResult
  /** A difference the engine knowingly has on this case: it refuses it, or the YAML error's wording differs. */
  known?: 'refused' | 'yaml-detail'
}

const CAPI_VARS = ['quick-start-cp', 'quick-start-md', 'quick-start-mp', 'quick-start-off']

/** The cases without answers, in order. */
export function buildCorpus (capi: readonly CapiTemplate[], hand: readonly HandCase[], random: readonly RandomCase[]): Array<Omit<CorpusCase, 'go' | 'known'>> {
  const out: Array<Omit<CorpusCase, 'go' | 'known'>> = []
  const seen = new Set<string>()
  const add = (c: Omit<CorpusCase, 'go' | 'known' | 'id'>, id: string): void => {
    const key = `${c.mode}\0${c.vars}\0${c.template}`
    if (seen.has(key)) return
    seen.add(key)
    out.push({ id, ...c })
  }
  capi.forEach((t, i) => {
    for (const vars of CAPI_VARS) {
      add({ group: 'capi', source: t.source, template: t.template, vars, mode: 'render' }, `capi-${i}-${vars}-render`)
      const mode = t.kind === 'enabledIf' ? 'enabled' : 'value'
      add({ group: 'capi', source: t.source, template: t.template, vars, mode }, `capi-${i}-${vars}-${mode}`)
    }
  })
  hand.forEach((h, i) => {
    for (const mode of h.modes ?? ['render']) add({ group: h.group, template: h.template, vars: h.vars ?? 'types', mode }, `${h.group}-${i}-${mode}`)
  })
  random.forEach((r, i) => add({ group: 'random', template: r.template, vars: r.vars, mode: r.mode }, `random-${i}-${r.mode}`))
  return out
}
