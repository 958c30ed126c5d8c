// One name, one definition: no type, function or constant is defined in two generated files (a Go type shared by the
// hooks' objects and the templates is imported by one from the other, a decoder written in its package's module).
import { readdirSync, readFileSync } from 'node:fs'
import t from 'tap'

const SRC = new URL('../../src/', import.meta.url)
const generated = readdirSync(SRC, { recursive: true }).map(String).filter(path => /\.generated\.ts$/.test(path)).sort()

t.test('no name is defined in two generated files', async t => {
  t.ok(generated.length >= 7, generated.join(', '))
  const definedIn = new Map<string, Set<string>>()
  for (const path of generated) {
    const text = readFileSync(new URL(path, SRC), 'utf8')
    // Exported names, and every function (a decoder's checker); module-private constants are the module's own.
    for (const [, name] of text.matchAll(/^(?:export (?:interface|type|const|function)|function) (\w+)/gm)) {
      definedIn.set(name!, (definedIn.get(name!) ?? new Set()).add(path))
    }
  }
  t.ok(definedIn.size > 400, `${definedIn.size} names`)
  t.same([...definedIn].filter(([, paths]) => paths.size > 1).map(([name, paths]) => `${name}: ${[...paths].join(', ')}`), [])
})
