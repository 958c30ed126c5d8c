// A code block of the guide marked `<!-- example: <path> -->` is that file of examples/, verbatim: the file is built
// from the packed package and run by test/package, so what a reader copies is what CI runs.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function markdownFiles (dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith('.md') ? [path] : []
  })
}

t.test('every block marked as an example is the example file, verbatim', async t => {
  let marked = 0
  for (const file of [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))]) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(/<!-- example: (\S+) -->\n(`{3,})[a-z]*\n([\s\S]*?)^\2$/gm)) {
      marked++
      const path = match[1] ?? ''
      t.equal(match[3], readFileSync(join(ROOT, path), 'utf8'), `${relative(ROOT, file)}: the block is ${path}`)
    }
  }
  t.ok(marked >= 4, `${marked} example blocks`)
})
