// How the topology controller writes an object (reconcile_state.go reconcileReferencedObject and
// reconcileReferencedTemplate, over structuredmerge's server-side patch helper): a new object is applied; an existing
// one is compared by two server-side apply dry runs (the desired object and the stored one, both defaulted alike) and
// applied only when labels, annotations or spec differ; a referenced template whose spec differs is rotated (created
// under a new name). Every refusal is an ObjectRefused in Cluster API's words.
import { jsonEqual } from '../topology/json.js'
import type { ApiServerSchemas } from './crds.js'
import { describeObject, jsonCopy, type JsonObject, type Unstructured, setPath } from './objects.js'
import { createError, dryRunError, ObjectRefused, patchError } from './refusals.js'

/** What writing an object did. */
export interface Written {
  /** object is the object as stored afterwards. */
  object: Unstructured
  /** change: created, updated (in place), rotated (a template created under a new name), or none. */
  change: 'created' | 'updated' | 'rotated' | 'none'
  /** specChanged: the update changed the spec (a template is then rotated). */
  specChanged: boolean
}

const metadataOf = (o: Unstructured | undefined) => ({ labels: o?.metadata?.labels ?? {}, annotations: o?.metadata?.annotations ?? {} })

function specOf (o: Unstructured, ignore: ReadonlyArray<readonly string[]>): unknown {
  const spec = jsonCopy(o['spec'] ?? {}) as JsonObject
  for (const path of ignore) setPath(spec, path, null)
  return spec
}

const endpointOf = (o: Unstructured | undefined) => (o?.['spec'] as JsonObject | undefined)?.['controlPlaneEndpoint'] as JsonObject | undefined

/**
 * The intent without what another controller owns (contract IgnorePaths of the infrastructure cluster and the control
 * plane): the endpoint's host when empty, its port when 0, and the map they leave empty (ssa.FilterIntent).
 */
export function withoutIgnoredEndpoint (desired: Unstructured): Unstructured {
  const endpoint = endpointOf(desired)
  if (endpoint === null || typeof endpoint !== 'object') return desired
  const kept = Object.fromEntries(Object.entries(endpoint).filter(([k, v]) => !(k === 'host' && v === '') && !(k === 'port' && v === 0)))
  if (Object.keys(kept).length === Object.keys(endpoint).length) return desired
  const { controlPlaneEndpoint: _dropped, ...spec } = desired['spec'] as JsonObject
  return { ...desired, spec: Object.keys(kept).length > 0 ? { ...spec, controlPlaneEndpoint: kept } : spec }
}

/**
 * The applied object's endpoint merged with the stored one's: the provider sets the endpoint, and server-side apply
 * keeps the fields another manager owns where the intent does not set them.
 */
export function withProviderEndpoint (intent: Unstructured, current: Unstructured | undefined): Unstructured {
  const stored = endpointOf(current)
  if (!stored || typeof stored !== 'object') return intent
  return { ...intent, spec: { ...intent['spec'] as JsonObject, controlPlaneEndpoint: { ...stored, ...endpointOf(intent) } } }
}

/**
 * dryRunSSAPatch's verdict over an object as stored and as desired, each as a dry run returns it (HasChanges,
 * HasSpecChanges): whether its labels, annotations or spec change, and whether its spec does (`ignore`: spec paths the
 * controller leaves to others).
 */
function objectChanges (original: Unstructured, modified: Unstructured, ignore: ReadonlyArray<readonly string[]> = []): { changed: boolean, specChanged: boolean } {
  const specChanged = !jsonEqual(specOf(original, ignore), specOf(modified, ignore))
  return { changed: specChanged || !jsonEqual(metadataOf(original), metadataOf(modified)), specChanged }
}

