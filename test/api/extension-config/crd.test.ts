// The generated CustomResourceDefinition: names and versions as Cluster API's, schemas Kubernetes accepts
// (structural, bounded for CEL), the rules of the TypeScript validator as x-kubernetes-validations.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { parseAllDocuments } from 'yaml'
import { CRD_FILE, extensionConfigCRD, renderCRD, structuralSchema } from '../../../src/api/extension-config/crd.js'
import { nameRule, notUrlAndServiceRule, specRequiredRule, urlOrServiceRule } from '../../../src/api/extension-config/rules.js'
import * as v1beta2 from '../../../src/api/extension-config/v1beta2.js'

type Schema = Record<string, any>
const crd = extensionConfigCRD()
const [v1alpha1Version, v1beta2Version] = crd.spec.versions
const schemaOf = (version: typeof v1alpha1Version) => version?.schema.openAPIV3Schema as Schema

t.test('names, scope and versions follow Cluster API', async t => {
  t.equal(crd.metadata.name, 'extensionconfigs.runtime.cluster.x-k8s.io')
  t.same(crd.metadata.annotations, { 'cert-manager.io/inject-ca-from': 'runtime-sdk-system/runtime-sdk-serving-cert' })
  t.equal(crd.spec.group, 'runtime.cluster.x-k8s.io')
  t.equal(crd.spec.scope, 'Cluster')
  t.same(crd.spec.names, {
    kind: 'ExtensionConfig', listKind: 'ExtensionConfigList', plural: 'extensionconfigs', singular: 'extensionconfig', shortNames: ['ext'], categories: ['cluster-api']
  })
  t.same(crd.spec.versions.map(v => [v.name, v.served, v.storage, 'deprecated' in v && v.deprecated]), [['v1alpha1', true, false, true], ['v1beta2', true, true, false]])
  for (const version of crd.spec.versions) t.same(version.subresources, { status: {} }, `${version.name} has a status subresource`)
})

t.test('printer columns: Paused (wide), Discovered and Age on v1beta2; Age on v1alpha1', async t => {
  t.same(v1beta2Version?.additionalPrinterColumns.map(c => [c.name, c.type, c.jsonPath, 'priority' in c ? c.priority : 0]), [
    ['Paused', 'string', '.status.conditions[?(@.type=="Paused")].status', 10],
    ['Discovered', 'string', '.status.conditions[?(@.type=="Discovered")].status', 0],
    ['Age', 'date', '.metadata.creationTimestamp', 0]
  ])
  t.same(v1alpha1Version?.additionalPrinterColumns.map(c => c.name), ['Age'])
})

t.test('conversion by webhook: ConversionReview v1 to the controller\'s Service', async t => {
  t.same(crd.spec.conversion, {
    strategy: 'Webhook',
    webhook: {
      conversionReviewVersions: ['v1'],
      clientConfig: { service: { namespace: 'runtime-sdk-system', name: 'runtime-sdk-webhook-service', path: '/convert', port: 443 } }
    }
  })
})

/** Every schema node with its path, the property name it sits under (if any), and whether it is a map value. */
function * nodes (schema: Schema, path = '', name?: string): Generator<{ node: Schema, path: string, name?: string }> {
  yield { node: schema, path, ...(name !== undefined ? { name } : {}) }
  for (const [key, child] of Object.entries(schema['properties'] ?? {})) yield * nodes(child as Schema, `${path}.${key}`, key)
  if (schema['items']) yield * nodes(schema['items'], `${path}[]`)
  if (typeof schema['additionalProperties'] === 'object') yield * nodes(schema['additionalProperties'], `${path}{}`)
}

for (const version of crd.spec.versions) {
  t.test(`${version.name}: structural and bounded`, async t => {
    const all = [...nodes(schemaOf(version))]
    t.ok(all.length > 45, `${all.length} schema nodes`)
    const problems: string[] = []
    for (const { node, path, name } of all) {
      const at = path || '(root)'
      if (typeof node['type'] !== 'string') problems.push(`${at}: no type`)
      if (node['type'] === 'string' && typeof node['maxLength'] !== 'number') problems.push(`${at}: string without maxLength`)
      if (node['type'] === 'array' && typeof node['maxItems'] !== 'number') problems.push(`${at}: list without maxItems`)
      if (typeof node['additionalProperties'] === 'object' && typeof node['maxProperties'] !== 'number') problems.push(`${at}: map without maxProperties`)
      if (node['type'] === 'integer' && (!['int32', 'int64'].includes(node['format']) || node['minimum'] === undefined || node['maximum'] === undefined)) {
        problems.push(`${at}: integer without format and bounds`)
      }
      // Kubernetes forbids anything but name and generateName under metadata, a description included.
      if (name !== undefined && path !== '.metadata' && !(typeof node['description'] === 'string' && node['description'].startsWith(`${name} `))) {
        problems.push(`${at}: description does not start with "${name} ": ${JSON.stringify(node['description'])}`)
      }
      for (const key of Object.keys(node)) {
        if (key.startsWith('x-runtime-sdk') || ['$id', '$schema', 'patternProperties', 'propertyNames'].includes(key)) problems.push(`${at}: keyword ${key}`)
      }
      if ('additionalProperties' in node && typeof node['additionalProperties'] !== 'object') problems.push(`${at}: additionalProperties ${node['additionalProperties']}`)
    }
    t.same(problems, [])
  })
}

