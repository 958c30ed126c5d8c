// The embedded source: a directory of YAML/JSON manifests standing in for a cluster. ExtensionConfigs
// (v1beta2 or v1alpha1) are validated like the API server validates them, Secrets hold CA bundles for the
// injection annotation, Namespaces give labels to namespaceSelectors. Status lives in memory. The directory
// is watched; an invalid or unreadable file is reported and changes nothing (the last valid objects stay).
import { watch, type FSWatcher } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import type { ExtensionConfig, ExtensionConfigStatus } from '../api/extension-config/types.js'
import { validateExtensionConfig } from '../api/extension-config/validate.js'
import { MANIFEST_FILE, readDocuments } from '../kube/manifests.js'
import type { Labels } from '../registry/selector.js'
import type { ExtensionConfigSource, SecretData, SourceListener } from './source.js'
import { ManifestError } from '../kube/errors.js'

/** The options of a {@link FileSource}. */
export interface FileSourceOptions {
  /** dir holds the manifests (*.yaml, *.yml, *.json; multi-document YAML allowed). */
  dir: string
  /** rescanIntervalMs re-reads the directory even without a file event (default 5 s; 0 turns it off). */
  rescanIntervalMs?: number
  /** debounceMs groups bursts of file events into one scan (default 50 ms). */
  debounceMs?: number
}

/** A manifest the source did not accept. */
export interface RejectedManifest {
  /** file is the path of the manifest. */
  file: string
  /** kind of the object, when the manifest says. */
  kind?: string
  /** name of the object, when the manifest says. */
  name?: string
  /** errors say why it was not accepted, as the API server would word them. */
  errors: string[]
}

interface Entry {
  /** fromFile is the ExtensionConfig as the file has it (defaulted); changes to it bump the generation. */
  fromFile: ExtensionConfig
  file: string
  current: ExtensionConfig
}

interface Scan {
  configs: Map<string, { ec: ExtensionConfig, file: string }>
  secrets: Map<string, SecretData>
  namespaces: Map<string, Labels>
  rejected: RejectedManifest[]
  /** Names whose file could not be read or whose manifest is invalid: their last valid version stays. */
  keep: Set<string>
  /** Files that could not be read: every object they held stays. */
  unreadable: Set<string>
}

/**
 * ExtensionConfigs from a directory of YAML/JSON manifests standing in for a cluster: ExtensionConfigs (v1beta2 or
 * v1alpha1) validated as the API server validates them, Secrets holding CA bundles for the inject-ca-from-secret
 * annotation, Namespaces giving labels to namespaceSelectors. Status is kept in memory. The directory is watched; an
 * invalid or unreadable file is reported ({@link FileSource.rejected}) and changes nothing.
 */
export class FileSource implements ExtensionConfigSource {
  readonly kind = 'file'
  readonly #dir: string
  readonly #rescanMs: number
  readonly #debounceMs: number
  #entries = new Map<string, Entry>()
  #secrets = new Map<string, SecretData>()
  #namespaces = new Map<string, Labels>()
  #rejected: RejectedManifest[] = []
  #listener: SourceListener | undefined
  #watcher: FSWatcher | undefined
  #rescanTimer: NodeJS.Timeout | undefined
  #debounceTimer: NodeJS.Timeout | undefined
  #resourceVersion = 0
  #scanning: Promise<void> | undefined
  #rescanRequested = false
  #stopped = false

  constructor (options: FileSourceOptions) {
    this.#dir = options.dir
    this.#rescanMs = options.rescanIntervalMs ?? 5000
    this.#debounceMs = options.debounceMs ?? 50
  }

