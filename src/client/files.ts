// Reading ExtensionConfigs and objects from files, for the CLI and tools.
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'
import type { ExtensionConfig } from '../api/extension-config.js'

/** Every YAML or JSON document of a file (multi-document YAML allowed). */
export async function readDocuments (file: string): Promise<unknown[]> {
  const text = await readFile(file, 'utf8')
  const docs = parseAllDocuments(text)
  const out: unknown[] = []
  for (const doc of Array.isArray(docs) ? docs : [docs]) {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message ?? 'invalid YAML'}`)
    const value = doc.toJS() as unknown
    if (value !== null && value !== undefined) out.push(value)
  }
  return out
}

/** The first document of a file. */
export async function readObject (file: string): Promise<Record<string, unknown>> {
  const [doc] = await readDocuments(file)
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error(`${file}: expected an object`)
  return doc as Record<string, unknown>
}

const isExtensionConfig = (doc: unknown): doc is ExtensionConfig =>
  typeof doc === 'object' && doc !== null && (doc as { kind?: unknown }).kind === 'ExtensionConfig'

/** The ExtensionConfigs in a file or in the .yaml/.yml/.json files of a directory (sorted by file name). */
export async function readExtensionConfigs (path: string): Promise<ExtensionConfig[]> {
  const files = (await stat(path)).isDirectory()
    ? (await readdir(path)).filter(f => /\.(ya?ml|json)$/.test(f)).sort().map(f => join(path, f))
    : [path]
  const configs: ExtensionConfig[] = []
  for (const file of files) {
    for (const doc of await readDocuments(file)) {
      if (!isExtensionConfig(doc)) continue
      if (!doc.metadata?.name || !doc.spec?.clientConfig) throw new Error(`${file}: ExtensionConfig needs metadata.name and spec.clientConfig`)
      configs.push(doc)
    }
  }
  return configs
}

/** An ExtensionConfig for a bare URL. */
export function extensionConfigForUrl (url: string, name: string): ExtensionConfig {
  return {
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name },
    spec: { clientConfig: { url }, namespaceSelector: {} }
  }
}

/**
 * An ExtensionConfig from a URL (https://…) or a file; `caFile` (PEM) replaces the CA bundle.
 */
export async function loadExtensionConfig (target: string, options: { name?: string, caFile?: string } = {}): Promise<ExtensionConfig> {
  let ec: ExtensionConfig
  if (/^[a-z]+:\/\//i.test(target)) {
    ec = extensionConfigForUrl(target, options.name ?? 'extension')
  } else {
    const [first] = await readExtensionConfigs(target)
    if (!first) throw new Error(`${target}: no ExtensionConfig found`)
    ec = first
  }
  if (options.caFile) ec.spec.clientConfig.caBundle = (await readFile(options.caFile)).toString('base64')
  return ec
}

/** Parses `a=b,c=d` into labels. */
export function parseLabels (text: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {}
  for (const pair of (text ?? '').split(',').map(s => s.trim()).filter(Boolean)) {
    const i = pair.indexOf('=')
    if (i <= 0) throw new Error(`invalid label "${pair}": expected key=value`)
    labels[pair.slice(0, i)] = pair.slice(i + 1)
  }
  return labels
}
