// Go's text/template, with sprig v3.3.0's hermetic text functions, evaluated the way Go 1.26 evaluates them: Cluster
// API renders ClusterClass inline patches (enabledIf, valueFrom.template) and naming templates with it, and the
// simulation must say what Cluster API would. Messages are Go's, byte for byte; what the engine cannot do exactly
// as Go does (e.g. a regular expression JS cannot run the same way) it refuses with GoTemplateError.unsupported.
//
//   lex.ts, parse.ts, literals.ts, nodes.ts   the template language (text/template/parse)
//   exec.ts, builtins.ts                      execution and the builtin functions (text/template)
//   values.ts, fmt.ts, printf.ts, strconv.ts  Go's values, fmt printing, number formatting and quoting
//   sprig/                                    sprig's HermeticTxtFuncMap()
//   yaml.ts, yaml-libyaml.ts                  sigs.k8s.io/yaml's reading of a rendered value into JSON
import { BUILTINS } from './builtins.js'
import { GoTemplateError, unsupportedText } from './errors.js'
import { execute, type MissingKey } from './exec.js'
import { parse, ParseError } from './parse.js'
import { SPRIG_HERMETIC_TXT } from './sprig/index.js'
import { fromJSON, type GoFunc, type GoValue, Unsupported } from './values.js'

export { GoTemplateError, type GoTemplateErrorOptions } from './errors.js'
export type { MissingKey } from './exec.js'
export { GoCallError, GoInt, GoMap, GoObject, GoSlice, Unsupported, fromJSON, type GoFunc, type GoValue } from './values.js'
export { sprint } from './fmt.js'
export { sprintf } from './printf.js'
export { quote } from '../go/strconv.js'
export { yamlToJSON, YamlError } from './yaml.js'

/** Template functions by name, as text/template's FuncMap. */
export type FuncMap = Readonly<Record<string, GoFunc>>

/** sprig.HermeticTxtFuncMap() of sprig v3.3.0: the functions Cluster API gives inline patch templates. */
export const HERMETIC_TXT_FUNCS: FuncMap = SPRIG_HERMETIC_TXT

/** How a template is parsed and executed. */
export interface ParseOptions {
  /** Functions besides text/template's builtins (a function here shadows a builtin of the same name). */
  funcs?: FuncMap
  /** text/template's missingkey option (default 'default'). */
  missingKey?: MissingKey
}

/** A parsed template, reusable across executions. */
export interface GoTemplate {
  /** The name given to parseTemplate. */
  readonly name: string
  /**
   * Executes the template over JSON data (decoded as Go's encoding/json decodes into interface{}: numbers are
   * float64, objects map[string]interface{}). Throws GoTemplateError with Go's message.
   */
  execute: (data: unknown) => string
  /** Executes the template over a Go value (see values.ts). */
  executeGo: (data: GoValue) => string
}

/**
 * template.New(name).Funcs(funcs).Option("missingkey=...").Parse(text): parses once; the result executes any number
 * of times. Throws GoTemplateError with Go's parse error (`template: NAME:LINE: ...`).
 */
export function parseTemplate (name: string, text: string, options: ParseOptions = {}): GoTemplate {
  const funcs = options.funcs ?? {}
  const hasFunction = (fn: string): boolean => Object.hasOwn(funcs, fn) || Object.hasOwn(BUILTINS, fn)
  let trees
  try {
    trees = parse(name, text, hasFunction)
  } catch (err) {
    if (err instanceof ParseError) throw new GoTemplateError(err.message)
    if (err instanceof Unsupported) throw new GoTemplateError(`template: ${name}: ${unsupportedText(err.message)}`, { unsupported: true })
    throw err
  }
  const ctx = { parseName: name, text, trees, funcs, builtins: BUILTINS, missingKey: options.missingKey ?? 'default' }
  const executeGo = (data: GoValue): string => execute(ctx, name, data)
  return { name, executeGo, execute: (data: unknown) => executeGo(fromJSON(data)) }
}
