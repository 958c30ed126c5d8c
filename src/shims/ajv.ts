// Ajv instances for the project's two validators (the hook schemas in src/catalog, the ExtensionConfig API in
// validate.ts), with the formats Kubernetes' OpenAPI uses in our schemas. Ajv is loaded when the first instance is
// made: a process that compiles no schema at run time never loads it.
import { createRequire } from 'node:module'
import type { Ajv, Options } from 'ajv'
import type addFormats from 'ajv-formats'

const require = createRequire(import.meta.url)

export function createAjv (options: Options): Ajv {
  const ajv = require('ajv') as typeof import('ajv')
  const formats = require('ajv-formats') as typeof addFormats
  const instance = new ajv.Ajv(options)
  formats.default(instance, ['byte', 'int32', 'int64', 'date-time'])
  return instance
}
