// Compiling the x-kubernetes-validations of one schema node, as apiextensions' cel.Compile does when it loads a CRD:
// each rule (and messageExpression) parsed and checked against the node's type once, whether it reads oldSelf
// noted, its fieldPath normalised. A rule that does not compile makes the schema unusable (the API server would have
// refused the CRD), so it is an ApiServerSchemaError here.
import { ApiServerSchemaError, type Structural, type ValidationRule } from '../schema.js'
import { type CheckType, checkExpr, mayBe, references, CelCheckError } from './check.js'
import { type Expr, parseCel, CelSyntaxError } from './parse.js'
import { declType, type DeclType } from './typing.js'
import { childPath, fieldErrorString, invalid, keyPath, notSupported } from '../field-error.js'

const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired']

/** One compiled rule. */
export interface CompiledRule {
  readonly rule: ValidationRule
  readonly program: Expr
  /** usesOldSelf marks a transition rule: it only runs on update, unless optionalOldSelf. */
  readonly usesOldSelf: boolean
  readonly optionalOldSelf: boolean
  readonly messageExpression?: Expr
  /** fieldPath is the rule's fieldPath as a field path relative to the node (`a.b`, `m[k]`), when valid. */
  readonly fieldPath?: string
}

function compileExpr (src: string, vars: ReadonlyMap<string, CheckType>, what: 'rule' | 'messageExpression', where: string): Expr {
  let program: Expr
  try {
    program = parseCel(src)
    const t = checkExpr(program, vars)
    if (!mayBe(t, what === 'rule' ? 'bool' : 'string')) {
      throw new CelCheckError(what === 'rule' ? 'cel expression must evaluate to a bool' : 'messageExpression must evaluate to a string')
    }
  } catch (err) {
    if (err instanceof CelSyntaxError || err instanceof CelCheckError) {
      const prefix = what === 'rule' ? 'compilation failed' : 'messageExpression compilation failed'
      throw new ApiServerSchemaError(`${where}: ${prefix}: ${err.message} (${JSON.stringify(src)})`, { cause: err })
    }
    throw err
  }
  return program
}

function unescapeSingleQuote (s: string): string | undefined {
  let ok = true
  const out = s.replace(/\\./g, (m) => {
    const map: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' }
    const c = map[m[1] as string]
    if (c === undefined) ok = false
    return c ?? ''
  })
  return ok ? out : undefined
}

/** ValidFieldPath: a rule's fieldPath as the path it names under the node, or undefined when it names none. */
function validFieldPath (jsonPath: string, node: Structural): string | undefined {
  const tokens: string[] = []
  for (let i = 0; i < jsonPath.length;) {
    if (jsonPath[i] === "'") {
      let j = i + 1
      while (j < jsonPath.length && !(jsonPath[j] === "'" && jsonPath[j - 1] !== '\\')) j++
      tokens.push(jsonPath.slice(i, j + 1))
      i = j + 1
    } else if ('.[]'.includes(jsonPath[i] as string)) {
      tokens.push(jsonPath[i] as string)
      i++
    } else {
      let j = i
      while (j < jsonPath.length && !'.[]'.includes(jsonPath[j] as string)) j++
      tokens.push(jsonPath.slice(i, j))
      i = j
    }
  }
  let path: string | undefined
  let schema: Structural | undefined = node
  const step = (name: string): boolean => {
    if (schema?.properties !== undefined) {
      path = childPath(path, name)
      schema = schema.properties.get(name)
      return schema !== undefined
    }
    if (schema?.additionalProperties !== undefined) {
      path = keyPath(path, name)
      schema = schema.additionalProperties.schema
      return true
    }
    return false
  }
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]
    if (tok === '[') {
      const quoted = tokens[++i]
      if (quoted === undefined || quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return undefined
      const name = unescapeSingleQuote(quoted.slice(1, -1))
      if (name === undefined || !step(name) || tokens[++i] !== ']') return undefined
    } else if (tok === '.') {
      const name = tokens[++i]
      if (name === undefined || !step(name)) return undefined
    } else {
      return undefined
    }
  }
  return path
}

const cache = new WeakMap<Structural, Map<string, CompiledRule[]>>()

/**
 * The compiled rules of a node (of its x-kubernetes-validations, or of one of its allOf branches' when rules is
 * given), cached per node. where names the node in errors.
 */
export function compileRules (node: Structural, isResourceRoot: boolean, where: string, rules: readonly ValidationRule[] = node.validations): CompiledRule[] {
  const key = `${isResourceRoot ? 'root' : 'node'}\u0000${JSON.stringify(rules)}`
  let perNode = cache.get(node)
  const cached = perNode?.get(key)
  if (cached) return cached
  const compiled: CompiledRule[] = []
  if (rules.length > 0) {
    const t: DeclType | undefined = declType(node, isResourceRoot)
    if (t === undefined) throw new ApiServerSchemaError(`${where}: failed to convert to declType for CEL validation rules`)
    const self = new Map<string, CheckType>([['self', t], ['oldSelf', t]])
    const optional = new Map<string, CheckType>([['self', t], ['oldSelf', { kind: 'optional', inner: t }]])
    rules.forEach((rule, i) => {
      if (rule.rule.trim() === '') return
      const at = `${where}.x-kubernetes-validations[${i}]`
      const vars = rule.optionalOldSelf === true ? optional : self
      const program = compileExpr(rule.rule, vars, 'rule', `${at}.rule`)
      const messageExpression = rule.messageExpression ? compileExpr(rule.messageExpression, vars, 'messageExpression', `${at}.messageExpression`) : undefined
      // The API server refuses a CRD whose rule names an unknown reason or a fieldPath the schema does not have.
      if (rule.reason !== undefined && !REASONS.includes(rule.reason)) throw new ApiServerSchemaError(fieldErrorString(notSupported(`${at}.reason`, rule.reason, REASONS)))
      const fieldPath = rule.fieldPath ? validFieldPath(rule.fieldPath, node) : undefined
      if (rule.fieldPath && fieldPath === undefined) throw new ApiServerSchemaError(fieldErrorString(invalid(`${at}.fieldPath`, rule.fieldPath, 'must be a valid path')))
      compiled.push({
        rule,
        program,
        usesOldSelf: references(program, 'oldSelf'),
        optionalOldSelf: rule.optionalOldSelf === true,
        ...(messageExpression ? { messageExpression } : {}),
        ...(fieldPath !== undefined ? { fieldPath } : {})
      })
    })
  }
  if (!perNode) { perNode = new Map(); cache.set(node, perNode) }
  perNode.set(key, compiled)
  return compiled
}

/** Compiles every rule of a schema (and of its allOf branches) up front, so that a bad rule fails early. */
export function compileAllRules (node: Structural, isResourceRoot: boolean, where = 'openAPIV3Schema'): void {
  compileRules(node, isResourceRoot, where)
  node.allOf.forEach((branch, i) => { if (branch.validations.length > 0) compileRules(node, isResourceRoot, `${where}.allOf[${i}]`, branch.validations) })
  if (node.items) compileAllRules(node.items, node.items.embeddedResource, `${where}.items`)
  const ap = node.additionalProperties?.schema
  if (ap) compileAllRules(ap, ap.embeddedResource, `${where}.additionalProperties`)
  for (const [k, v] of node.properties ?? []) compileAllRules(v, v.embeddedResource, `${where}.properties[${k}]`)
}
