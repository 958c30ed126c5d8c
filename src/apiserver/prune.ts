// Pruning as the API server does it when it decodes a custom resource: fields the structural schema does not
// declare are dropped, except under x-kubernetes-preserve-unknown-fields (until a nested node declares properties
// again) and apiVersion/kind/metadata of an embedded resource (and of the resource itself). The dropped paths are
// returned sorted, as apiextensions reports them (the warnings of fieldValidation=Warn; Cluster API's "field(s) are
// not specified in the variable schema").
import { spend } from '../budget/index.js'
import { compare as compareBytes } from '../go/strings.js'
import type { Structural } from './schema.js'

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata'])

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

interface Tracker { parent: string[], paths: string[] }

const withKey = (t: Tracker, key: string): string[] => t.parent.length > 0 ? [...t.parent, '.', key] : [key]

function pruneNode (x: unknown, s: Structural | undefined, t: Tracker): void {
  spend()
  if (s?.preserveUnknownFields) { skipPrune(x, s, t); return }
  if (isRecord(x)) {
    for (const k of Object.keys(x)) {
      if (s?.embeddedResource && META_FIELDS.has(k)) continue
      const prop = s?.properties?.get(k)
      if (s !== undefined && (prop !== undefined || s.additionalProperties !== undefined)) {
        pruneNode(x[k], prop ?? s.additionalProperties?.schema, { parent: withKey(t, k), paths: t.paths })
        continue
      }
      // A top-level apiVersion, kind or metadata goes silently (the resource's own are never pruned).
      if (s === undefined || !META_FIELDS.has(k) || t.parent.length > 0) t.paths.push(withKey(t, k).join(''))
      delete x[k]
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => pruneNode(v, s?.items, { parent: [...t.parent, `[${i}]`], paths: t.paths }))
  }
}

function skipPrune (x: unknown, s: Structural, t: Tracker): void {
  if (isRecord(x)) {
    for (const k of Object.keys(x)) {
      if (s.embeddedResource && META_FIELDS.has(k)) continue
      const prop = s.properties?.get(k)
      if (prop !== undefined) pruneNode(x[k], prop, { parent: withKey(t, k), paths: t.paths })
      else if (s.additionalProperties !== undefined) pruneNode(x[k], s.additionalProperties.schema, { parent: withKey(t, k), paths: t.paths })
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => { if (s.items) skipPrune(v, s.items, { parent: [...t.parent, `[${i}]`], paths: t.paths }) })
  }
}

/**
 * Prunes x in place by the structural schema s and returns the pruned paths, sorted. With isResourceRoot the root is
 * a Kubernetes object: its apiVersion, kind and metadata stay.
 */
export function pruneInPlace (x: unknown, s: Structural, isResourceRoot: boolean): string[] {
  const root = isResourceRoot && !s.embeddedResource ? { ...s, embeddedResource: true } : s
  const t: Tracker = { parent: [], paths: [] }
  pruneNode(x, root, t)
  return t.paths.sort(compareBytes)
}
