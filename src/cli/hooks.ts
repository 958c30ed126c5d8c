// runtime-sdk hooks: the hooks of the catalog with their paths.
import { Command } from 'commander'
import { createCatalog } from '../catalog/default.js'
import { action, type CliIO, defaultIO } from './command.js'
import { type OutputFormat, outputOption, render } from './output.js'
import { table } from './table.js'

export function hooksCommand (io: CliIO = defaultIO): Command {
  return new Command('hooks')
    .description('list the hooks of the catalog with their paths')
    .addOption(outputOption(['table', 'json', 'yaml']))
    .action(action(io, (opts: { output: OutputFormat }) => {
      const catalog = createCatalog()
      const rows = catalog.all().map(h => ({
        hook: h.gvh.hook,
        apiVersion: h.apiVersion,
        blocking: h.blocking,
        path: catalog.path(h.gvh, h.definition.meta.singleton ? undefined : '<name>'),
        summary: h.definition.meta.summary
      }))
      io.stdout(render(opts.output, rows, () => table(['HOOK', 'API VERSION', 'BLOCKING', 'PATH'], rows.map(r => [r.hook, r.apiVersion, r.blocking ? 'yes' : 'no', r.path]))))
    }))
}
