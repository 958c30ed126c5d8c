// Manifests are read the same way by the controller's file source and the CLI: every document of a file, the
// manifest files of a directory in name order, and a ManifestError naming the file for anything unreadable.
import { mkdir, writeFile } from 'node:fs/promises'
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
