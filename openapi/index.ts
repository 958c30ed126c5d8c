/**
 * The OpenAPI document of every hook, as published in openapi/runtime-sdk.json (also importable as the file
 * `runtime-sdk/openapi.json`). The hooks' TypeScript types are the named types of `v1alpha1` in `runtime-sdk`,
 * generated from the same definitions.
 *
 * @packageDocumentation
 */
import type { OpenAPIDocument } from '../src/catalog/openapi.js'
import json from './runtime-sdk.json' with { type: 'json' }

export type { OpenAPIDocument }

/**
 * document is the OpenAPI 3.0 document of every hook of hooks.runtime.cluster.x-k8s.io, the content of
 * openapi/runtime-sdk.json.
 *
 * @example
 * ```ts
 * import { document } from 'runtime-sdk/openapi'
 *
 * console.log(Object.keys(document.paths)) // ['/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery', ...]
 * ```
 */
export const document: OpenAPIDocument = json
