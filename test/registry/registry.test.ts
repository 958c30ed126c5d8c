import t from 'tap'
import type { ExtensionConfig } from '../../src/api/extension-config/types.js'
import { extensionNameFromHandlerName, nameForHandler, ExtensionRegistry } from '../../src/registry/index.js'

const API = 'hooks.runtime.cluster.x-k8s.io/v1alpha1'
const BCC = { group: 'hooks.runtime.cluster.x-k8s.io', hook: 'BeforeClusterCreate' }

function ec (name: string, handlers: Array<[string, string, string?]>, extra: Partial<ExtensionConfig['spec']> = {}, resourceVersion = '1'): ExtensionConfig {
  return {
    metadata: { name, resourceVersion },
    spec: { clientConfig: { url: `https://${name}.example` }, namespaceSelector: {}, settings: { ec: name }, ...extra },
    status: { handlers: handlers.map(([h, hook, apiVersion]) => ({ name: `${h}.${name}`, requestHook: { apiVersion: apiVersion ?? API, hook } })) }
  }
}

t.test('warm-up gates every operation', async t => {
  const r = new ExtensionRegistry()
  t.equal(r.isReady(), false)
  t.throws(() => r.get('a.b'), { message: 'invalid operation: Get cannot be called on a registry not yet ready' })
  t.throws(() => r.list(BCC), { message: 'invalid operation: List cannot be called on a registry which has not been warmed up' })
  t.throws(() => r.add(ec('x', [])), { message: 'invalid operation: Add cannot be called on a registry which has not been warmed up' })
  t.throws(() => r.remove(ec('x', [])), { message: 'invalid operation: Remove cannot be called on a registry which has not been warmed up' })
  t.throws(() => r.warmUp(undefined), { message: 'invalid argument: when calling WarmUp extensionConfigList must not be nil' })
  let resolved = false
  const ready = r.ready().then(() => { resolved = true })
  t.throws(() => r.warmUp([ec('bad', [['h', 'BeforeClusterCreate', 'a/b/c']])]), { message: 'failed to parse GroupVersion of handler "h.bad": unexpected GroupVersion string: a/b/c' })
  t.equal(r.isReady(), false, 'a failed warm-up leaves the registry not ready')
  await Promise.resolve()
  t.equal(resolved, false)
  r.warmUp([ec('one', [['h', 'BeforeClusterCreate']])])
  await ready
  t.equal(resolved, true)
  t.equal(r.isReady(), true)
  t.throws(() => r.warmUp([]), { message: 'invalid operation: WarmUp cannot be called on a registry which has already been warmed up' })
  t.throws(() => r.add(null), { message: 'invalid argument: when calling Add extensionConfig must not be nil' })
  t.throws(() => r.remove(null), { message: 'invalid argument: when calling Remove extensionConfig must not be nil' })
  t.throws(() => r.list({ group: '', hook: 'X' }), { message: 'invalid argument: when calling List gh.Group and gh.Hook must not be empty' })
})

t.test('registrations: names, defaults, all versions of a hook, order by name', async t => {
  const r = new ExtensionRegistry()
  r.warmUp([
    ec('zeta', [['b', 'BeforeClusterCreate'], ['x', 'AfterControlPlaneInitialized']]),
    ec('alpha', [['b', 'BeforeClusterCreate', 'hooks.runtime.cluster.x-k8s.io/v1alpha2']], { settings: { k: 'v' } }, '42')
  ])
  t.same(r.list(BCC).map(x => x.name), ['b.alpha', 'b.zeta'])
  const reg = r.get('b.alpha')
  t.same(reg, {
    name: 'b.alpha',
    handlerName: 'b',
    extensionConfigName: 'alpha',
    extensionConfigResourceVersion: '42',
    gvh: { group: 'hooks.runtime.cluster.x-k8s.io', version: 'v1alpha2', hook: 'BeforeClusterCreate' },
    namespaceSelector: {},
    clientConfig: { url: 'https://alpha.example' },
    timeoutSeconds: 10,
    failurePolicy: 'Fail',
    settings: { k: 'v' }
  })
  t.throws(() => r.get('nope.alpha'), { message: 'handler with name "nope.alpha" has not been registered' })
  t.same(r.all().map(x => x.name), ['b.alpha', 'b.zeta', 'x.zeta'])
})

t.test('add replaces atomically; a failed add keeps the previous handlers; remove', async t => {
  const r = new ExtensionRegistry()
  r.warmUp([ec('ext', [['a', 'BeforeClusterCreate'], ['b', 'BeforeClusterCreate']]), ec('other', [['a', 'BeforeClusterCreate']])])
  r.add(ec('ext', [['c', 'BeforeClusterCreate']], {}, '2'))
  t.same(r.list(BCC).map(x => x.name), ['a.other', 'c.ext'])
  t.throws(() => r.add(ec('ext', [['d', 'BeforeClusterCreate'], ['e', 'BeforeClusterCreate', '/']])), /failed to parse GroupVersion of handler "e.ext"/)
  t.same(r.list(BCC).map(x => x.name), ['a.other', 'c.ext'], 'unchanged (Cluster API would have removed c.ext)')
  t.throws(() => r.add(ec('ext', [], { namespaceSelector: { matchExpressions: [{ key: 'k', operator: 'In' }] } })),
    { message: 'failed to add ExtensionConfig "ext": invalid namespaceSelector: values: Invalid value: []: for \'in\', \'notin\' operators, values set can\'t be empty' })
  t.throws(() => r.add(ec('ext', [], { namespaceSelector: { matchExpressions: [{ key: 'k', operator: 'Maybe' }, { key: 'k', operator: 'Exists', values: ['x'] }] } })),
    { message: 'failed to add ExtensionConfig "ext": invalid namespaceSelector: ["Maybe" is not a valid label selector operator, values: Invalid value: ["x"]: values set must be empty for exists and does not exist]' })
  const bad = ec('ext', [['p', 'BeforeClusterCreate']])
  bad.status!.handlers![0]!.failurePolicy = 'Sometimes'
  t.throws(() => r.add(bad), { message: 'handler "p.ext" has an invalid failurePolicy "Sometimes"' })
  const ignore = ec('ext', [['p', 'BeforeClusterCreate']])
  Object.assign(ignore.status!.handlers![0]!, { failurePolicy: 'Ignore', timeoutSeconds: 3 })
  r.add(ignore)
  t.same([r.get('p.ext').failurePolicy, r.get('p.ext').timeoutSeconds], ['Ignore', 3])
  r.remove(ec('ext', []))
  t.same(r.list(BCC).map(x => x.name), ['a.other'])
  const noSelector = ec('plain', [['a', 'BeforeClusterCreate']])
  delete noSelector.spec.namespaceSelector
  r.add(noSelector)
  t.equal(r.get('a.plain').namespaceSelector, undefined, 'no selector stays undefined (matches nothing, like Cluster API)')
})

t.test('handler name helpers', async t => {
  t.equal(nameForHandler('h', 'ext'), 'h.ext')
  t.equal(extensionNameFromHandlerName('h.ext'), 'ext')
  t.throws(() => extensionNameFromHandlerName('h.ext.x'), { message: 'registered handler name h.ext.x was not in the expected format (`HANDLER_NAME.EXTENSION_NAME)' })
})
