// runtime-sdk status: what a running controller knows about every ExtensionConfig (its /extensionconfigs).
import { Command } from 'commander'
import { type ControllerEndpointFlags, controllerEndpointOptions, fetchControllerStatus } from './controller-status.js'
import type { ObservedCondition } from '../api/extension-config/types.js'
import type { StatusDocument } from '../controller/http.js'
import { action, type CliIO, defaultIO, kubeconfigOptions } from './command.js'
import { type OutputFormat, outputOption, render } from './output.js'
import { table } from './table.js'

interface StatusOptions extends ControllerEndpointFlags {
  output: OutputFormat
}

export function renderStatus (doc: StatusDocument): string {
  const condition = (conditions: ObservedCondition[] | undefined, type: string) => conditions?.find(c => c.type === type)
  const rows = doc.extensionConfigs.map(r => {
    const conditions = r.extensionConfig.status?.conditions
    const discovered = condition(conditions, 'Discovered')
    return [
      r.name,
      discovered?.status ?? 'Unknown',
      String(r.extensionConfig.status?.handlers?.length ?? 0),
      String(r.registeredHandlers),
      r.outcome ?? 'pending',
      r.message ?? discovered?.message ?? ''
    ]
  })
  let out = `source: ${doc.source}  mode: ${doc.mode}  leader: ${doc.leader}  registry ready: ${doc.registryReady}\n\n`
  out += rows.length > 0 ? table(['NAME', 'DISCOVERED', 'HANDLERS', 'REGISTERED', 'STATE', 'MESSAGE'], rows) : 'no ExtensionConfigs\n'
  if (doc.rejected && doc.rejected.length > 0) {
    out += '\nrejected manifests:\n'
    for (const r of doc.rejected) out += `  ${r.file}${r.name ? ` (${r.kind ?? ''} ${r.name})` : ''}: ${r.errors.join('; ')}\n`
  }
  return out
}

export function statusCommand (io: CliIO = defaultIO): Command {
  const command = new Command('status')
    .description('show what a running controller knows about every ExtensionConfig')
    .option('--url <url>', 'the controller\'s HTTP endpoint (https: authenticated with the kubeconfig user\'s token)', 'http://127.0.0.1:8080')
  controllerEndpointOptions(command)
  kubeconfigOptions(command, 'for an https --url, the user whose token is sent')
  return command
    .addOption(outputOption(['table', 'json', 'yaml']))
    .action(action(io, async (opts: StatusOptions) => {
      const doc = await fetchControllerStatus(opts)
      io.stdout(render(opts.output, doc, () => renderStatus(doc)))
    }))
}
