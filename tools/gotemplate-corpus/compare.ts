// The engine's answer to a corpus case, in the shape Go's `gotemplate` command gives, and the verdict comparing the
// two: equal, refused (the engine declined a construct it cannot evaluate exactly as Go does), yaml-detail (both
// failed reading the rendered YAML; libyaml's wording after "yaml: " differs from the yaml package's) or different.
import { isDeepStrictEqual } from 'node:util'
import { GoTemplateError, HERMETIC_TXT_FUNCS, parseTemplate } from '../../src/gotemplate/index.js'
import { InlineTemplateError, patchIsEnabled, renderValueTemplate } from '../../src/simulate/inline-template.js'
import type { GoTemplateResult } from '../harness/capi-interop.js'

/** How a case runs (see GoTemplateCase in tools/harness/capi-interop.ts). */
export type Mode = 'render' | 'value' | 'enabled'

/** The engine's answer; `refused` carries the refusal's message when the engine declined. */
export type OurResult = GoTemplateResult & { refused?: boolean }

// The one-item request of cmd/gotemplate: an InfrastructureClusterTemplate of this kind.
const KIND = '"DockerClusterTemplate"'

/** Runs a case through the engine as the Go command runs it through Cluster API. */
export function ours (template: string, variables: Record<string, unknown>, mode: Mode): OurResult {
  try {
    if (mode === 'render') return { output: parseTemplate('tpl', template, { funcs: HERMETIC_TXT_FUNCS }).execute(variables) }
    if (mode === 'enabled') return { enabled: patchIsEnabled(template, variables) }
    if (template === '') return { error: `failed to generate JSON patches for ${KIND}: failed to calculate value: .valueFrom is set, but neither .valueFrom.variable nor .valueFrom.template are set` }
    return { value: renderValueTemplate(template, variables) ?? null }
  } catch (err) {
    if (err instanceof GoTemplateError) return { error: err.message, ...(err.unsupported ? { refused: true } : {}) }
    if (err instanceof InlineTemplateError) {
      const prefix = mode === 'enabled' ? `failed to calculate if patch is enabled for ${KIND}: ` : `failed to generate JSON patches for ${KIND}: `
      return { error: prefix + err.message, ...(err.unsupported ? { refused: true } : {}) }
    }
    throw err
  }
}

const YAML_PREFIX = 'error converting YAML to JSON: yaml: '

/** The verdict on one case. */
export type Verdict = 'equal' | 'refused' | 'yaml-detail' | 'different'

/** Compares the engine's answer with Go's. */
export function verdict (o: OurResult, go: GoTemplateResult): Verdict {
  if (o.refused === true) return 'refused'
  if (go.panic !== undefined) return 'different'
  if (go.error !== undefined || o.error !== undefined) {
    if (o.error === go.error) return 'equal'
    if (o.error !== undefined && go.error !== undefined) {
      const a = o.error.indexOf(YAML_PREFIX)
      const b = go.error.indexOf(YAML_PREFIX)
      if (a >= 0 && a === b && o.error.slice(0, a) === go.error.slice(0, b)) return 'yaml-detail'
    }
    return 'different'
  }
  if (go.output !== undefined) return o.output === go.output ? 'equal' : 'different'
  if (go.enabled !== undefined) return o.enabled === go.enabled ? 'equal' : 'different'
  // JSON values compare as JSON (the fixture's text cannot tell -0 from 0).
  const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null))
  return 'value' in o && isDeepStrictEqual(json(o.value), json(go.value)) ? 'equal' : 'different'
}
