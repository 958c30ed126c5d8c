// The Go decoders generated for Cluster API's hooks (src/catalog/decoder/*.generated.ts, one ESM module per Go
// package): every hook's request and response has one, each Go type's checker is written once across the modules,
// and a schema that is not Cluster API's very object (a copy, a hook of your own) is compiled by Ajv instead.
import { readdirSync, readFileSync } from 'node:fs'
import t from 'tap'
import { groupVersion } from '../../src/api/hooks/v1alpha1/index.js'
import { goDecoder } from '../../src/catalog/decoder/hook-checkers.js'
import { validate } from '../../src/catalog/validate.js'

const DIR = new URL('../../src/catalog/decoder/', import.meta.url)
const modules = readdirSync(DIR).filter(name => name.endsWith('.generated.ts')).sort()

t.test('one module per Go package, no CommonJS', async t => {
  t.same(modules, ['builtin.generated.ts', 'clusterv1.generated.ts', 'corev1.generated.ts', 'metav1.generated.ts', 'runtimehooksv1.generated.ts'])
  t.same(readdirSync(new URL('../../src/', import.meta.url), { recursive: true }).filter(p => String(p).endsWith('.cjs')), [], 'no .cjs under src')
})

t.test('each checker is written once: one function per Go type across the modules', async t => {
  const functions = new Map<string, string[]>()
  const types = new Map<string, string[]>()
  for (const name of modules) {
    const text = readFileSync(new URL(name, DIR), 'utf8')
    for (const [, fn] of text.matchAll(/^(?:export )?function (\w+) /gm)) functions.set(fn!, [...functions.get(fn!) ?? [], name])
    // A struct's checker is documented by its definition name.
    for (const [, def] of text.matchAll(/^\/\*\* ([\w.-]+) \*\/$/gm)) types.set(def!, [...types.get(def!) ?? [], name])
  }
  t.ok(functions.size > 150, `${functions.size} functions`)
  t.same([...functions].filter(([, where]) => where.length > 1), [], 'no function name twice')
  t.same([...types].filter(([, where]) => where.length > 1), [], 'no Go type checked twice')
  t.same(types.get('k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta'), ['metav1.generated.ts'], 'in the module of its package')
})

t.test('every hook\'s request and response has a Go decoder', async t => {
  for (const def of groupVersion.hooks) {
    t.type(goDecoder(def.request), 'function', `${def.hook} request`)
    t.type(goDecoder(def.response), 'function', `${def.hook} response`)
  }
})

t.test('every hook schema is plain JSON, acyclic (another copy of the package matches hooks by their JSON)', async t => {
  for (const def of groupVersion.hooks) {
    t.doesNotThrow(() => JSON.stringify(def.request), `${def.hook} request`)
    t.doesNotThrow(() => JSON.stringify(def.response), `${def.hook} response`)
  }
})

t.test('a schema that is not Cluster API\'s own object (a copy, a hook of your own) is compiled by Ajv at run time', async t => {
  const def = groupVersion.hooks.find(h => h.hook === 'BeforeClusterCreate')!
  const copy = structuredClone(def.request)
  t.equal(goDecoder(copy), undefined)
  const body = { cluster: { metadata: { name: 5 } } }
  t.equal(validate(copy, body), 'cluster.metadata.name: must be a string, got an integer', 'its JSON Schema, by Ajv')
  t.equal(validate(def.request, body), 'cluster.metadata.name: json: cannot unmarshal number into Go value of type string', 'Cluster API\'s, as Go decodes it')
})
