// The requests a conformance run sends: the catalog's sample for the hook, or the user's file for it, with the
// ExtensionConfig's settings merged in the way the runtime client merges them (the request's own settings win).
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { VERSION } from '../api/hooks/v1alpha1/constants.js'
import { sampleRequest } from '../api/hooks/v1alpha1/samples.js'
import type { Catalog, CatalogHook } from '../catalog/catalog.js'
import { HOOKS_GROUP } from '../catalog/default.js'
import { RequestFileError } from './errors.js'

/** Request bodies by hook name (UpperCamelCase), replacing the samples. */
export type RequestOverrides = Readonly<Record<string, Record<string, unknown>>>

/** The file names tried for a hook, in order: CamelCase, lowercase, and the fixture style `<hook>.request.json`. */
export function requestFileNames (hook: string): string[] {
  const lower = hook.toLowerCase()
  return [`${hook}.json`, `${lower}.json`, `${hook}.request.json`, `${lower}.request.json`]
}

/**
 * Reads `<hook>.json` files of a directory for every hook of Cluster API's group in the catalog (latest version).
 * Each must be a JSON object valid for the hook's request schema; other files are ignored.
 */
export async function loadRequestDir (dir: string, catalog: Catalog): Promise<Record<string, Record<string, unknown>>> {
  let files: string[]
  try {
    files = await readdir(dir)
  } catch (err) {
    throw new RequestFileError(`--request-dir ${dir}: ${(err as Error).message}`)
  }
  const present = new Set(files)
  const overrides: Record<string, Record<string, unknown>> = {}
  const hooks = new Set(catalog.all().filter(h => h.gvh.group === HOOKS_GROUP).map(h => h.gvh.hook))
  for (const hook of hooks) {
    const name = requestFileNames(hook).find(f => present.has(f))
    if (name === undefined) continue
    const file = join(dir, name)
    let body: unknown
    try {
      body = JSON.parse(await readFile(file, 'utf8'))
    } catch (err) {
      throw new RequestFileError(`${file}: ${(err as Error).message}`)
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new RequestFileError(`${file}: must hold a JSON object`)
    const entry = catalog.latest(HOOKS_GROUP, hook)
    const valid = catalog.validateRequest(entry.gvh, body)
    if (!valid.valid) throw new RequestFileError(`${file}: not a valid ${entry.requestKind}: ${valid.message}`)
    overrides[hook] = body as Record<string, unknown>
  }
  return overrides
}

/**
 * The request for a handler of `hook`: the override or the sample (samples exist for Cluster API's v1alpha1 hooks),
 * with kind and apiVersion of the handler's version and the ExtensionConfig's settings under the request's own.
 */
export function requestFor (hook: CatalogHook, overrides: RequestOverrides, settings: Record<string, string> | undefined): Record<string, unknown> | undefined {
  const override = overrides[hook.gvh.hook]
  const hasSample = hook.gvh.group === HOOKS_GROUP && hook.gvh.version === VERSION
  const base = override ? structuredClone(override) : hasSample ? sampleRequest(hook.gvh.hook) : undefined
  if (base === undefined) return undefined
  const { kind: _kind, apiVersion: _apiVersion, settings: own, ...rest } = base
  const merged = { ...settings, ...(own as Record<string, string> | undefined) }
  return { kind: hook.requestKind, apiVersion: hook.apiVersion, ...(Object.keys(merged).length > 0 ? { settings: merged } : {}), ...rest }
}