/**
 * What reconcileReferencedTemplate does with a template, from the template as stored and as desired (each as a dry
 * run returns it): create it when none is stored; nothing when nothing changes; patch it in place when only its
 * labels or annotations change; rotate it (create it under a new name, so that its Machines roll out) when its spec
 * changes. Simulate writes by it; rollout-impact predicts by it.
 */
export function templateRotation (current: Unstructured | undefined, desired: Unstructured): 'create' | 'none' | 'patch' | 'rotate' {
  if (!current) return 'create'
  const { changed, specChanged } = objectChanges(current, desired)
  return !changed ? 'none' : specChanged ? 'rotate' : 'patch'
}

/** The topology controller's writes against a simulation's API server. */
export class TopologyWriter {
  readonly #schemas: ApiServerSchemas

  constructor (schemas: ApiServerSchemas) {
    this.#schemas = schemas
  }

  /** A new object applied (createErrorWithoutObjectName on a refusal). */
  create (role: string, desired: Unstructured): Unstructured {
    const applied = this.#schemas.apply(desired, undefined, false)
    if (!applied.ok) throw new ObjectRefused(role, describeObject(desired), createError(applied.refusal, desired))
    return applied.object
  }

  /**
   * reconcileReferencedObject over what is stored: unchanged, or applied in place. `ignore` are spec paths the
   * controller leaves to others (the infrastructure cluster's endpoint).
   */
  update (role: string, current: Unstructured, desired: Unstructured, ignore: ReadonlyArray<readonly string[]> = []): Written {
    const { original, modified } = this.#dryRuns(role, current, desired)
    const compared = objectChanges(original, modified, ignore)
    if (!compared.changed) return { object: current, change: 'none', specChanged: false }
    return { object: this.#apply(role, current, desired), change: 'updated', specChanged: compared.specChanged }
  }

  /** reconcileReferencedTemplate: the template created, left, patched in place or rotated (created as `newName()`), as templateRotation says. */
  template (role: string, current: Unstructured | undefined, desired: Unstructured, newName: () => string): Written {
    if (!current) return { object: this.create(role, desired), change: 'created', specChanged: false }
    const named = { ...desired, metadata: { ...desired.metadata, name: current.metadata?.name ?? '' } }
    const { original, modified } = this.#dryRuns(role, current, named)
    const rotation = templateRotation(original, modified)
    if (rotation === 'none') return { object: current, change: 'none', specChanged: false }
    if (rotation === 'patch') return { object: this.#apply(role, current, named), change: 'updated', specChanged: false }
    const rotated = { ...desired, metadata: { ...desired.metadata, name: newName() } }
    return { object: this.create(role, rotated), change: 'rotated', specChanged: true }
  }

  /** The object as a dry run of its apply over `current` returns it (defaulted as Cluster API compares it); undefined when refused. */
  dryRun (desired: Unstructured, current: Unstructured): Unstructured | undefined {
    const applied = this.#schemas.apply({ ...desired, metadata: { ...desired.metadata, name: current.metadata?.name ?? '' } }, current, true)
    return applied.ok ? applied.object : undefined
  }

  /** dryRunSSAPatch's dry runs: the desired object (modified) and the stored one (original), each applied over what is stored. */
  #dryRuns (role: string, current: Unstructured, desired: Unstructured): { original: Unstructured, modified: Unstructured } {
    const modified = this.#schemas.apply(desired, current, true)
    if (!modified.ok) throw new ObjectRefused(role, describeObject(current), dryRunError(modified.refusal, current))
    const original = this.#schemas.apply(current, current, true)
    if (!original.ok) throw new ObjectRefused(role, describeObject(current), dryRunError(original.refusal, current).replace('for modified object', 'for original object'))
    return { original: original.object, modified: modified.object }
  }

  #apply (role: string, current: Unstructured, desired: Unstructured): Unstructured {
    const applied = this.#schemas.apply(desired, current, false)
    if (!applied.ok) throw new ObjectRefused(role, describeObject(current), patchError(applied.refusal, current))
    return applied.object
  }
}
