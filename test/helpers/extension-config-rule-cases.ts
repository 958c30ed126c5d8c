// The admission rules of ExtensionConfig as test cases: for each rule an object that breaks it, the exact error
// validateExtensionConfig reports, and the closest valid object. Used by test/api/extension-config/rules.test.ts and, against
// the API server, by test/e2e/crd.test.ts. (A data module: tap lists it as "no tests found".)
import * as rules from '../../src/api/extension-config/rules.js'
import type { Rule } from '../../src/api/schema/cel-rules.js'

const API = 'runtime.cluster.x-k8s.io/v1beta2'
type Spec = Record<string, unknown>
export const ec = (spec: Spec, name = 'ext', apiVersion = API) => ({ apiVersion, kind: 'ExtensionConfig', metadata: { name }, spec })
export const urlSpec = (url: string) => ({ clientConfig: { url } })
export const serviceSpec = (service: Record<string, unknown>) => ({ clientConfig: { service: { name: 'svc', namespace: 'ns', ...service } } })
export const selectorSpec = (namespaceSelector: unknown) => ({ clientConfig: { url: 'https://ext.example.com' }, namespaceSelector })

/** One row per rule: a rejected object with the exact error, and an accepted neighbour. */
export const ruleCases: Array<{ rule: Rule, name: string, invalid: unknown, valid: unknown, error: string }> = [
  {
    rule: rules.nameRule,
    name: 'metadata.name is a DNS-1123 label',
    invalid: ec(urlSpec('https://x.example'), 'my.extension'),
    valid: ec(urlSpec('https://x.example'), 'my-extension'),
    error: `metadata.name: Invalid value: ${rules.nameRule.message}`
  },
  {
    rule: rules.urlOrServiceRule,
    name: 'url or service is required',
    invalid: ec({ clientConfig: { caBundle: 'Zm9v' } }),
    valid: ec({ clientConfig: { caBundle: 'Zm9v', url: 'https://x.example' } }),
    error: 'spec.clientConfig: Invalid value: either url or service must be defined'
  },
  {
    rule: rules.notUrlAndServiceRule,
    name: 'not both url and service',
    invalid: ec({ clientConfig: { url: 'https://x.example', service: { name: 'svc', namespace: 'ns' } } }),
    valid: ec({ clientConfig: { service: { name: 'svc', namespace: 'ns' } } }),
    error: 'spec.clientConfig: Invalid value: only one of url or service can be defined'
  },
  {
    rule: rules.urlValidRule,
    name: 'url parses as Go does and has a host',
    invalid: ec(urlSpec('https://x.example/%zz')),
    valid: ec(urlSpec('https://x.example/%41')),
    error: 'spec.clientConfig.url: Invalid value: "https://x.example/%zz": must be a valid URL with a host, e.g. https://example.com'
  },
  {
    rule: rules.urlHttpsRule,
    name: 'url scheme is https',
    invalid: ec(urlSpec('http://x.example')),
    valid: ec(urlSpec('HTTPS://x.example')),
    error: 'spec.clientConfig.url: Invalid value: "http://x.example": \'https\' is the only allowed URL scheme, e.g. https://example.com'
  },
  {
    rule: rules.urlNoUserInfoRule,
    name: 'url carries no user info',
    invalid: ec(urlSpec('https://user:secret@x.example/hooks')),
    valid: ec(urlSpec('https://x.example/hooks@v1')),
    error: 'spec.clientConfig.url: Invalid value: "https://user:secret@x.example/hooks": user info ("user:password@") is not allowed in the URL'
  },
  {
    rule: rules.urlNoQueryRule,
    name: 'url has no query',
    invalid: ec(urlSpec('https://x.example/hooks?')),
    valid: ec(urlSpec('https://x.example/hooks')),
    error: 'spec.clientConfig.url: Invalid value: "https://x.example/hooks?": query parameters ("?...") are not allowed in the URL'
  },
  {
    rule: rules.urlNoFragmentRule,
    name: 'url has no fragment',
    invalid: ec(urlSpec('https://x.example/hooks#top')),
    valid: ec(urlSpec('https://x.example/hooks')),
    error: 'spec.clientConfig.url: Invalid value: "https://x.example/hooks#top": fragments ("#...") are not allowed in the URL'
  },
  {
    rule: rules.serviceNameRule,
    name: 'service name is a DNS-1035 label',
    invalid: ec(serviceSpec({ name: '1svc' })),
    valid: ec(serviceSpec({ name: 'svc-1' })),
    error: `spec.clientConfig.service.name: Invalid value: "1svc": ${rules.DNS1035_LABEL_MESSAGE}`
  },
  {
    rule: rules.serviceNamespaceRule,
    name: 'service namespace is a DNS-1123 label',
    invalid: ec(serviceSpec({ namespace: 'my.ns' })),
    valid: ec(serviceSpec({ namespace: '1-ns' })),
    error: `spec.clientConfig.service.namespace: Invalid value: "my.ns": ${rules.DNS1123_LABEL_MESSAGE}`
  },
  {
    rule: rules.servicePathValidRule,
    name: 'service path is a valid URL path',
    invalid: ec(serviceSpec({ path: '/hooks/%z' })),
    valid: ec(serviceSpec({ path: '/hooks/%20' })),
    error: 'spec.clientConfig.service.path: Invalid value: "/hooks/%z": must be a valid URL path e.g. /path/to/hook'
  },
  {
    rule: rules.servicePathSlashRule,
    name: 'service path starts with a slash',
    invalid: ec(serviceSpec({ path: 'hooks' })),
    valid: ec(serviceSpec({ path: '/hooks' })),
    error: 'spec.clientConfig.service.path: Invalid value: "hooks": must start with "/" to be a valid URL path'
  },
  {
    rule: rules.servicePortRule,
    name: 'service port is 1..65535',
    invalid: ec(serviceSpec({ port: 65536 })),
    valid: ec(serviceSpec({ port: 65535 })),
    error: 'spec.clientConfig.service.port: Invalid value: 65536: must be between 1 and 65535, inclusive'
  },
  {
    rule: rules.valuesRequiredRule,
    name: 'In and NotIn need values',
    invalid: ec(selectorSpec({ matchExpressions: [{ key: 'env', operator: 'NotIn', values: [] }] })),
    valid: ec(selectorSpec({ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] })),
    error: 'spec.namespaceSelector.matchExpressions[0].values: Invalid value: for \'in\', \'notin\' operators, values set can\'t be empty'
  },
  {
    rule: rules.valuesForbiddenRule,
    name: 'Exists and DoesNotExist take no values',
    invalid: ec(selectorSpec({ matchExpressions: [{ key: 'env', operator: 'Exists', values: ['dev'] }] })),
    valid: ec(selectorSpec({ matchExpressions: [{ key: 'env', operator: 'Exists' }] })),
    error: 'spec.namespaceSelector.matchExpressions[0].values: Invalid value: values set must be empty for exists and does not exist'
  },
  {
    rule: rules.labelKeyRule,
    name: 'requirement keys are qualified names',
    invalid: ec(selectorSpec({ matchExpressions: [{ key: 'team/owner/x', operator: 'Exists' }] })),
    valid: ec(selectorSpec({ matchExpressions: [{ key: 'example.com/team_owner.x', operator: 'Exists' }] })),
    error: `spec.namespaceSelector.matchExpressions[0].key: Invalid value: "team/owner/x": ${rules.LABEL_KEY_MESSAGE}`
  },
  {
    rule: rules.labelKeysRule,
    name: 'matchLabels keys are qualified names',
    invalid: ec(selectorSpec({ matchLabels: { '-env': 'dev' } })),
    valid: ec(selectorSpec({ matchLabels: { 'kubernetes.io/metadata.name': 'dev' } })),
    error: `spec.namespaceSelector.matchLabels: Invalid value: ${rules.LABEL_KEY_MESSAGE}`
  },
  {
    rule: rules.labelValueRule,
    name: 'matchLabels values are label values',
    invalid: ec(selectorSpec({ matchLabels: { env: 'dev!' } })),
    valid: ec(selectorSpec({ matchLabels: { env: '' } })),
    error: `spec.namespaceSelector.matchLabels[env]: Invalid value: "dev!": ${rules.LABEL_VALUE_MESSAGE}`
  },
  {
    rule: rules.labelValueRule,
    name: 'requirement values are label values',
    invalid: ec(selectorSpec({ matchExpressions: [{ key: 'env', operator: 'In', values: ['ok', 'not ok'] }] })),
    valid: ec(selectorSpec({ matchExpressions: [{ key: 'env', operator: 'In', values: ['ok', 'not_ok'] }] })),
    error: `spec.namespaceSelector.matchExpressions[0].values[1]: Invalid value: "not ok": ${rules.LABEL_VALUE_MESSAGE}`
  },
  {
    rule: rules.keyLengthRule(256),
    name: 'settings keys are bounded',
    invalid: ec({ clientConfig: { url: 'https://x.example' }, settings: { ['k'.repeat(257)]: 'v' } }),
    valid: ec({ clientConfig: { url: 'https://x.example' }, settings: { ['k'.repeat(256)]: 'v' } }),
    error: 'spec.settings: Invalid value: keys must be at most 256 characters long'
  },
  {
    rule: rules.specRequiredRule,
    name: 'v1alpha1 objects need a spec',
    invalid: { apiVersion: 'runtime.cluster.x-k8s.io/v1alpha1', kind: 'ExtensionConfig', metadata: { name: 'ext' } },
    valid: ec(urlSpec('https://x.example'), 'ext', 'runtime.cluster.x-k8s.io/v1alpha1'),
    error: 'spec.clientConfig: Invalid value: either url or service must be defined'
  }
]
