// Reading Kubernetes manifests (YAML or JSON, multi-document YAML allowed) from files and directories, for the
// controller's file source and the CLI alike.
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ManifestError } from './errors.js'

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
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    throw new ManifestError(file, readProblem(err))
  }
  const { parseAllDocuments } = await import('yaml')
  const out: unknown[] = []
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new ManifestError(file, doc.errors[0]?.message ?? 'invalid YAML')
    const value = doc.toJS() as unknown
    if (value !== null && value !== undefined) out.push(value)
  }
  return out
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
