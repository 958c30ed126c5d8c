// The Go decoders of Cluster API's hooks: the checker of a hook's request or response schema (the very object the
// catalog holds), generated from its Go type by `npm run generate` (tools/decoders.ts) into one module per Go package
// (runtimehooksv1.generated.ts and the packages it imports). A schema that is not Cluster API's own object (a copy,
// a hook of your own) has none: Ajv checks it (../schema-compiler.ts).
import type { TSchema } from 'typebox'
import { capiHooks } from '../../api/hooks/v1alpha1/capi.js'
import { definitionSchema } from '../../api/hooks/v1alpha1/schemas.js'
import type { Checker } from './rules.js'
import { hookCheckers } from './runtimehooksv1.generated.js'

let bySchema: WeakMap<TSchema, Checker> | undefined

/** The Go decoder of one of Cluster API's hook request or response schemas, else undefined. */
export function goDecoder (schema: TSchema): Checker | undefined {
  if (!bySchema) {
    bySchema = new WeakMap()
    for (const { request, response } of capiHooks) {
      for (const definition of [request, response]) {
        const checker = hookCheckers[definition]
        if (!checker) throw new Error(`no generated decoder for ${definition}: run npm run generate`)
        bySchema.set(definitionSchema(definition), checker)
      }
    }
  }
  return bySchema.get(schema)
}
