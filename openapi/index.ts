// runtime-sdk/openapi: the OpenAPI document of every hook, as published in openapi/runtime-sdk.json. The hooks'
// TypeScript types are the named types of `v1alpha1` (runtime-sdk), generated from the same definitions.
import document from './runtime-sdk.json' with { type: 'json' }

export { document }