  async start (listener: SourceListener): Promise<void> {
    const info = await stat(this.#dir).catch(() => undefined)
    if (!info?.isDirectory()) throw new Error(`ExtensionConfig directory ${this.#dir} does not exist or is not a directory`)
    this.#listener = listener
    await this.rescan()
    this.#watcher = watch(this.#dir, () => this.#schedule())
    this.#watcher.on('error', () => this.#schedule())
    if (this.#rescanMs > 0) {
      this.#rescanTimer = setInterval(() => { this.#rescanSafely() }, this.#rescanMs)
      this.#rescanTimer.unref()
    }
  }

  async stop (): Promise<void> {
    this.#stopped = true
    this.#watcher?.close()
    if (this.#rescanTimer) clearInterval(this.#rescanTimer)
    if (this.#debounceTimer) clearTimeout(this.#debounceTimer)
    await this.#scanning
  }

  list (): ExtensionConfig[] {
    return [...this.#entries.values()].map(e => structuredClone(e.current))
  }

  async get (name: string): Promise<ExtensionConfig | undefined> {
    const entry = this.#entries.get(name)
    return entry ? structuredClone(entry.current) : undefined
  }

  async getSecret (namespace: string, name: string): Promise<SecretData | undefined> {
    const data = this.#secrets.get(`${namespace}/${name}`)
    return data ? { ...data } : undefined
  }

  /** The labels of a Namespace the directory holds; undefined when it holds none of that name. */
  readonly namespaceLabels = (namespace: string): Readonly<Record<string, string>> | undefined => {
    const labels = this.#namespaces.get(namespace)
    return labels ? { ...labels } : undefined
  }

  async updateCABundle (ec: ExtensionConfig, caBundle: string): Promise<ExtensionConfig> {
    return this.#update(ec, current => {
      current.spec.clientConfig.caBundle = caBundle
      current.metadata.generation = (current.metadata.generation ?? 0) + 1
    })
  }

  async updateStatus (ec: ExtensionConfig, status: ExtensionConfigStatus): Promise<ExtensionConfig> {
    return this.#update(ec, current => { current.status = structuredClone(status) })
  }

  /** Manifests that were not accepted by the last scan, with the reasons. */
  rejected (): RejectedManifest[] {
    return structuredClone(this.#rejected)
  }

  /** Reads the directory now and applies the differences. */
  async rescan (): Promise<void> {
    if (this.#scanning) {
      this.#rescanRequested = true
      return this.#scanning
    }
    this.#scanning = (async () => {
      do {
        this.#rescanRequested = false
        const scan = await this.#read()
        if (!this.#stopped) this.#apply(scan)
      } while (this.#rescanRequested && !this.#stopped)
    })().finally(() => { this.#scanning = undefined })
    return this.#scanning
  }

  /** A background scan: a failure is already reported per file, and the next event or interval retries. */
  #rescanSafely (): void {
    this.rescan().catch(() => {})
  }

  #schedule (): void {
    if (this.#stopped) return
    if (this.#debounceTimer) clearTimeout(this.#debounceTimer)
    this.#debounceTimer = setTimeout(() => { this.#rescanSafely() }, this.#debounceMs)
  }

  async #update (ec: ExtensionConfig, change: (current: ExtensionConfig) => void): Promise<ExtensionConfig> {
    const entry = this.#entries.get(ec.metadata.name)
    if (!entry) throw new Error(`extensionconfigs "${ec.metadata.name}" not found`)
    if (ec.metadata.resourceVersion !== entry.current.metadata.resourceVersion) {
      throw new Error(`Operation cannot be fulfilled on extensionconfigs "${ec.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`)
    }
    const old = entry.current
    const next = structuredClone(old)
    change(next)
    next.metadata.resourceVersion = String(++this.#resourceVersion)
    entry.current = next
    this.#listener?.extensionConfig('update', structuredClone(next), structuredClone(old))
    return structuredClone(next)
  }

  async #read (): Promise<Scan> {
    const scan: Scan = { configs: new Map(), secrets: new Map(), namespaces: new Map(), rejected: [], keep: new Set(), unreadable: new Set() }
    let files: string[]
    try {
      files = (await readdir(this.#dir)).filter(f => MANIFEST_FILE.test(f)).sort()
    } catch (err) {
      scan.rejected.push({ file: this.#dir, errors: [(err as Error).message] })
      for (const entry of this.#entries.values()) scan.unreadable.add(entry.file)
      return scan
    }
    for (const file of files) {
      let docs: unknown[]
      try {
        docs = await readDocuments(join(this.#dir, file))
      } catch (err) {
        scan.unreadable.add(file)
        scan.rejected.push({ file, errors: [err instanceof ManifestError ? err.reason : (err as Error).message] })
        continue
      }
      for (const doc of docs) this.#readDocument(scan, file, doc)
    }
    return scan
  }

  #readDocument (scan: Scan, file: string, doc: unknown): void {
    const object = (typeof doc === 'object' && doc !== null ? doc : {}) as { kind?: unknown, metadata?: { name?: unknown, namespace?: unknown, labels?: unknown }, data?: unknown, stringData?: unknown }
    const kind = typeof object.kind === 'string' ? object.kind : undefined
    const name = typeof object.metadata?.name === 'string' ? object.metadata.name : undefined
    const reject = (errors: string[]): void => { scan.rejected.push({ file, ...(kind ? { kind } : {}), ...(name ? { name } : {}), errors }) }
    if (kind === 'ExtensionConfig') {
      const result = validateExtensionConfig(doc)
      if (!result.ok) {
        if (name) scan.keep.add(name)
        return reject(result.errors)
      }
      const ecName = result.value.metadata.name
      const previous = scan.configs.get(ecName)
      if (previous) return reject([`ExtensionConfig ${ecName} is already defined in ${previous.file}`])
      scan.configs.set(ecName, { ec: result.value, file })
      if (result.warnings.length > 0) scan.rejected.push({ file, kind, name: ecName, errors: result.warnings.map(w => `warning: ${w}`) })
    } else if (kind === 'Secret') {
      const data = secretData(object.data, object.stringData)
      if (!name || typeof data === 'string') return reject([!name ? 'metadata.name is required' : data as string])
      const namespace = typeof object.metadata?.namespace === 'string' ? object.metadata.namespace : 'default'
      scan.secrets.set(`${namespace}/${name}`, data)
    } else if (kind === 'Namespace') {
      if (!name) return reject(['metadata.name is required'])
      const labels = object.metadata?.labels
      scan.namespaces.set(name, { ...(isStringMap(labels) ? labels : {}), 'kubernetes.io/metadata.name': name })
    }
    // Other kinds (e.g. a Deployment in the same folder) are not ours to read.
  }

  #apply (scan: Scan): void {
    const listener = this.#listener
    const oldSecrets = this.#secrets
    // Objects of unreadable files and invalid manifests keep their last valid version.
    for (const [name, entry] of this.#entries) {
      if (!scan.configs.has(name) && (scan.keep.has(name) || scan.unreadable.has(entry.file))) scan.configs.set(name, { ec: entry.fromFile, file: entry.file })
    }
    for (const [key, data] of oldSecrets) if (!scan.secrets.has(key) && scan.unreadable.size > 0) scan.secrets.set(key, data)
    this.#secrets = scan.secrets
    this.#namespaces = scan.namespaces
    this.#rejected = scan.rejected

    for (const [name, entry] of [...this.#entries]) {
      if (scan.configs.has(name)) continue
      this.#entries.delete(name)
      listener?.extensionConfig('delete', structuredClone(entry.current))
    }
    for (const [name, { ec, file }] of scan.configs) {
      const entry = this.#entries.get(name)
      if (!entry) {
        const current = structuredClone(ec)
        current.metadata = { ...current.metadata, generation: 1, resourceVersion: String(++this.#resourceVersion), creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') }
        this.#entries.set(name, { fromFile: ec, file, current })
        listener?.extensionConfig('add', structuredClone(current))
        continue
      }
      if (isDeepStrictEqual(entry.fromFile, ec)) {
        entry.file = file
        continue
      }
      const old = entry.current
      const specChanged = !isDeepStrictEqual(entry.fromFile.spec, ec.spec)
      const current: ExtensionConfig = {
        ...structuredClone(ec),
        metadata: {
          ...structuredClone(ec.metadata),
          generation: (old.metadata.generation ?? 1) + (specChanged ? 1 : 0),
          resourceVersion: String(++this.#resourceVersion),
          ...(old.metadata.creationTimestamp ? { creationTimestamp: old.metadata.creationTimestamp } : {})
        },
        ...(old.status ? { status: old.status } : {})
      }
      if (!specChanged && old.spec.clientConfig.caBundle !== undefined && ec.spec.clientConfig.caBundle === undefined) current.spec.clientConfig.caBundle = old.spec.clientConfig.caBundle
      this.#entries.set(name, { fromFile: ec, file, current })
      listener?.extensionConfig('update', structuredClone(current), structuredClone(old))
    }
    for (const key of new Set([...oldSecrets.keys(), ...this.#secrets.keys()])) {
      if (isDeepStrictEqual(oldSecrets.get(key), this.#secrets.get(key))) continue
      const slash = key.indexOf('/')
      listener?.secret(key.slice(0, slash), key.slice(slash + 1))
    }
  }
}

function isStringMap (value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(v => typeof v === 'string')
}

/** A Secret's data (base64) merged with stringData (plain text), or an error message. */
function secretData (data: unknown, stringData: unknown): SecretData | string {
  if (data !== undefined && !isStringMap(data)) return 'data must map keys to base64 strings'
  if (stringData !== undefined && !isStringMap(stringData)) return 'stringData must map keys to strings'
  const out: SecretData = {}
  for (const [key, value] of Object.entries(data ?? {})) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) return `data.${key} is not valid base64`
    out[key] = value
  }
  for (const [key, value] of Object.entries(stringData ?? {})) out[key] = Buffer.from(value).toString('base64')
  return out
}
