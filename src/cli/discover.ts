// runtime-sdk discover: calls an extension's Discovery hook and prints its handlers.
import { Command, Option } from 'commander'
import { HttpRuntimeClient } from '../client/client.js'
import { loadExtensionConfig } from '../client/extension-configs.js'
import { table } from './table.js'

export interface CliIO {
  stdout: (text: string) => void
  stderr: (text: string) => void
}

export const defaultIO: CliIO = { stdout: text => process.stdout.write(text), stderr: text => process.stderr.write(text) }

interface DiscoverOptions {
  name: string
  caFile?: string
  certFile?: string
  keyFile?: string
  output: 'table' | 'json'
}

export function discoverCommand (io: CliIO = defaultIO): Command {
  return new Command('discover')
    .description('call the Discovery hook of an extension (https URL or ExtensionConfig file) and list its handlers')
    .argument('<target>', 'https URL of the extension, or a YAML/JSON file with an ExtensionConfig')
    .option('--name <name>', 'ExtensionConfig name used for a URL target (handlers are named <handler>.<name>)', 'extension')
    .option('--ca-file <file>', 'PEM CA bundle to verify the extension (default: the caBundle of the ExtensionConfig, else system roots)')
    .option('--cert-file <file>', 'PEM client certificate for mTLS')
    .option('--key-file <file>', 'PEM client key for mTLS')
    .addOption(new Option('--output <format>', 'output format').choices(['table', 'json']).default('table'))
    .action(async (target: string, opts: DiscoverOptions) => {
      let client: HttpRuntimeClient | undefined
      try {
        const ec = await loadExtensionConfig(target, { name: opts.name, ...(opts.caFile ? { caFile: opts.caFile } : {}) })
        client = new HttpRuntimeClient(opts.certFile || opts.keyFile ? { clientCertificate: { certFile: opts.certFile ?? '', keyFile: opts.keyFile ?? '' } } : {})
        const discovered = await client.discover(ec)
        const handlers = discovered.status?.handlers ?? []
        if (opts.output === 'json') {
          io.stdout(`${JSON.stringify(handlers, null, 2)}\n`)
        } else {
          io.stdout(table(['NAME', 'HOOK', 'API VERSION', 'TIMEOUT', 'FAILURE POLICY'],
            handlers.map(h => [h.name, h.requestHook.hook, h.requestHook.apiVersion, `${h.timeoutSeconds ?? ''}s`, h.failurePolicy ?? ''])))
        }
      } catch (err) {
        io.stderr(`error: ${(err as Error).message}\n`)
        process.exitCode = 1
      } finally {
        await client?.close()
      }
    })
}
