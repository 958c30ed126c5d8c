// validateExtensionConfig beyond the rules: defaulting, strictness, type errors named like the API server
// names them, the v1alpha1 path, and an observed status passing through.
import t from 'tap'
import { V1ALPHA1_DEPRECATION_WARNING } from '../../../src/api/extension-config/constants.js'
import { applyDefaults, RULES_NOT_CHECKED, validateExtensionConfig } from '../../../src/api/extension-config/validate.js'
import * as v1beta2 from '../../../src/api/extension-config/v1beta2.js'

const V1BETA2 = 'runtime.cluster.x-k8s.io/v1beta2'
const V1ALPHA1 = 'runtime.cluster.x-k8s.io/v1alpha1'
const ec = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: V1BETA2, kind: 'ExtensionConfig', metadata: { name: 'ext' }, spec, ...extra })

const errorsOf = (input: unknown) => {
  const result = validateExtensionConfig(input)
  return result.ok ? [] : result.errors
}

t.test('defaults: namespaceSelector {} and service port 443, like Cluster API\'s defaulting webhook', async t => {
  const input = ec({ clientConfig: { service: { name: 'svc', namespace: 'ns' } } })
  const result = validateExtensionConfig(input)
  t.ok(result.ok)
  if (!result.ok) return
  t.same(result.value.spec, { clientConfig: { service: { name: 'svc', namespace: 'ns', port: 443 } }, namespaceSelector: {} })
  t.same(result.warnings, [])
  t.same(input.spec, { clientConfig: { service: { name: 'svc', namespace: 'ns' } } }, 'the input is not modified')

  const explicit = validateExtensionConfig(ec({ clientConfig: { service: { name: 'svc', namespace: 'ns', port: 8443 } }, namespaceSelector: { matchLabels: { a: 'b' } } }))
  t.same(explicit.ok && explicit.value.spec, { clientConfig: { service: { name: 'svc', namespace: 'ns', port: 8443 } }, namespaceSelector: { matchLabels: { a: 'b' } } }, 'set values stay')
  const url = validateExtensionConfig(ec({ clientConfig: { url: 'https://x.example' } }))
  t.same(url.ok && url.value.spec.clientConfig, { url: 'https://x.example' }, 'no port without a service')
})

t.test('applyDefaults fills missing fields at any depth, lists included', async t => {
  const value = { spec: { clientConfig: { service: {} } } }
  applyDefaults(v1beta2.ExtensionConfig, value)
  t.same(value.spec, { clientConfig: { service: { port: 443 } }, namespaceSelector: {} })
  const list = [{ spec: { clientConfig: { service: {} } } }]
  applyDefaults({ type: 'array', items: v1beta2.ExtensionConfig } as never, list)
  t.same(list[0]?.spec.clientConfig.service, { port: 443 })
})

t.test('unknown fields are errors, not silently dropped', async t => {
  t.same(errorsOf(ec({ clientConfig: { url: 'https://x.example', timeout: 5 } })), ['unknown field "spec.clientConfig.timeout"'])
  t.same(errorsOf(ec({ clientConfig: { url: 'https://x.example' }, namespaceSelector: { matchLabel: {} } })), ['unknown field "spec.namespaceSelector.matchLabel"'])
  t.same(errorsOf(ec({ clientConfig: { url: 'https://x.example' } }, { specs: {} })), ['unknown field "specs"'])
  t.same(errorsOf(ec({ clientConfig: { url: 'https://x.example' } }, { metadata: { name: 'ext', uid: 'u', managedFields: [] } })), [], 'metadata belongs to Kubernetes: its fields pass')
})

