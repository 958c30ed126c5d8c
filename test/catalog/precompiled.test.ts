// The decoders generated for Cluster API's hooks (src/catalog/decoders/, one file per group of hooks): every hook has
// them, a group's file is loaded by the first check of one of its hooks only, and a schema that is not Cluster API's
// very object (a copy, a hook of your own) is compiled by Ajv instead.
import { createRequire } from 'node:module'
import t from 'tap'
import { groupVersion } from '../../src/api/hooks/v1alpha1/index.js'
import { isPrecompiled, precompiledDecoder, precompiledGroups } from '../../src/catalog/precompiled.js'
import { validate } from '../../src/catalog/validate.js'

const loadedDecoders = () => Object.keys(createRequire(import.meta.url).cache)
  .filter(path => path.includes('/src/catalog/decoders/')).map(path => path.slice(path.lastIndexOf('/') + 1))

t.test('a group\'s decoders are loaded by the first check of one of its hooks, and no other group\'s', async t => {
  t.same(loadedDecoders(), [], 'nothing is loaded up front')
  const discovery = groupVersion.hooks.find(h => h.hook === 'Discovery')!
  t.equal(validate(discovery.response, { status: 'Success', handlers: [] }, 'decode'), undefined)
  t.same(loadedDecoders(), ['discovery.generated.cjs'])
  const create = groupVersion.hooks.find(h => h.hook === 'BeforeClusterCreate')!
  t.equal(validate(create.request, { cluster: { metadata: {} } }), undefined)
  t.same(loadedDecoders().sort(), ['discovery.generated.cjs', 'lifecycle-hooks.generated.cjs'])
})

t.test('every hook\'s request and response has a generated decoder, in the file of its group', async t => {
  const groups = precompiledGroups()
  t.same([...groups.values()].flat().map(h => h.hook).sort(), groupVersion.hooks.map(h => h.hook).sort(), 'every hook in one group')
  t.same([...groups.keys()].sort(), ['./decoders/chained-upgrade-hook.generated.cjs', './decoders/discovery.generated.cjs', './decoders/in-place-update-hooks.generated.cjs',
    './decoders/lifecycle-hooks.generated.cjs', './decoders/topology-mutation-hook.generated.cjs'])
  for (const def of groupVersion.hooks) {
    t.type(precompiledDecoder(def.request), 'function', `${def.hook} request`)
    t.type(precompiledDecoder(def.response), 'function', `${def.hook} response`)
  }
})

t.test('a schema that is not Cluster API\'s own object (a copy, a hook of your own) is compiled by Ajv at run time', async t => {
  const def = groupVersion.hooks.find(h => h.hook === 'BeforeClusterCreate')!
  const copy = structuredClone(def.request)
  t.notOk(isPrecompiled(copy))
  t.equal(precompiledDecoder(copy), undefined)
  const body = { cluster: { metadata: { name: 5 } } }
  t.equal(validate(copy, body), 'cluster.metadata.name: must be a string, got an integer', 'its JSON Schema, by Ajv')
  t.equal(validate(def.request, body), 'cluster.metadata.name: json: cannot unmarshal number into Go value of type string', 'Cluster API\'s, as Go decodes it')
})
