// The shape of a hook API definition: what a group version contributes to a catalog. The hooks themselves live
// in one folder per group version (v1alpha1/).
import type { Static, TSchema } from 'typebox'

/** What documents a hook version: the text of its OpenAPI operation, and whether it is deprecated or a singleton. */
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

/**
 * One version of one hook: its request and response schemas (plain JSON Schema) and what documents it.
 * `Req` and `Res` are the TypeScript types of the request and response; handlers and the runtime client infer them
 * from the definition, so `v1alpha1.BeforeClusterUpgrade` is all a caller names.
 */
export interface HookDefinition<Req = unknown, Res = unknown> {
  /** hook is the hook name, UpperCamelCase, e.g. BeforeClusterCreate. */
  readonly hook: string
  /** request is the JSON Schema of the hook's requests, as the OpenAPI document shows it. */
  readonly request: TSchema
  /** response is the JSON Schema of the hook's responses, as the OpenAPI document shows it. */
  readonly response: TSchema
  /** meta documents the hook. */
  readonly meta: HookMeta
  /** Types only, never set at run time: carries `Req` and `Res` for inference. */
  readonly '~types'?: {
    /** request is the request type, `Req`. */
    readonly request: Req
    /** response is the response type, `Res`. */
    readonly response: Res
  }
}

/**
 * How one hook of an older version converts to and from a newer version (Runtime SDK rule #2):
 * requests are converted down from `to`, responses up to `to`. Chains of these reach the latest version.
 */
export interface HookConversion {
  /** to is the newer version this version converts to and from. */
  to: string
  /** request turns a request of version `to` into one of this version. */
  request (newer: unknown): unknown
  /** response turns a response of this version into one of version `to`. */
  response (older: unknown): unknown
}

/** The hooks of one API group version, as a catalog registers them (`v1alpha1.groupVersion` is Cluster API's). */
export interface HookGroupVersion {
  /** group is the API group, a DNS subdomain, e.g. hooks.runtime.cluster.x-k8s.io. */
  group: string
  /** version is the API version, e.g. v1alpha1 or v1. */
  version: string
  /** hooks are the definitions of the hooks of this version. */
  hooks: readonly HookDefinition[]
  /** conversions, by hook name, for every hook of this version that is not the latest. */
  conversions?: Readonly<Record<string, HookConversion>>
}

/**
 * Defines a hook from its schemas; the request and response types are the schemas' static types
 * (TypeBox schemas, or generated schemas carrying a named interface).
 */
export function defineHook<Req extends TSchema, Res extends TSchema> (def: { hook: string, request: Req, response: Res, meta: HookMeta }): HookDefinition<Static<Req>, Static<Res>> {
  return def
}

/** The request type of a hook definition, e.g. `RequestOf<typeof v1alpha1.BeforeClusterUpgrade>`. */
export type RequestOf<H> = H extends HookDefinition<infer Req, unknown> ? Req : never
/** The response type of a hook definition. */
export type ResponseOf<H> = H extends HookDefinition<unknown, infer Res> ? Res : never
