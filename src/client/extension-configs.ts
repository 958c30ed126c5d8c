// ExtensionConfigs for the runtime client from outside a cluster: read from manifests, validated and defaulted as
// the API server (and the controller's file source) would, or made for a bare URL.
import { readFile } from 'node:fs/promises'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import { validateExtensionConfig } from '../api/extension-config/validate.js'
import { manifestFiles, readDocuments, readProblem } from '../kube/manifests.js'
import { ManifestError } from '../kube/errors.js'

/** An ExtensionConfig for a bare URL, matching objects in every namespace. */
export function extensionConfigForUrl (url: string, name: string): ExtensionConfig {
  return {
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name },
    spec: { clientConfig: { url }, namespaceSelector: {} }
  }
}

/**
 * The ExtensionConfigs (v1beta2, or v1alpha1 converted) in a manifest file or directory, defaulted (an absent
 * namespaceSelector matches every namespace). Other kinds are skipped; an invalid or repeated ExtensionConfig is a
 * ManifestError naming the file and every problem.
 */
export async function readExtensionConfigs (path: string): Promise<ExtensionConfig[]> {
  const found = new Map<string, { ec: ExtensionConfig, file: string }>()
  for (const file of await manifestFiles(path)) {
    for (const doc of await readDocuments(file)) {
      if ((doc as { kind?: unknown } | null)?.kind !== 'ExtensionConfig') continue
      const name = (doc as { metadata?: { name?: unknown } }).metadata?.name
      const result = validateExtensionConfig(doc)
      if (!result.ok) throw new ManifestError(file, `ExtensionConfig${typeof name === 'string' ? ` "${name}"` : ''} is invalid: ${result.errors.join('; ')}`)
      const previous = found.get(result.value.metadata.name)
      if (previous) throw new ManifestError(file, `ExtensionConfig "${result.value.metadata.name}" is already defined in ${previous.file}`)
      found.set(result.value.metadata.name, { ec: result.value, file })
    }
  }
  return [...found.values()].map(f => f.ec)
}

/** Whether a target names a URL (scheme://…) rather than a file. */
export function isUrl (target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(target)
}

/** The ExtensionConfig a URL (https://…) or the first one a manifest holds; `caFile` (PEM) replaces its CA bundle. */
export async function loadExtensionConfig (target: string, options: { name?: string, caFile?: string } = {}): Promise<ExtensionConfig> {
  let ec: ExtensionConfig
  if (isUrl(target)) {
    ec = extensionConfigForUrl(target, options.name ?? 'extension')
  } else {
    const [first] = await readExtensionConfigs(target)
    if (!first) throw new ManifestError(target, 'no ExtensionConfig found')
    ec = first
  }
  if (options.caFile) {
    try {
      ec.spec.clientConfig.caBundle = (await readFile(options.caFile)).toString('base64')
    } catch (err) {
      throw new ManifestError(options.caFile, readProblem(err))
    }
  }
  return ec
}
