// The Go templates of a ClusterClass's inline patches (valueFrom.template, enabledIf), rendered as Cluster API
// v1.14.2's inline generator renders them (core/reconcilers/topology/cluster/patches/inline, renderValueTemplate):
// parsed as template "tpl" with sprig's HermeticTxtFuncMap, executed over the variables decoded into Go's generic
// types (calculateTemplateData), the output read as YAML (sigs.k8s.io/yaml) into a JSON value.
//
// Errors carry Cluster API's messages up to the layer this file stands for; the caller adds the Kind:
//   renderValueTemplate: failed to calculate value for template: failed to parse template: "<template>": <Go error>
//                        failed to calculate value for template: failed to render template: "<template>": <Go error>
//                        failed to calculate value for template: failed to unmarshal rendered template: "<output>": <yaml error>
//     the caller (Generate) prefixes: failed to generate JSON patches for "<Kind>": …
//   patchIsEnabled:      failed to calculate value for enabledIf: failed to … (as above)
//     the caller (Generate) prefixes: failed to calculate if patch is enabled for "<Kind>": …
// and several errors of one Generate call are joined by kerrors.NewAggregate ("[a, b]").
import {
  GoTemplateError, HERMETIC_TXT_FUNCS, type GoTemplate, fromJSON, parseTemplate, quote, Unsupported, YamlError, yamlToJSON
} from '../gotemplate/index.js'

/** A failure of Cluster API's inline template rendering; message is Cluster API's (see the file's header). */
export class InlineTemplateError extends Error {
  /** unsupported is true when the engine refused what it cannot evaluate exactly as Go does. */
  readonly unsupported: boolean
  constructor (message: string, options: { unsupported?: boolean, cause?: unknown } = {}) {
    super(message, { cause: options.cause })
    this.unsupported = options.unsupported ?? false
  }
}

// Parsed templates by text: a simulation renders the same few templates for every template of every reconcile.
const MAX_CACHED = 2000
const parsed = new Map<string, GoTemplate | GoTemplateError>()

function parseCached (text: string): GoTemplate {
  let t = parsed.get(text)
  if (t === undefined) {
    try {
      t = parseTemplate('tpl', text, { funcs: HERMETIC_TXT_FUNCS })
    } catch (err) {
      if (!(err instanceof GoTemplateError)) throw err
      t = err
    }
    if (parsed.size >= MAX_CACHED) parsed.delete(parsed.keys().next().value as string)
    parsed.set(text, t)
  }
  if (t instanceof GoTemplateError) throw t
  return t
}

/** renderValueTemplate without the caller's prefix: the JSON value, or an InlineTemplateError. */
function render (template: string, variables: Record<string, unknown>): unknown {
  let tpl: GoTemplate
  try {
    tpl = parseCached(template)
  } catch (err) {
    const e = err as GoTemplateError
    throw new InlineTemplateError(`failed to parse template: ${quote(template)}: ${e.message}`, { unsupported: e.unsupported, cause: err })
  }
  let output: string
  try {
    output = tpl.executeGo(fromJSON(variables))
  } catch (err) {
    if (!(err instanceof GoTemplateError)) throw err
    throw new InlineTemplateError(`failed to render template: ${quote(template)}: ${err.message}`, { unsupported: err.unsupported, cause: err })
  }
  try {
    return yamlToJSON(output)
  } catch (err) {
    if (err instanceof YamlError) throw new InlineTemplateError(`failed to unmarshal rendered template: ${quote(output)}: ${err.message}`, { cause: err })
    if (err instanceof Unsupported) throw new InlineTemplateError(`failed to unmarshal rendered template: ${quote(output)}: runtime-sdk cannot evaluate this exactly as Go does: ${err.message}`, { unsupported: true, cause: err })
    throw err
  }
}

function wrap (prefix: string, f: () => unknown): unknown {
  try {
    return f()
  } catch (err) {
    if (err instanceof InlineTemplateError) throw new InlineTemplateError(`${prefix}: ${err.message}`, { unsupported: err.unsupported, cause: err.cause })
    throw err
  }
}

/**
 * calculateValue's template branch: the JSON value a valueFrom.template renders to over the merged variables
 * (Cluster API's map[string]apiextensionsv1.JSON as a plain object of JSON values); null for an empty output.
 * Throws InlineTemplateError whose message starts `failed to calculate value for template: `.
 */
export function renderValueTemplate (template: string, variables: Record<string, unknown>): unknown {
  return wrap('failed to calculate value for template', () => render(template, variables))
}

/**
 * patchIsEnabled: true when enabledIf is unset or empty, or renders to exactly the JSON `true`. Throws
 * InlineTemplateError whose message starts `failed to calculate value for enabledIf: `.
 */
export function patchIsEnabled (enabledIf: string | undefined, variables: Record<string, unknown>): boolean {
  if (enabledIf === undefined || enabledIf === '') return true
  return wrap('failed to calculate value for enabledIf', () => render(enabledIf, variables)) === true
}
