// Structural defaulting as apiextensions applies it when it decodes a custom resource: first nulls that are not
// nullable and have no default are dropped, then every absent field with a default gets a copy of it, at every depth
// (inside list items and additionalProperties too), and the copy is defaulted in turn. A non-nullable null with a
// default is replaced by the default. Defaults themselves are pruned by the schema beforehand (pruneDefaults), as
// the API server does when it loads a CRD.
import { spend } from '../budget/index.js'
import { coerceEmbedded } from './objectmeta.js'
import { pruneInPlace } from './prune.js'
import { type Structural, withDefault } from './schema.js'

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const copy = <T>(v: T): T => v === undefined ? v : structuredClone(v)

const nonNullableNull = (x: unknown, s: Structural | undefined): boolean => x === null && s !== undefined && !s.nullable

function schemaFor (k: string, s: Structural | undefined): Structural | undefined {
  if (s === undefined) return undefined
  return s.properties?.get(k) ?? s.additionalProperties?.schema
}

/** Drops, in place, the nulls the schema does not allow and has no default for (PruneNonNullableNullsWithoutDefaults). */
export function pruneNullsInPlace (x: unknown, s: Structural | undefined): void {
  if (isRecord(x)) {
    for (const k of Object.keys(x)) {
      const sub = schemaFor(k, s)
      if (nonNullableNull(x[k], sub) && sub?.default === undefined) delete x[k]
      else pruneNullsInPlace(x[k], sub)
    }
  } else if (Array.isArray(x)) {
    for (const v of x) pruneNullsInPlace(v, s?.items)
  }
}

/** Applies the schema's defaults to x in place (structuraldefaulting.Default). */
export function defaultInPlace (x: unknown, s: Structural | undefined): void {
  spend()
  if (s === undefined) return
  if (isRecord(x)) {
    for (const [k, prop] of s.properties ?? []) {
      if (prop.default === undefined) continue
      if (!(k in x) || nonNullableNull(x[k], prop)) x[k] = copy(prop.default.value)
    }
    for (const k of Object.keys(x)) {
      const prop = s.properties?.get(k)
      if (prop !== undefined) {
        defaultInPlace(x[k], prop)
      } else if (s.additionalProperties !== undefined) {
        const ap = s.additionalProperties.schema
        if (nonNullableNull(x[k], ap)) x[k] = copy(ap?.default?.value) ?? null
        defaultInPlace(x[k], ap)
      }
    }
  } else if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      if (nonNullableNull(x[i], s.items)) x[i] = copy(s.items?.default?.value) ?? null
      defaultInPlace(x[i], s.items)
    }
  }
}

/**
 * The schema with its defaults pruned (structuraldefaulting.PruneDefaults): fields a default sets that the schema
 * does not declare are dropped and embedded metadata is normalised, as the API server does when it serves a CRD.
 */
export function pruneDefaults (s: Structural, isResourceRoot = true): Structural {
  let node = s
  if (s.default !== undefined) {
    const value = copy(s.default.value)
    coerceEmbedded(undefined, value, s, isResourceRoot)
    pruneInPlace(value, s, isResourceRoot)
    node = withDefault(s, value)
  }
  const properties = node.properties && new Map([...node.properties].map(([k, v]) => [k, pruneDefaults(v, false)]))
  const items = node.items && pruneDefaults(node.items, false)
  const ap = node.additionalProperties?.schema && { ...node.additionalProperties, schema: pruneDefaults(node.additionalProperties.schema, false) }
  return {
    ...node,
    ...(properties ? { properties } : {}),
    ...(items ? { items } : {}),
    ...(ap ? { additionalProperties: ap } : {})
  }
}