t.test('metadata: only the name, which the root rule checks', async t => {
  for (const version of crd.spec.versions) {
    const schema = schemaOf(version)
    const name = v1beta2.ExtensionConfig.properties.metadata.properties.name as Schema
    t.same(schema['properties'].metadata, { type: 'object', properties: { name: { type: 'string', maxLength: 253, description: name['description'] } } })
    t.notOk(schema['required']?.includes('metadata'), 'metadata is not listed as required')
    t.same(schema['x-kubernetes-validations'][0], { rule: nameRule.rule, message: nameRule.message, fieldPath: '.metadata.name' })
  }
  t.same(schemaOf(v1alpha1Version)['x-kubernetes-validations'][1], { rule: specRequiredRule.rule, message: specRequiredRule.message, fieldPath: '.spec.clientConfig' })
  t.same(schemaOf(v1beta2Version)['required'], ['spec'], 'v1beta2 requires a spec; v1alpha1 does not')
  t.equal(schemaOf(v1alpha1Version)['required'], undefined)
})

t.test('spec: defaults, rules and list types where Kubernetes expects them', async t => {
  for (const version of crd.spec.versions) {
    const spec = schemaOf(version)['properties'].spec
    const clientConfig = spec.properties.clientConfig
    t.same(clientConfig['x-kubernetes-validations'], [
      { rule: urlOrServiceRule.rule, message: urlOrServiceRule.message },
      { rule: notUrlAndServiceRule.rule, message: notUrlAndServiceRule.message }
    ])
    t.equal(clientConfig.minProperties, version.name === 'v1beta2' ? 1 : undefined, 'minProperties on v1beta2 only')
    t.equal(clientConfig.properties.url['x-kubernetes-validations'].length, 5)
    t.equal(clientConfig.properties.service.properties.port.default, 443)
    t.same(clientConfig.properties.service.required, ['namespace', 'name'])
    t.equal(clientConfig.properties.caBundle.format, 'byte')
    const selector = spec.properties.namespaceSelector
    t.same([selector.default, selector['x-kubernetes-map-type']], [{}, 'atomic'])
    t.equal(selector.properties.matchExpressions['x-kubernetes-list-type'], 'atomic')
    t.same(selector.properties.matchExpressions.items.properties.operator.enum, ['In', 'NotIn', 'Exists', 'DoesNotExist'])
    t.same(spec.properties.settings.additionalProperties, { type: 'string', maxLength: 4096 })
  }
})

t.test('status: conditions and handlers are list maps; v1alpha1 keeps the legacy layout', async t => {
  const hub = schemaOf(v1beta2Version)['properties'].status
  t.same([hub.properties.conditions['x-kubernetes-list-type'], hub.properties.conditions['x-kubernetes-list-map-keys'], hub.properties.conditions.maxItems], ['map', ['type'], 32])
  t.same([hub.properties.handlers['x-kubernetes-list-type'], hub.properties.handlers['x-kubernetes-list-map-keys'], hub.properties.handlers.maxItems], ['map', ['name'], 512])
  t.ok(hub.properties.conditions.items.required.includes('type'))
  t.ok(hub.properties.handlers.items.required.includes('name'))
  t.same(hub.properties.conditions.items.properties.reason.pattern, '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$')
  t.equal(hub.properties.handlers.items.properties.timeoutSeconds.minimum, 1)
  t.equal(hub.minProperties, 1)
  t.ok(hub.properties.deprecated.properties.v1beta1.properties.conditions.items.properties.severity)

  const spoke = schemaOf(v1alpha1Version)['properties'].status
  t.same(Object.keys(spoke.properties).sort(), ['conditions', 'handlers', 'v1beta2'])
  t.ok(spoke.properties.conditions.items.properties.severity, 'status.conditions are legacy conditions')
  t.same(spoke.properties.v1beta2.properties.conditions['x-kubernetes-list-map-keys'], ['type'])
  t.equal(spoke.properties.handlers.items.properties.timeoutSeconds.minimum, -(2 ** 31), 'no lower bound on v1alpha1 timeouts')
})

t.test('structuralSchema does not modify the schema it reads', async t => {
  const before = JSON.stringify(v1beta2.ExtensionConfig)
  structuralSchema(v1beta2.ExtensionConfig)
  t.equal(JSON.stringify(v1beta2.ExtensionConfig), before)
})

t.test('the committed CRD file is the rendered one', async t => {
  const rendered = renderCRD()
  t.equal(readFileSync(new URL(`../../../${CRD_FILE}`, import.meta.url), 'utf8'), rendered, 'run npm run generate')
  const docs = parseAllDocuments(rendered)
  t.same((Array.isArray(docs) ? docs : [docs]).map(d => d.toJS()), [crd])
})
