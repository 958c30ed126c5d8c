// The ExtensionConfig types of types.ts are written out field by field for their documentation; they must stay the
// types of the schemas (v1beta2.ts, meta.ts), widened only where types.ts says so. A difference fails typecheck.
import t from 'tap'
import type { Static } from '../../../src/api/schema/builders.js'
import type * as meta from '../../../src/api/extension-config/meta.js'
import type * as types from '../../../src/api/extension-config/types.js'
import type * as v1beta2 from '../../../src/api/extension-config/v1beta2.js'

/** true when A and B are mutually assignable, field by field. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
/** A with the fields K widened to any string, as types.ts widens them. */
type Widened<A, K extends keyof A> = Omit<A, K> & { [P in K]: A[P] | (string & {}) }

const checks: Array<[string, true]> = [
  ['ServiceReference', true satisfies Same<types.ServiceReference, v1beta2.V1Beta2ServiceReference>],
  ['ClientConfig', true satisfies Same<types.ClientConfig, v1beta2.V1Beta2ClientConfig>],
  ['LabelSelectorOperator', true satisfies Same<types.LabelSelectorOperator, Static<typeof meta.LabelSelectorOperator>>],
  ['LabelSelectorRequirement', true satisfies Same<types.LabelSelectorRequirement, Widened<Static<typeof meta.LabelSelectorRequirement>, 'operator'>>],
  ['LabelSelector', true satisfies Same<Omit<types.LabelSelector, 'matchExpressions'>, Omit<Static<typeof meta.LabelSelector>, 'matchExpressions'>>],
  ['ExtensionHandlerStatus', true satisfies Same<types.ExtensionHandlerStatus, Omit<v1beta2.V1Beta2ExtensionHandler, 'failurePolicy'> & { failurePolicy?: 'Fail' | 'Ignore' | (string & {}) }>],
  ['ExtensionConfigSpec', true satisfies Same<Omit<types.ExtensionConfigSpec, 'namespaceSelector'>, Omit<v1beta2.V1Beta2ExtensionConfigSpec, 'namespaceSelector'>>],
  ['Condition', true satisfies Same<types.Condition, Static<typeof meta.Condition>>],
  ['V1Beta1Condition', true satisfies Same<types.V1Beta1Condition, Static<typeof meta.V1Beta1Condition>>],
  ['ExtensionConfigStatus', true satisfies Same<Omit<types.ExtensionConfigStatus, 'handlers'>, Omit<v1beta2.V1Beta2ExtensionConfigStatus, 'handlers'>>]
]

t.test('the documented ExtensionConfig types are the schemas\' types', async t => {
  for (const [name, same] of checks) t.ok(same, name)
})
