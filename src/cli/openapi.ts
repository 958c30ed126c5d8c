// runtime-sdk openapi: the OpenAPI document of every hook.
import { Command } from 'commander'
import { hooksOpenAPIDocument, renderOpenAPI } from '../catalog/openapi.js'
import { action, type CliIO, defaultIO, hiddenAlias, outputOption } from './command.js'

export function openapiCommand (io: CliIO = defaultIO): Command {
  const command = new Command('openapi')
    .description('print the OpenAPI document of every hook in hooks.runtime.cluster.x-k8s.io')
    .addOption(outputOption(['yaml', 'json']))
  hiddenAlias(command, '--format <format>', 'output')
  return command.action(action(io, (opts: { output: 'yaml' | 'json' }) => {
    io.stdout(renderOpenAPI(hooksOpenAPIDocument(), opts.output))
  }))
}
