// Validation rules written once and enforced twice: the CRD carries each rule's CEL expression
// (`x-kubernetes-validations`, evaluated by the API server) and validateExtensionConfig runs its TypeScript
// `check` at the same place in the object, reporting the same message.
import type { TSchema } from 'typebox'

/** Schema keyword holding the rules of a schema node; the CRD generator turns it into x-kubernetes-validations. */
export const RULES_KEYWORD = 'x-runtime-sdk-rules'

export interface Rule<T = unknown> {
  /** rule is the CEL expression the API server evaluates with `self` bound to the value at this schema node. */
  rule: string
  /** message explains a failure, in the API server's answer and in validateExtensionConfig's errors. */
  message: string
  /** fieldPath (e.g. `.values`) reports a failure at a field below the node instead of at the node. */
  fieldPath?: string
  /** check is the same rule in TypeScript; it sees values whose types already passed the schema. */
  check (self: T): boolean
}

/** A rule failure: where (API server field path syntax) and why. */
export interface RuleFailure {
  path: string
  /** type of the schema node the rule sits on, as the API server prints it (`Invalid value: "object"`). */
  type: string
  message: string
}

/** Attaches rules to a schema node (in place, like hooks/schema.ts's named()). */
export function withRules<S extends TSchema> (schema: S, rules: ReadonlyArray<Rule>): S {
  const existing = rulesOf(schema)
  return Object.assign(schema, { [RULES_KEYWORD]: [...existing, ...rules] })
}

export function rulesOf (schema: unknown): Rule[] {
  const rules = (schema as Record<string, unknown> | undefined)?.[RULES_KEYWORD]
  return Array.isArray(rules) ? rules as Rule[] : []
}

/** The CRD form of a node's rules. */
export function celValidations (rules: readonly Rule[]): Array<{ rule: string, message: string, fieldPath?: string }> {
  return rules.map(({ rule, message, fieldPath }) => ({ rule, message, ...(fieldPath ? { fieldPath } : {}) }))
}

type Node = Record<string, unknown>

/** A map key or a property name as the API server writes it in a field path. */
function child (path: string, key: string): string {
  return path ? `${path}.${key}` : key
}

/**
 * Runs every rule of the schema against the value, depth first (parents before children, like the API
 * server's report order). The value must already match the schema's types; nodes that are absent are skipped.
 */
export function evaluateRules (schema: TSchema, value: unknown, path = ''): RuleFailure[] {
  const failures: RuleFailure[] = []
  const node = schema as unknown as Node
  if (value === undefined) return failures
  for (const rule of rulesOf(node)) {
    if (!rule.check(value)) {
      const at = rule.fieldPath ? (path ? `${path}${rule.fieldPath}` : rule.fieldPath.replace(/^\./, '')) : path
      failures.push({ path: at, type: String(node['type'] ?? 'object'), message: rule.message })
    }
  }
  if (Array.isArray(value) && node['items']) {
    value.forEach((item, i) => failures.push(...evaluateRules(node['items'] as TSchema, item, `${path}[${i}]`)))
  } else if (value !== null && typeof value === 'object') {
    // Schema order first, then map entries: the order the API server reports them in.
    const object = value as Record<string, unknown>
    const properties = (node['properties'] ?? {}) as Record<string, TSchema>
    for (const [key, sub] of Object.entries(properties)) failures.push(...evaluateRules(sub, object[key], child(path, key)))
    const additional = node['additionalProperties']
    if (additional && typeof additional === 'object') {
      for (const [key, item] of Object.entries(object)) {
        if (!(key in properties)) failures.push(...evaluateRules(additional as TSchema, item, `${path}[${key}]`))
      }
    }
  }
  return failures
}
