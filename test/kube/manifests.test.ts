// Manifests are read the same way by the controller's file source and the CLI: every document of a file, the
// manifest files of a directory in name order, and a ManifestError naming the file for anything unreadable; what a
// hostile file could cost is bounded, each bound one line (Go's words, as kubectl's decoder says them, where it has
// them: sigs.k8s.io/yaml over go.yaml.in/yaml/v2 answered the same bytes so).
import { mkdir, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { manifestFiles, readDocuments, readObject } from '../../src/kube/manifests.js'
import { ManifestError } from '../../src/kube/errors.js'

const dir = t.testdir({
  'b.yaml': 'kind: B\n---\n---\nkind: C\n',
  'a.json': '{"kind": "A"}',
  '.hidden.yaml': 'kind: Hidden\n',
  'notes.txt': 'not a manifest',
  'broken.yml': 'kind: [unclosed\n',
  'list.yaml': '- 1\n- 2\n'
})

t.test('a directory gives its manifest files in name order, hidden and other files left out', async t => {
  t.same(await manifestFiles(dir), ['a.json', 'b.yaml', 'broken.yml', 'list.yaml'].map(f => join(dir, f)))
  t.same(await manifestFiles(join(dir, 'notes.txt')), [join(dir, 'notes.txt')], 'a file is read as given')
})

t.test('every non-empty document of a file', async t => {
  t.same(await readDocuments(join(dir, 'b.yaml')), [{ kind: 'B' }, { kind: 'C' }])
  t.same(await readDocuments(join(dir, 'a.json')), [{ kind: 'A' }])
})

t.test('unreadable and invalid files are ManifestErrors naming the file', async t => {
  const missing = join(dir, 'missing.yaml')
  await t.rejects(readDocuments(missing), new ManifestError(missing, 'no such file or directory'))
  await t.rejects(manifestFiles(missing), { name: 'ManifestError', code: 'ERR_RUNTIME_SDK_MANIFEST', file: missing, message: `${missing}: no such file or directory` })
  await t.rejects(readDocuments(join(dir, 'broken.yml')), { name: 'ManifestError', file: join(dir, 'broken.yml'), message: /^.*broken\.yml: .+/ })
  await t.rejects(readObject(join(dir, 'list.yaml')), { message: `${join(dir, 'list.yaml')}: expected a YAML or JSON object` })
  const sub = join(dir, 'sub')
  await mkdir(sub)
  await t.rejects(readDocuments(sub), { name: 'ManifestError', reason: 'is a directory, expected a file' })
  await writeFile(join(sub, 'x.yaml'), 'kind: X\n')
  t.same(await readObject(join(sub, 'x.yaml')), { kind: 'X' })
})

t.test('hostile files: each bound is one line, in Go\'s words where Go refuses the same bytes', async t => {
  const bomb = Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`).join('\n')
  const files: Array<[string, string | Buffer, string | RegExp]> = [
    ['utf8-lead.yaml', Buffer.from('a: \xff\n', 'latin1'), 'yaml: invalid leading UTF-8 octet'],
    ['utf8-end.yaml', Buffer.from('a: b\n\xc3', 'latin1'), 'yaml: incomplete UTF-8 octet sequence'],
    ['utf8-trail.yaml', Buffer.from('a: \xc3\x28', 'latin1'), 'yaml: invalid trailing UTF-8 octet'],
    ['utf8-long.yaml', Buffer.from('a: \xe0\x80\x80', 'latin1'), 'yaml: invalid length of a UTF-8 sequence'],
    ['utf8-surrogate.yaml', Buffer.from('a: \xed\xa0\x80', 'latin1'), 'yaml: invalid Unicode character'],
    ['control.yaml', 'a: b\nc: \x01', 'yaml: control characters are not allowed'],
    ['nan.yaml', 'kind: X\nspec: {replicas: .nan}', 'json: unsupported value: NaN'],
    ['inf.yaml', 'a: [-.inf]', 'json: unsupported value: -Inf'],
    ['deep.yaml', `kind: X\nspec: ${'['.repeat(10001)}${']'.repeat(10001)}`, 'yaml: line 2: exceeded max depth of 10000'],
    ['open.yaml', '['.repeat(1_000_000), 'yaml: exceeded max depth of 10000'],
    ['deep-ours.yaml', `a: ${'['.repeat(1500)}${']'.repeat(1500)}`, 'nests 1501 levels deep: runtime-sdk reads up to 500'],
    ['bomb.yaml', `a0: &a0 [lol]\n${bomb}\n`, /^Excessive alias count/],
    ['itself.yaml', 'kind: X\nspec: &a\n  x: [*a]\n', 'yaml: anchor \'a\' value contains itself']
  ]
  for (const [name, content, reason] of files) {
    const file = join(dir, name)
    await writeFile(file, content)
    await t.rejects(readDocuments(file), { name: 'ManifestError', file, reason }, name)
  }
  const huge = join(dir, 'huge.yaml')
  await writeFile(huge, '')
  await truncate(huge, 64 * 2 ** 20 + 1)
  await t.rejects(readDocuments(huge), { name: 'ManifestError', reason: 'is larger than 64 MiB: no manifest is this large (split it)' })
  const fine = join(dir, 'fine.yaml')
  await writeFile(fine, `a: ${'['.repeat(499)}1${']'.repeat(499)}\nb: "\u00e9 \\x01 tab\tok"\nc: .5\n`)
  t.equal((await readDocuments(fine)).length, 1, 'what Go reads is read')
})
