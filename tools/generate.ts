// Rebuilds every generated artefact from the schemas, or with --check fails when a committed one is stale.
//   npm run generate            write the v1alpha1 hook types, the template types of src/topology, openapi/runtime-sdk.json, .yaml,
//                               the ExtensionConfig CRD, the CLI reference and the hooks' Go decoders
//   npm run check:generated     compare instead of writing; exit 1 listing stale files
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CRD_FILE, renderCRD } from '../src/api/extension-config/crd.js'
import { hooksOpenAPIDocument } from '../src/catalog/openapi.js'
import { renderOpenAPI } from '../src/cli/openapi.js'
import { capiHooks, definitions } from '../src/api/hooks/v1alpha1/capi.js'
import templates from '../hooks/v1alpha1/templates.json' with { type: 'json' }
import { renderCapiTypes, renderTemplateTypes } from './capi-types.js'
import { CLI_REFERENCE_PATH, renderCliReference } from './cli-reference.js'
import { DECODER_DIR, renderDecoders } from './decoders.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const check = process.argv.includes('--check')

/** Path (relative to the repository root) -> content of every generated file. */
async function generatedFiles (): Promise<Record<string, string>> {
  const document = hooksOpenAPIDocument()
  return {
    'src/api/hooks/v1alpha1/types.generated.ts': renderCapiTypes({ definitions, hooks: capiHooks }),
    'src/topology/templates.generated.ts': renderTemplateTypes(templates, { definitions, hooks: capiHooks }),
    'openapi/runtime-sdk.json': renderOpenAPI(document, 'json'),
    'openapi/runtime-sdk.yaml': renderOpenAPI(document, 'yaml'),
    [CRD_FILE]: renderCRD(),
    [CLI_REFERENCE_PATH]: await renderCliReference(),
    ...renderDecoders()
  }
}

const files = await generatedFiles()
const stale: string[] = []
// A generated decoder module no hook needs any more.
for (const name of await readdir(join(root, DECODER_DIR)).catch(() => [])) {
  const path = `${DECODER_DIR}/${name}`
  if (!name.endsWith('.generated.ts') || path in files) continue
  if (check) {
    stale.push(path)
  } else {
    await rm(join(root, path))
    console.log(`removed ${path}`)
  }
}
for (const [path, content] of Object.entries(files)) {
  const file = join(root, path)
  const current = await readFile(file, 'utf8').catch(() => undefined)
  if (current === content) continue
  if (check) {
    stale.push(path)
  } else {
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, content)
    console.log(`wrote ${path}`)
  }
}
if (stale.length > 0) {
  console.error(`generated files are out of date: ${stale.join(', ')}\nrun \`npm run generate\` and commit the result`)
  process.exit(1)
}
if (check) console.log('generated files are up to date')
