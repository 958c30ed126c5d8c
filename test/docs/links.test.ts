// Every relative link of the README and the guide (docs/) resolves: the file exists, and an #anchor names a heading
// of it (GitHub's slugs). A page moved or a heading renamed without its links fails here, not on a reader.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function markdownFiles (dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith('.md') ? [path] : []
  })
}

/** The text outside code fences. */
function withoutFences (markdown: string): string {
  return markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '')
}

/** The text outside code fences and inline code, where links are links. */
function prose (markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '')
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2, ... */
function anchors (markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const result = new Set<string>()
  for (const match of withoutFences(markdown).replace(/`([^`\n]*)`/g, '$1').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = (match[1] ?? '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    result.add(count === 0 ? base : `${base}-${count}`)
  }
  return result
}

const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))]

t.test('every relative link resolves to a file and, with an #anchor, to a heading of it', async t => {
  const broken: string[] = []
  let checked = 0
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const match of prose(text).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)) {
      const target = match[1] ?? ''
      if (/^[a-z]+:/i.test(target)) continue
      checked++
      const [path = '', anchor] = target.split('#')
      const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path))
      const where = `${relative(ROOT, file)}: ${target}`
      if (!existsSync(resolved)) broken.push(`${where} (no such file)`)
      else if (anchor !== undefined && (!resolved.endsWith('.md') || !anchors(readFileSync(resolved, 'utf8')).has(anchor))) broken.push(`${where} (no such heading)`)
    }
  }
  t.ok(checked > 20, `${checked} relative links checked`)
  t.same(broken, [], 'broken links')
})

t.test('the anchors are GitHub\'s', async t => {
  t.same([...anchors('# The `runtime-sdk` command\n## Set up\n## Set up\n### Hook server, runtime client!\n```sh\n# not a heading\n```\n')],
    ['the-runtime-sdk-command', 'set-up', 'set-up-1', 'hook-server-runtime-client'])
})