t.test('schema errors name the field like the API server; they keep the rules from running', async t => {
  t.same(errorsOf(ec({ clientConfig: { url: 443 } })), [
    'spec.clientConfig.url: Invalid value: "integer": spec.clientConfig.url in body must be of type string: "integer"',
    RULES_NOT_CHECKED
  ])
  t.same(errorsOf(ec({ clientConfig: { service: { namespace: 'ns' } } })), ['spec.clientConfig.service.name: Required value', RULES_NOT_CHECKED])
  t.same(errorsOf({ apiVersion: V1BETA2, kind: 'ExtensionConfig', metadata: { name: 'ext' } }), ['spec: Required value', RULES_NOT_CHECKED])
  t.same(errorsOf({ apiVersion: V1BETA2, kind: 'ExtensionConfig', spec: { clientConfig: { url: 'https://x' } } }), ['metadata: Required value', RULES_NOT_CHECKED])
  t.same(errorsOf(ec({ clientConfig: { url: 'https://x.example' }, namespaceSelector: { matchExpressions: [{ key: 'k', operator: 'Like' }] } })), [
    'spec.namespaceSelector.matchExpressions[0].operator: Unsupported value: "Like": supported values: "In", "NotIn", "Exists", "DoesNotExist"',
    RULES_NOT_CHECKED
  ])
  t.same(errorsOf(ec({ clientConfig: { url: `https://${'x'.repeat(505)}` } })), ['spec.clientConfig.url: Too long: may not be more than 512 bytes', RULES_NOT_CHECKED])
  t.same(errorsOf(ec({ clientConfig: { url: 'https://x.example', caBundle: 'not base64!' } })), [
    'spec.clientConfig.caBundle: Invalid value: "not base64!": spec.clientConfig.caBundle in body must be of type byte: "not base64!"',
    RULES_NOT_CHECKED
  ])
  t.same(errorsOf(ec({ clientConfig: { url: 'https://x.example' }, settings: Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`k${i}`, 'v'])) })), [
    'spec.settings: Too many: 129: must have at most 128 items',
    RULES_NOT_CHECKED
  ])
  t.same(errorsOf(ec({ clientConfig: { url: 'https://x.example' }, settings: { 'app.kubernetes.io/name': 5 } })), [
    'spec.settings.app.kubernetes.io/name: Invalid value: "integer": spec.settings.app.kubernetes.io/name in body must be of type string: "integer"',
    RULES_NOT_CHECKED
  ], 'map keys join the path with a dot, as kube-openapi does')
})

t.test('non-blocking schema errors come with the rule errors', async t => {
  t.same(errorsOf(ec({ clientConfig: {} })), [
    'spec.clientConfig: Invalid value: 0: spec.clientConfig in body should have at least 1 properties',
    'spec.clientConfig: Invalid value: either url or service must be defined'
  ])
  t.same(errorsOf(ec({ clientConfig: { url: '' } })), [
    'spec.clientConfig.url: Invalid value: "": spec.clientConfig.url in body should be at least 1 chars long',
    'spec.clientConfig.url: Invalid value: "": must be a valid URL with a host, e.g. https://example.com'
  ])
  t.same(errorsOf(ec({ clientConfig: { service: { name: 'svc', namespace: 'ns', port: 2 ** 31 } } })), [
    'spec.clientConfig.service.port: Invalid value: 2147483648: spec.clientConfig.service.port in body should be less than or equal to 2147483647',
    '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.clientConfig.service.port',
    'spec.clientConfig.service.port: Invalid value: 2147483648: must be between 1 and 65535, inclusive'
  ])
  t.same(errorsOf(ec({ clientConfig: { service: { name: 'svc', namespace: 'ns', port: -1 } } })).length, 1, 'int32 allows -1; the port rule does not')
})

t.test('type information is checked first', async t => {
  t.same(errorsOf('ext'), ['<nil>: Invalid value: "string": an ExtensionConfig must be an object'])
  t.same(errorsOf([]), ['<nil>: Invalid value: "array": an ExtensionConfig must be an object'])
  t.same(errorsOf({ kind: 'ExtensionConfig' }), ['apiVersion: Required value'])
  t.same(errorsOf({ apiVersion: 'runtime.cluster.x-k8s.io/v1beta1', kind: 'Extension' }), [
    'apiVersion: Unsupported value: "runtime.cluster.x-k8s.io/v1beta1": supported values: "runtime.cluster.x-k8s.io/v1beta2", "runtime.cluster.x-k8s.io/v1alpha1"',
    'kind: Unsupported value: "Extension": supported values: "ExtensionConfig"'
  ])
  t.same(errorsOf({ apiVersion: V1BETA2 }), ['kind: Required value'])
})

