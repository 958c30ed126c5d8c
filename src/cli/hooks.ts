import { Command, Option } from 'commander'
import { createCatalog } from '../catalog/default.js'
import { columns } from './table.js'

export function hooksCommand (): Command {
  return new Command('hooks')
    .description('list the hooks of the catalog with their paths')
    .addOption(new Option('--output <format>', 'output format').choices(['table', 'json']).default('table'))
    .action((opts: { output: 'table' | 'json' }) => {
      const catalog = createCatalog()
      const rows = catalog.all().map(h => ({
        hook: h.gvh.hook,
        apiVersion: h.apiVersion,
        blocking: h.blocking,
        path: catalog.path(h.gvh, h.definition.meta.singleton ? undefined : '<name>'),
        summary: h.definition.meta.summary
      }))
      if (opts.output === 'json') {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`)
        return
      }
      process.stdout.write(columns(rows.map(r => [r.hook, r.blocking ? 'blocking' : '', r.path])))
    })
}
