// Every admission rule of the ExtensionConfig: an object that breaks it is rejected with the rule's message at
// the rule's field, and the closest valid object passes (test/helpers/extension-config-rule-cases.ts; the same table runs against
// the API server in test/e2e/crd.test.ts).
import t from 'tap'
import * as rules from '../../../src/api/extension-config/rules.js'
import { RULES_KEYWORD, type Rule } from '../../../src/api/schema/cel-rules.js'
import { ec, ruleCases, selectorSpec, serviceSpec, urlSpec } from '../../helpers/extension-config-rule-cases.js'
import * as v1alpha1 from '../../../src/api/extension-config/v1alpha1.js'
import * as v1beta2 from '../../../src/api/extension-config/v1beta2.js'
import { validateExtensionConfig } from '../../../src/api/extension-config/validate.js'

const errorsOf = (input: unknown) => {
  const result = validateExtensionConfig(input)
  return result.ok ? [] : result.errors
}

for (const { name, invalid, valid, error } of ruleCases) {
  t.test(name, async t => {
    t.same(errorsOf(invalid), [error], 'rejected with the rule\'s message, and nothing else')
    t.same(errorsOf(valid), [], 'the closest valid object passes')
  })
}

t.test('every rule of the schemas is exercised by the table', async t => {
  const attached = new Set<string>()
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return
    for (const rule of ((node as Record<string, unknown>)[RULES_KEYWORD] ?? []) as Rule[]) attached.add(rule.rule)
    for (const value of Object.values(node)) walk(value)
  }
  walk(v1beta2.ExtensionConfig)
  walk(v1alpha1.ExtensionConfig)
  const tested = new Set(ruleCases.map(c => c.rule.rule))
  t.same([...attached].filter(rule => !tested.has(rule)), [], 'no rule without a case')
  t.ok(attached.size >= 20, `${attached.size} rules`)
})

t.test('rules reproduce Kubernetes validation details', async t => {
  t.same(errorsOf(ec(urlSpec('https://x.example'), 'a'.repeat(64))), [`metadata.name: Invalid value: ${rules.nameRule.message}`], 'a label has at most 63 characters')
  t.same(errorsOf(ec(urlSpec('https://x.example'), 'a'.repeat(63))), [])
  t.same(errorsOf(ec(serviceSpec({ name: 'svc-' }))).length, 1, 'a label does not end with a dash')
  t.same(errorsOf(ec(urlSpec('https://[::1]:8443/hooks'))), [], 'IPv6 hosts in brackets')
  t.same(errorsOf(ec(urlSpec('https://x.example:443:1/'))).length, 1, 'Go 1.26 rejects a second colon in an https host')
  t.same(errorsOf(ec(urlSpec('https:/hooks'))), ['spec.clientConfig.url: Invalid value: "https:/hooks": must be a valid URL with a host, e.g. https://example.com'])
  t.same(errorsOf(ec(selectorSpec({ matchLabels: { [`${'a'.repeat(253)}/name`]: 'v' } }))), [], 'a 253 character prefix is fine')
  t.same(errorsOf(ec(selectorSpec({ matchLabels: { [`${'a'.repeat(254)}/name`]: 'v' } }))).length, 1, 'a longer prefix is not')
  t.same(errorsOf(ec(selectorSpec({ matchLabels: { [`example.com/${'n'.repeat(64)}`]: 'v' } }))).length, 1, 'names have at most 63 characters')
})
