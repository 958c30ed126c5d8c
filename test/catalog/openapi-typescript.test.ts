// The published document and our types say the same thing: openapi-typescript turns openapi/runtime-sdk.json into
// TypeScript as any reader of the document would, and the compiler proves each of its schemas and the type we
// generate from the same Cluster API definition assignable both ways; every hook's request and response too.
// openapi-typescript's options are the document's meaning: a Kubernetes `type: object` with no properties is any
// object (FieldsV1), and a field with a default may still be absent on the wire.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import t from 'tap'
import ts from 'typescript'
import { capiHooks, definitions } from '../../src/api/hooks/v1alpha1/capi.js'
import { hooksOpenAPIDocument } from '../../src/catalog/openapi.js'
import { typeNames } from '../../tools/capi-types.js'

const OURS = new URL('../../src/api/hooks/v1alpha1/types.generated.js', import.meta.url).pathname
const document = hooksOpenAPIDocument()
const schemas = document.components.schemas
const dir = await mkdtemp(join(tmpdir(), 'runtime-sdk-openapi-typescript-'))
await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n')
await writeFile(join(dir, 'published.ts'), astToString(await openapiTS(document as never, { alphabetize: true, emptyObjectsUnknown: true, defaultNonNullable: false })))

// One line per comparison, so that a diagnostic's line names what disagrees.
const names = typeNames(definitions)
const comparisons: Array<{ what: string, ours: string, theirs: string }> = []
for (const [definition, name] of names) {
  if (definition in schemas) comparisons.push({ what: definition, ours: `Ours.${name}`, theirs: `S['${definition}']` })
}
for (const { hook, request, response } of capiHooks) {
  comparisons.push({ what: `${hook} request`, ours: `Ours.HookTypes['${hook}']['request']`, theirs: `S['${request}']` })
  comparisons.push({ what: `${hook} response`, ours: `Ours.HookTypes['${hook}']['response']`, theirs: `S['${response}']` })
}
const header = [
  "import type { components } from './published.js'",
  `import type * as Ours from '${OURS}'`,
  "type S = components['schemas']",
  'declare function both<A, B> (toTheirs: (x: A) => B, toOurs: (x: B) => A): void'
]
const lines = [...header, ...comparisons.map(c => `both<${c.ours}, ${c.theirs}>(x => x, x => x)`)]
await writeFile(join(dir, 'agree.ts'), `${lines.join('\n')}\n`)

const program = ts.createProgram([join(dir, 'agree.ts')], {
  strict: true,
  exactOptionalPropertyTypes: true,
  noEmit: true,
  skipLibCheck: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022
})
const diagnostics = ts.getPreEmitDiagnostics(program)

t.test('openapi-typescript read the whole document', async t => {
  t.ok(comparisons.length > 150, `${comparisons.length} comparisons`)
  t.same(diagnostics.filter(d => d.file?.fileName !== join(dir, 'agree.ts')).map(d => ts.flattenDiagnosticMessageText(d.messageText, '\n')), [], 'both files compile')
})

t.test('every schema of the document and our type of it agree both ways, every hook\'s request and response', async t => {
  const disagreements = diagnostics.filter(d => d.file?.fileName === join(dir, 'agree.ts') && d.start !== undefined).map(d => {
    const line = d.file!.getLineAndCharacterOfPosition(d.start!).line - header.length
    return `${comparisons[line]?.what ?? `line ${line}`}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n').slice(-3).join(' / ')}`
  })
  t.same(disagreements, [])
})