t.test('v1alpha1 documents are validated as v1alpha1, converted to v1beta2 and warned about', async t => {
  const input = {
    apiVersion: V1ALPHA1,
    kind: 'ExtensionConfig',
    metadata: { name: 'ext', annotations: { 'runtime.cluster.x-k8s.io/inject-ca-from-secret': 'ns/cert' } },
    spec: { clientConfig: { service: { name: 'svc', namespace: 'ns', path: '/hooks' } }, settings: { a: 'b' } },
    status: {
      conditions: [{ type: 'Discovered', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }],
      v1beta2: { conditions: [{ type: 'Discovered', status: 'True', reason: 'Discovered', message: '', lastTransitionTime: '2025-01-01T00:00:00Z' }] }
    }
  }
  const result = validateExtensionConfig(input)
  t.ok(result.ok)
  if (!result.ok) return
  t.same(result.warnings, [V1ALPHA1_DEPRECATION_WARNING])
  t.equal(result.warnings[0], 'runtime.cluster.x-k8s.io/v1alpha1 ExtensionConfig is deprecated; use runtime.cluster.x-k8s.io/v1beta2 ExtensionConfig')
  t.same(result.value, {
    apiVersion: V1BETA2,
    kind: 'ExtensionConfig',
    metadata: input.metadata,
    spec: { clientConfig: { service: { name: 'svc', namespace: 'ns', path: '/hooks', port: 443 } }, settings: { a: 'b' }, namespaceSelector: {} },
    status: {
      conditions: input.status.v1beta2.conditions,
      deprecated: { v1beta1: { conditions: input.status.conditions } }
    }
  })
  t.same(errorsOf({ ...input, spec: { clientConfig: { url: 'http://x.example' } } }), [
    'spec.clientConfig.url: Invalid value: "http://x.example": \'https\' is the only allowed URL scheme, e.g. https://example.com'
  ], 'v1alpha1 objects follow the same rules')
  t.same(errorsOf({ ...input, spec: { clientConfig: {} } }), ['spec.clientConfig: Invalid value: either url or service must be defined'], 'v1alpha1 has no minProperties on clientConfig')
})

t.test('the status is observed state: any object passes, as written', async t => {
  const status = { handlers: [{ name: 'h.ext', requestHook: { apiVersion: 'x', hook: 'Y' }, failurePolicy: 'Sometimes', timeoutSeconds: 0 }], futureField: [1], conditions: [{ type: 'Discovered' }] }
  const result = validateExtensionConfig(ec({ clientConfig: { url: 'https://x.example' } }, { status }))
  t.same(result.ok && result.value.status, status)
  t.same(errorsOf(ec({ clientConfig: { url: 'https://x.example' } }, { status: [] })), [
    'status: Invalid value: "array": status in body must be of type object: "array"',
    RULES_NOT_CHECKED
  ])
})

t.test('the example of the Cluster API book validates', async t => {
  const result = validateExtensionConfig({
    apiVersion: V1BETA2,
    kind: 'ExtensionConfig',
    metadata: { name: 'test-extension', annotations: { 'runtime.cluster.x-k8s.io/inject-ca-from-secret': 'test-extension-system/test-extension-webhook-service-cert' } },
    spec: {
      clientConfig: { service: { name: 'test-extension-webhook-service', namespace: 'test-extension-system', port: 443 } },
      namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['default'] }] },
      settings: { extensionConfigName: 'test-extension' }
    }
  })
  t.ok(result.ok, result.ok ? 'valid' : result.errors.join('\n'))
})
