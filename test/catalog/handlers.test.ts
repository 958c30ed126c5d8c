import t from 'tap'
import { createCatalog, dns1123LabelErrors, validateDiscoveredHandlers } from '../../src/catalog/index.js'

const catalog = createCatalog()
const hook = (hook: string, apiVersion = 'hooks.runtime.cluster.x-k8s.io/v1alpha1') => ({ apiVersion, hook })

t.test('discovered handlers are defaulted: timeout 10, policy Fail', async t => {
  const result = validateDiscoveredHandlers(catalog, [
    { name: 'a', requestHook: hook('BeforeClusterCreate') },
    { name: 'b', requestHook: hook('GeneratePatches'), timeoutSeconds: 0, failurePolicy: 'Ignore' }
  ])
  t.same(result, {
    handlers: [
      { name: 'a', requestHook: hook('BeforeClusterCreate'), timeoutSeconds: 10, failurePolicy: 'Fail' },
      { name: 'b', requestHook: hook('GeneratePatches'), timeoutSeconds: 0, failurePolicy: 'Ignore' }
    ]
  })
  t.same(validateDiscoveredHandlers(catalog, []), { handlers: [] }, 'no handlers is valid')
})

t.test('one error is reported bare, several in brackets, with Cluster API\'s wording', async t => {
  t.same(validateDiscoveredHandlers(catalog, [{ name: 'a', requestHook: hook('BeforeClusterCreate'), timeoutSeconds: 31 }]),
    { error: 'failed to validate discovery response: handler a timeoutSeconds 31 must be between 0 and 30' })
  const result = validateDiscoveredHandlers(catalog, [
    { name: 'dup', requestHook: hook('BeforeClusterCreate') },
    { name: 'dup', requestHook: hook('BeforeClusterCreate') },
    { name: 'Bad_Name', requestHook: hook('BeforeClusterCreate') },
    { name: 'p', requestHook: hook('BeforeClusterCreate'), failurePolicy: 'Sometimes' },
    { name: 'v', requestHook: hook('BeforeClusterCreate', 'a/b/c') },
    { name: 'u', requestHook: hook('NoSuchHook') },
    { name: 'w', requestHook: hook('BeforeClusterCreate', 'hooks.runtime.cluster.x-k8s.io/v1alpha2') }
  ])
  t.same(result, {
    error: 'failed to validate discovery response: [duplicate name for handler dup found, ' +
      `handler name Bad_Name is not valid: [${dns1123LabelErrors('Bad_Name').join(', ')}], ` +
      'handler p failurePolicy Sometimes must equal "Ignore" or "Fail", ' +
      'handler v requestHook APIVersion a/b/c is not valid: unexpected GroupVersion string: a/b/c, ' +
      'handler u requestHook hooks.runtime.cluster.x-k8s.io/v1alpha1/NoSuchHook is not in the Runtime SDK catalog, ' +
      'handler w requestHook hooks.runtime.cluster.x-k8s.io/v1alpha2/BeforeClusterCreate is not in the Runtime SDK catalog]'
  })
})

t.test('DNS-1123 labels', async t => {
  t.same(dns1123LabelErrors('before-cluster-create'), [])
  t.same(dns1123LabelErrors('0abc'), [])
  t.match(dns1123LabelErrors('-a')[0], /a lowercase RFC 1123 label must consist of lower case alphanumeric characters/)
  t.same(dns1123LabelErrors('a'.repeat(64)), ['must be no more than 63 characters'])
  t.equal(dns1123LabelErrors('A.b').length, 1)
})
