// The generated validators (src/catalog/validators/) must answer exactly as Ajv compiling the same schema at run
// time does: same verdict, same errors, so the same Failure message. Checked on Cluster API's Go-marshalled
// fixtures and on variants of them with one field dropped or of the wrong type.
import { readFileSync } from 'node:fs'
import t from 'tap'
import { groupVersion } from '../../src/api/hooks/v1alpha1/index.js'
import { precompiledTargets, precompiledValidator } from '../../src/catalog/precompiled.js'
import { SchemaCompiler } from '../../src/catalog/schema-compiler.js'
import { validate } from '../../src/catalog/validate.js'

const fixture = (hook: string, part: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/v1alpha1/${hook.toLowerCase()}.${part}.json`, import.meta.url), 'utf8'))

type Path = Array<string | number>

/** Every path to a value in a JSON document, the root excluded. */
function paths (value: unknown, at: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return []
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value)
  return entries.flatMap(([key, v]) => [[...at, key], ...paths(v, [...at, key])])
}

/** The document with the value at a path replaced (or deleted when `to` is a symbol). */
function changed (doc: unknown, path: Path, to: unknown): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>
  let parent = copy
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
  const last = path[path.length - 1] as string | number
  if (typeof to === 'symbol') delete parent[last]
  else parent[last] = to
  return copy
}

const DROP = Symbol('drop')
const wrongType = (value: unknown): unknown => typeof value === 'string' ? 12345 : typeof value === 'number' ? 'x' : value === null ? 1.5 : 'x'

/** The fixture and its variants: each field dropped, each value of the wrong type, a bad date and bad base64. */
function variants (doc: unknown): unknown[] {
  const out = [doc, [], null, 'x']
  for (const path of paths(doc)) {
    const value = path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], doc)
    out.push(changed(doc, path, DROP), changed(doc, path, wrongType(value)))
    if (typeof value === 'string') out.push(changed(doc, path, 'not base64 or a date!'), changed(doc, path, 'x'.repeat(70000)))
  }
  return out
}

const runtime = new SchemaCompiler()

for (const def of groupVersion.hooks) {
  t.test(`${def.hook}: the generated validators answer as Ajv compiling the schema at run time`, async t => {
    const targets = precompiledTargets().filter(target => target.hook === def.hook)
    t.same(targets.map(({ part, direction }) => `${part} ${direction}`), ['request request', 'response response', 'response decode'])
    for (const { part, direction, schema } of targets) {
      const generated = precompiledValidator(schema, direction)
      if (!generated) {
        t.fail(`${part} has no generated validator for the ${direction} direction`)
        continue
      }
      const bodies = variants(fixture(def.hook, part))
      const compiled = runtime.compile(schema, direction)
      let differences = 0
      let invalid = 0
      for (const body of bodies) {
        const verdict = generated(body)
        if (verdict !== compiled(body) || JSON.stringify(generated.errors) !== JSON.stringify(compiled.errors)) differences++
        if (!verdict) invalid++
      }
      t.equal(differences, 0, `${part} (${direction}): ${bodies.length} bodies, ${invalid} invalid, no difference`)
      t.ok(generated(fixture(def.hook, part)), `Cluster API's ${part} is valid in the ${direction} direction`)
    }
  })
}

t.test('a schema that is not one of Cluster API\'s (a copy, a hook of your own) is compiled at run time, with the same messages', async t => {
  const def = groupVersion.hooks.find(h => h.hook === 'BeforeClusterCreate')!
  const copy = structuredClone(def.request)
  t.equal(precompiledValidator(copy, 'request'), undefined)
  const body = { cluster: { metadata: { name: 5 } } }
  t.equal(validate(copy, body), 'cluster.metadata.name: must be a string, got an integer')
  t.equal(validate(def.request, body), 'cluster.metadata.name: must be a string, got an integer')
})
