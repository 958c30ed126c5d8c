// Reading Kubernetes manifests (YAML or JSON, multi-document YAML allowed) from files and directories, for the
// controller's file source and the CLI alike. What a file can cost is bounded, each bound a one-line error: its size
// (64 MiB, far above any manifest: the API server takes objects up to 3 MiB), its nesting (Go's YAML decoder, as
// kubectl reads it, refuses more than 10,000 levels; this reader stops at 500), and its aliases (the yaml package's
// bound on what aliases may expand to). What Go's decoder refuses besides is refused with its words: invalid UTF-8,
// control characters, NaN and infinities (which JSON cannot hold).
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ManifestError } from './errors.js'

/** The largest manifest file read. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024

/** The file names a directory of manifests is read from; hidden files are skipped. */
export const MANIFEST_FILE = /^[^.].*\.(ya?ml|json)$/

/** The manifest files of a path: the file itself, or the manifest files of a directory, sorted by name. */
export async function manifestFiles (path: string): Promise<string[]> {
  let isDirectory: boolean
  try {
    isDirectory = (await stat(path)).isDirectory()
  } catch (err) {
    throw new ManifestError(path, readProblem(err))
  }
  if (!isDirectory) return [path]
  return (await readdir(path)).filter(f => MANIFEST_FILE.test(f)).sort().map(f => join(path, f))
}

/** Every document of a manifest file, empty documents left out. */
export async function readDocuments (file: string): Promise<unknown[]> {
  let bytes: Buffer
  try {
    if ((await stat(file)).size > MAX_MANIFEST_BYTES) throw new ManifestError(file, `is larger than ${MAX_MANIFEST_BYTES / 2 ** 20} MiB: no manifest is this large (split it)`)
    bytes = await readFile(file)
  } catch (err) {
    if (err instanceof ManifestError) throw err
    throw new ManifestError(file, readProblem(err))
  }
  const [{ parseAllDocuments, visit }, { yamlNesting, YAML_MAX_NESTING }, { readerProblem }] = await Promise.all([import('yaml'), import('../gotemplate/yaml-depth.js'), import('../gotemplate/yaml-libyaml.js')])
  const unreadable = readerProblem(bytes)
  if (unreadable !== undefined) throw new ManifestError(file, unreadable)
  const text = bytes.toString('utf8')
  const nesting = yamlNesting(text, 'all')
  if (nesting.goRefusal !== undefined) throw new ManifestError(file, nesting.goRefusal)
  if (nesting.deepest > YAML_MAX_NESTING) throw new ManifestError(file, `nests ${nesting.deepest} levels deep: runtime-sdk reads up to ${YAML_MAX_NESTING}`)
  const out: unknown[] = []
  // A key given twice keeps its last value, as sigs.k8s.io/yaml (kubectl's decoder) keeps it; the yaml package's
  // check for it would also cost time quadratic in the keys of a map.
  for (const doc of parseAllDocuments(text, { uniqueKeys: false })) {
    if (doc.errors.length > 0) throw new ManifestError(file, doc.errors[0]?.message ?? 'invalid YAML')
    // An alias inside its own anchor would make a cyclic value, which no JSON holds: Go's decoder refuses it.
    visit(doc, {
      Alias (_key, alias, path) {
        const anchored = alias.resolve(doc)
        if (anchored !== undefined && path.includes(anchored)) throw new ManifestError(file, `yaml: anchor '${alias.source}' value contains itself`)
      }
    })
    let value: unknown
    try {
      value = doc.toJS()
    } catch (err) {
      // The yaml package refuses aliases that would expand too far (an alias bomb).
      throw new ManifestError(file, (err as Error).message)
    }
    const notJSON = nonFinite(value)
    if (notJSON !== undefined) throw new ManifestError(file, `json: unsupported value: ${notJSON}`)
    if (value !== null && value !== undefined) out.push(value)
  }
  return out
}

/** A number JSON cannot hold (NaN, +Inf, -Inf, as Go prints them) anywhere in a value, or undefined. */
function nonFinite (value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : value === Infinity ? '+Inf' : value === -Infinity ? '-Inf' : undefined
  if (typeof value !== 'object' || value === null) return undefined
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    const found = nonFinite(item)
    if (found !== undefined) return found
  }
  return undefined
}

/** The first document of a manifest file, which must be an object. */
export async function readObject (file: string): Promise<Record<string, unknown>> {
  const [doc] = await readDocuments(file)
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ManifestError(file, 'expected a YAML or JSON object')
  return doc as Record<string, unknown>
}

const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory, expected a file',
  ENOTDIR: 'not a directory'
}

/** What a failed file read or stat means, without Node's syscall prefix and path (the caller names the file). */
export function readProblem (err: unknown): string {
  return FILE_PROBLEMS[String((err as { code?: unknown }).code)] ?? (err as Error).message
}
