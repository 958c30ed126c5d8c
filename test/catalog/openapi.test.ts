import { readFile } from 'node:fs/promises'
import SwaggerParser from '@apidevtools/swagger-parser'
import t from 'tap'
import { buildOpenAPIDocument, createCatalog, hooksOpenAPIDocument } from '../../src/catalog/index.js'
import { renderOpenAPI } from '../../src/cli/openapi.js'
import { parse } from 'yaml'
import { testGroupVersions } from '../helpers/test-hooks.js'

const PREFIX = 'sigs.k8s.io.cluster-api.api.runtime.hooks.v1alpha1'

t.test('the published document is valid OpenAPI with exactly the 17 Cluster API hooks', async t => {
  const document = hooksOpenAPIDocument()
  await SwaggerParser.validate(structuredClone(document) as never)
  const operations = Object.values(document.paths).map(p => p.post)
  t.equal(operations.length, 17)
  t.equal(new Set(operations.map(o => o['operationId'])).size, 17, 'operationIds are unique')
  t.notOk(Object.keys(document.paths).some(p => p.includes('test.runtime')), 'test-only hooks stay out')
})

t.test('operations follow Cluster API\'s document: ids, paths, name parameter, named components', async t => {
  const { paths, components } = hooksOpenAPIDocument()
  const discovery = paths['/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery']?.post
  t.equal(discovery?.['operationId'], 'hooksRuntimeClusterV1alpha1Discovery')
  t.notOk(discovery?.['parameters'], 'Discovery has no {name}')
  const create = paths['/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclustercreate/{name}']?.post
  t.equal(create?.['operationId'], 'hooksRuntimeClusterV1alpha1BeforeClusterCreate')
  t.same(create?.['tags'], ['Lifecycle Hooks'])
  t.match(create?.['parameters'], [{ name: 'name', in: 'path', required: true }])
  t.match(create?.['requestBody'], { content: { 'application/json': { schema: { $ref: `#/components/schemas/${PREFIX}.BeforeClusterCreateRequest` } } } })
  t.match(create?.['responses'], { 200: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${PREFIX}.BeforeClusterCreateResponse` } } } } })
  const response = components.schemas[`${PREFIX}.BeforeClusterCreateResponse`]
  t.match(response, { required: ['retryAfterSeconds', 'status'], properties: { status: { allOf: [{ $ref: `#/components/schemas/${PREFIX}.ResponseStatus` }] }, retryAfterSeconds: { format: 'int32' } } })
  t.match(components.schemas[`${PREFIX}.ResponseStatus`], { type: 'string', enum: ['Success', 'Failure'] })
  const request = components.schemas[`${PREFIX}.BeforeClusterCreateRequest`]
  t.match((request?.['properties'] as Record<string, unknown>)['cluster'], { allOf: [{ $ref: '#/components/schemas/sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster' }], description: /^cluster is/ })
  t.match(components.schemas[`${PREFIX}.DiscoveryResponse`], { properties: { handlers: { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] } } })
  t.match(components.schemas[`${PREFIX}.GeneratePatchesResponseItem`], { properties: { patch: { type: 'string', format: 'byte' } } })
  t.match(components.schemas[`${PREFIX}.GeneratePatchesRequest`], { properties: { items: { type: 'array', nullable: true } } }, 'nil lists may be null')
  t.notOk(JSON.stringify(components).includes('x-runtime-sdk-component'), 'internal keywords do not leak')
})

t.test('the hook schemas are Cluster API\'s: every definition is a component, every property documented', async t => {
  const { schemas } = hooksOpenAPIDocument().components
  t.ok(schemas['sigs.k8s.io.cluster-api.api.core.v1beta2.MachineSet'] && schemas['k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta'], 'embedded objects are components')
  const undocumented: string[] = []
  for (const [name, schema] of Object.entries(schemas)) {
    for (const [property, child] of Object.entries((schema['properties'] ?? {}) as Record<string, Record<string, unknown>>)) {
      if (!child['$ref'] && !child['description']) undocumented.push(`${name}.${property}`)
    }
  }
  t.same(undocumented, [])
})

t.test('a catalog with user groups documents them, deprecated versions included', async t => {
  const document = buildOpenAPIDocument(createCatalog().add(...testGroupVersions), { version: 'test' })
  t.equal(Object.keys(document.paths).length, 17 + 4)
  t.equal(document.paths['/test.runtime.cluster.x-k8s.io/v1alpha1/fakehook/{name}']?.post['deprecated'], true)
  t.notOk(document.paths['/test.runtime.cluster.x-k8s.io/v1alpha3/fakehook/{name}']?.post['deprecated'])
  t.equal(document.paths['/test.runtime.cluster.x-k8s.io/v1alpha2/fakehook/{name}']?.post['operationId'], 'testRuntimeClusterV1alpha2FakeHook')
})

t.test('the committed documents are what the catalog generates', async t => {
  const document = hooksOpenAPIDocument()
  const root = new URL('../../openapi/', import.meta.url)
  t.equal(await readFile(new URL('runtime-sdk.json', root), 'utf8'), renderOpenAPI(document, 'json'))
  t.same(parse(await readFile(new URL('runtime-sdk.yaml', root), 'utf8')), JSON.parse(renderOpenAPI(document, 'json')))
})
