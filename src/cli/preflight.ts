// runtime-sdk preflight: before an upgrade, lists registered handlers whose hook version this catalog does not
// know (they would stop working) or marks deprecated. Run the target release's CLI to check against its catalog.
import { Command } from 'commander'
import { fetchControllerStatus } from './controller-status.js'
import { EXTENSION_CONFIG_COLLECTION_PATH } from '../api/constants.js'
import type { ExtensionConfig } from '../api/extension-config.js'
import { createCatalog } from '../catalog/default.js'
import { KubeApi } from '../kube/api.js'
import { hookVersionProblems } from '../controller/preflight.js'
import { action, type CliIO, defaultIO, OperationFailed, type OutputFormat, outputOption, render } from './command.js'
import { table } from './table.js'

interface PreflightOptions {
  kubeconfig?: string
  url?: string
  output: OutputFormat
}

async function registered (opts: PreflightOptions): Promise<ExtensionConfig[]> {
  if (opts.url) {
    return (await fetchControllerStatus(opts.url)).extensionConfigs.map(r => r.extensionConfig)
  }
  const api = new KubeApi(opts.kubeconfig)
  try {
    const list = await api.request<{ items: ExtensionConfig[] }>('GET', EXTENSION_CONFIG_COLLECTION_PATH)
    return list.items
  } finally {
    await api.close()
  }
}

export function preflightCommand (io: CliIO = defaultIO): Command {
  return new Command('preflight')
    .description('check that every registered handler uses a hook version this release\'s catalog serves (exit 1 when one would stop working)')
    .option('--kubeconfig <file>', 'read ExtensionConfig status from this cluster (default: KUBECONFIG, ~/.kube/config, in-cluster)')
    .option('--url <url>', 'read ExtensionConfigs from a running controller\'s HTTP endpoint instead (e.g. the embedded one)')
    .addOption(outputOption(['table', 'json', 'yaml']))
    .action(action(io, async (opts: PreflightOptions) => {
      const catalog = createCatalog()
      const problems: Array<{ extensionConfig: string, handler: string, apiVersion: string, hook: string, problem: string }> = []
      let handlers = 0
      for (const ec of await registered(opts)) {
        handlers += ec.status?.handlers?.length ?? 0
        for (const p of hookVersionProblems(catalog, ec.status?.handlers)) problems.push({ extensionConfig: ec.metadata.name, ...p })
      }
      const unknown = problems.filter(p => p.problem === 'unknown').length
      io.stdout(render(opts.output, { handlers, problems }, () =>
        (problems.length > 0
          ? table(['EXTENSIONCONFIG', 'HANDLER', 'HOOK', 'PROBLEM'], problems.map(p =>
            [p.extensionConfig, p.handler, `${p.apiVersion}/${p.hook}`, p.problem === 'unknown' ? 'not in catalog: will stop working' : 'deprecated']))
          : '') +
        `${handlers} handlers checked: ${unknown} not in the catalog, ${problems.length - unknown} deprecated\n`))
      if (unknown > 0) throw new OperationFailed(`${unknown} handlers would stop working`)
    }))
}
