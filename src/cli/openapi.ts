// runtime-sdk openapi: the OpenAPI document of every hook.
import { Command } from 'commander'
import { stringify } from 'yaml'
import { hooksOpenAPIDocument, type OpenAPIDocument } from '../catalog/openapi.js'
import { action, type CliIO, defaultIO, hiddenAlias } from './command.js'
import { outputOption } from './output.js'

export function openapiCommand (io: CliIO = defaultIO): Command {
  const command = new Command('openapi')
    .description('print the OpenAPI document of every hook in hooks.runtime.cluster.x-k8s.io')
    .addOption(outputOption(['yaml', 'json']))
  hiddenAlias(command, '--format <format>', 'output')
  return command.action(action(io, (opts: { output: 'yaml' | 'json' }) => {
    io.stdout(renderOpenAPI(hooksOpenAPIDocument(), opts.output))
  }))
}

/** The document as published: openapi/runtime-sdk.json and .yaml are this text. */
export function renderOpenAPI (document: OpenAPIDocument, format: 'json' | 'yaml'): string {
  return format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : stringify(document, { lineWidth: 0, aliasDuplicateObjects: false })
}
