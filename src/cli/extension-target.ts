// The extension a command works against, given the same way to simulate, replay and rollout-impact: handlers of a
// module called in process (default: the reference extension), a running extension's URL, or ExtensionConfig files
// (their namespaceSelector and settings honoured as Cluster API does); the flags that say which, in one place.
import { readFile } from 'node:fs/promises'
import type { Command } from 'commander'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import { HttpRuntimeClient } from '../client/client.js'
import { extensionConfigForUrl, readExtensionConfigs } from '../client/extension-configs.js'
import type { RuntimeClient } from '../client/runtime-client.js'
import { referenceHandlers } from '../reference-extension/index.js'
import { createInProcessExtension } from '../server/in-process.js'
import type { ExtensionHandler } from '../server/types.js'
import { InProcessRuntimeClient } from '../simulate/index.js'
import { clientCertificateOf, type ClientTlsFlags, UsageError } from './command.js'
import { labelsOption } from './options.js'
import { loadHandlers } from './serve.js'

/** The flags that name the extension. */
export interface ExtensionTargetFlags extends ClientTlsFlags {
  handlers?: string
  url?: string
  extensionConfigs?: string
  name?: string
  namespaceLabels?: Record<string, string>
}

/** Adds the flags that name the extension; `defaultName` says what --name defaults to. */
export function extensionTargetOptions (command: Command, defaultName: string): Command {
  return command
    .option('--handlers <module>', 'your module\'s handlers (its default or `handlers` export), called in process (default: the reference extension)')
    .option('--url <url>', 'https URL of a running extension')
    .option('--extension-configs <path>', 'directory (or file) with ExtensionConfigs; namespaceSelector and settings honoured as Cluster API does')
    .option('--name <name>', `ExtensionConfig name of --handlers or --url (default: ${defaultName})`)
    .option('--namespace-labels <labels>', 'labels of the Cluster\'s namespace, k=v,... (kubernetes.io/metadata.name is always set)', labelsOption)
}

/** The extension: handlers to call in process, or a client that discovered it over HTTPS (close it when done). */
type ExtensionTarget = { handlers: ExtensionHandler[], name: string, extensionConfigs?: undefined } | { client: HttpRuntimeClient, name: string, extensionConfigs: ExtensionConfig[] }

/** The extension the flags name; `defaultName` names the ExtensionConfig of --handlers and --url when --name is absent. */
export async function extensionTarget (opts: ExtensionTargetFlags, defaultName: string): Promise<ExtensionTarget> {
  const given = [opts.handlers, opts.url, opts.extensionConfigs].filter(v => v !== undefined)
  if (given.length > 1) throw new UsageError('pass the extension once: --handlers <module>, --url <https-url> or --extension-configs <path>')
  const name = opts.name ?? defaultName
  if (!opts.url && !opts.extensionConfigs) return { handlers: opts.handlers ? await loadHandlers(opts.handlers) : referenceHandlers(), name }
  const clientCertificate = clientCertificateOf(opts)
  const configs: ExtensionConfig[] = opts.url ? [extensionConfigForUrl(opts.url, name)] : await readExtensionConfigs(opts.extensionConfigs as string)
  if (configs.length === 0) throw new UsageError(`${opts.extensionConfigs ?? ''} holds no ExtensionConfig`)
  if (opts.certificateAuthority) {
    const caBundle = (await readFile(opts.certificateAuthority)).toString('base64')
    for (const ec of configs) ec.spec.clientConfig.caBundle = caBundle
  }
  const client = new HttpRuntimeClient({
    namespaceLabels: ns => ({ 'kubernetes.io/metadata.name': ns, ...opts.namespaceLabels }),
    ...(clientCertificate ? { clientCertificate } : {}),
    backoff: false
  })
  const discovered: ExtensionConfig[] = []
  for (const ec of configs) {
    try {
      discovered.push(await client.discover(ec))
    } catch (err) {
      await client.close()
      // Said in one line by the command (exit 1): the extension could not be reached or answered badly.
      throw new Error(`Discovery of ${ec.metadata.name}: ${(err as Error).message}`)
    }
  }
  client.warmUp(discovered)
  return { client, name: opts.extensionConfigs ? discovered[0]?.metadata.name ?? name : name, extensionConfigs: discovered }
}

/** A RuntimeClient over the target: the HTTPS client, or the handlers registered in process under the target's name. */
export function runtimeClientOf (target: ExtensionTarget): RuntimeClient {
  return 'client' in target ? target.client : new InProcessRuntimeClient(createInProcessExtension({ handlers: target.handlers }), target.name)
}

/** Closes what the target opened. */
export async function closeTarget (target: ExtensionTarget): Promise<void> {
  if ('client' in target) await target.client.close()
}
