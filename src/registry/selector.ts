// Kubernetes label selectors: matchLabels and matchExpressions (In, NotIn, Exists, DoesNotExist).
import type { LabelSelector } from '../api/extension-config/types.js'

export type Labels = Readonly<Record<string, string>>

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist'])

/** The problems with a selector, worded like apimachinery's LabelSelectorAsSelector (empty when valid). */
export function labelSelectorErrors (selector: LabelSelector): string[] {
  const errors: string[] = []
  for (const expr of selector.matchExpressions ?? []) {
    const values = expr.values ?? []
    if (!OPERATORS.has(expr.operator)) {
      errors.push(`"${expr.operator}" is not a valid label selector operator`)
    } else if ((expr.operator === 'In' || expr.operator === 'NotIn') && values.length === 0) {
      errors.push('values: Invalid value: []: for \'in\', \'notin\' operators, values set can\'t be empty')
    } else if ((expr.operator === 'Exists' || expr.operator === 'DoesNotExist') && values.length > 0) {
      errors.push(`values: Invalid value: ${JSON.stringify(values)}: values set must be empty for exists and does not exist`)
    }
  }
  return errors
}

/** A selector without requirements matches every namespace, so no namespace lookup is needed. */
export function isEmptySelector (selector: LabelSelector | undefined): boolean {
  return selector !== undefined && Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0
}

/**
 * Whether labels satisfy a selector. An undefined selector matches nothing (apimachinery's labels.Nothing(),
 * what Cluster API does when the defaulting webhook was bypassed); `{}` matches everything.
 */
export function matchesSelector (selector: LabelSelector | undefined, labels: Labels): boolean {
  if (selector === undefined) return false
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[key] !== value) return false
  }
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, key)
    switch (operator) {
      case 'In': if (!has || !values.includes(labels[key] as string)) return false; break
      case 'NotIn': if (has && values.includes(labels[key] as string)) return false; break
      case 'Exists': if (!has) return false; break
      case 'DoesNotExist': if (has) return false; break
      default: return false
    }
  }
  return true
}
