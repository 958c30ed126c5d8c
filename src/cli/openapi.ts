import { Command, Option } from 'commander'
import { hooksOpenAPIDocument, renderOpenAPI } from '../catalog/openapi.js'

export function openapiCommand (): Command {
  return new Command('openapi')
    .description('print the OpenAPI document of every hook in hooks.runtime.cluster.x-k8s.io')
    .addOption(new Option('--format <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .action((opts: { format: 'yaml' | 'json' }) => {
      process.stdout.write(renderOpenAPI(hooksOpenAPIDocument(), opts.format))
    })
}
