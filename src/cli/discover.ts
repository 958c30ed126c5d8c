// runtime-sdk discover: calls an extension's Discovery hook and prints its handlers.
import { Command } from 'commander'
import { HttpRuntimeClient } from '../client/client.js'
import { isUrl, loadExtensionConfig } from '../client/extension-configs.js'
import { action, type CliIO, clientCertificateOf, clientTlsOptions, type ClientTlsFlags, defaultIO, UsageError } from './command.js'
import { type OutputFormat, outputOption, render } from './output.js'
import { table } from './table.js'

interface DiscoverOptions extends ClientTlsFlags {
  name: string
  output: OutputFormat
}

export function discoverCommand (io: CliIO = defaultIO): Command {
  const command = new Command('discover')
    .description('call the Discovery hook of an extension (https URL or ExtensionConfig file) and list its handlers')
    .argument('<target>', 'https URL of the extension, or a YAML/JSON file with an ExtensionConfig')
    .option('--name <name>', 'ExtensionConfig name used for a URL target (handlers are named <handler>.<name>)', 'extension')
    .addOption(outputOption(['table', 'json', 'yaml']))
  return clientTlsOptions(command, { certificateAuthority: '--ca-file', clientCertificate: '--cert-file', clientKey: '--key-file' })
    .action(action(io, async (target: string, opts: DiscoverOptions) => {
      const clientCertificate = clientCertificateOf(opts)
      if (!isUrl(target) && !/\.(ya?ml|json)$/i.test(target)) {
        throw new UsageError(`"${target}" is neither a URL nor a YAML/JSON file: pass https://<host>:<port>[/<path>] or an ExtensionConfig file`)
      }
      const ec = await loadExtensionConfig(target, { name: opts.name, ...(opts.certificateAuthority ? { caFile: opts.certificateAuthority } : {}) })
      const client = new HttpRuntimeClient(clientCertificate ? { clientCertificate } : {})
      try {
        const handlers = (await client.discover(ec)).status?.handlers ?? []
        io.stdout(render(opts.output, handlers, () => table(['NAME', 'HOOK', 'API VERSION', 'TIMEOUT', 'FAILURE POLICY'],
          handlers.map(h => [h.name, h.requestHook.hook, h.requestHook.apiVersion, `${h.timeoutSeconds ?? ''}s`, h.failurePolicy ?? '']))))
      } finally {
        await client.close()
      }
    }))
}
