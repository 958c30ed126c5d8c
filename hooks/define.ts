// The shape of a hook API definition: what a group version contributes to a catalog.
import type { Static, TObject } from 'typebox'

export interface HookMeta {
  /** summary is a one-line statement of when the hook is called. */
  summary: string
  /** description explains the hook's contract to extension authors. */
  description: string
  /** tags group hooks in the OpenAPI document. */
  tags: string[]
  /** deprecated marks a hook version that is going away. */
  deprecated?: boolean
  /** singleton hooks are implemented once per extension and have no handler name in their path (Discovery). */
  singleton?: boolean
}

export interface HookDefinition<Req extends TObject = TObject, Res extends TObject = TObject> {
  /** hook is the hook name, UpperCamelCase, e.g. BeforeClusterCreate. */
  hook: string
  request: Req
  response: Res
  meta: HookMeta
}

/**
 * How one hook of an older version converts to and from a newer version (Runtime SDK rule #2):
 * requests are converted down from `to`, responses up to `to`. Chains of these reach the latest version.
 */
export interface HookConversion {
  /** to is the newer version this version converts to and from. */
  to: string
  request: (newer: any) => unknown
  response: (older: any) => unknown
}

export interface HookGroupVersion {
  group: string
  version: string
  hooks: readonly HookDefinition[]
  /** conversions, by hook name, for every hook of this version that is not the latest. */
  conversions?: Readonly<Record<string, HookConversion>>
}

export function defineHook<Req extends TObject, Res extends TObject> (def: HookDefinition<Req, Res>): HookDefinition<Req, Res> {
  return def
}

export type RequestOf<H> = H extends HookDefinition<infer Req, TObject> ? Static<Req> : never
export type ResponseOf<H> = H extends HookDefinition<TObject, infer Res> ? Static<Res> : never
