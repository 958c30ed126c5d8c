// runtime-sdk simulate: a Cluster's life as Cluster API v1.14 drives it, against an extension, without a management
// cluster: the hooks in Cluster API's order on a virtual clock, and the templates after the ClusterClass's patches.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Command, Option } from 'commander'
import { stringify } from 'yaml'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import { HttpRuntimeClient } from '../client/client.js'
import { extensionConfigForUrl, readExtensionConfigs } from '../client/extension-configs.js'
import { manifestFiles, readDocuments } from '../kube/manifests.js'
import { referenceHandlers } from '../reference-extension/index.js'
import { classExtensionName, simulate, type SimulationResult } from '../simulate/index.js'
import { action, type CliIO, clientCertificateOf, clientTlsOptions, type ClientTlsFlags, defaultIO, OperationFailed, UsageError } from './command.js'
import { durationOption, labelsOption } from './options.js'
import { type OutputFormat, outputOption, render } from './output.js'
import { loadHandlers } from './serve.js'
import { columns } from './table.js'

interface SimulateCliOptions extends ClientTlsFlags {
  filename: string[]
  handlers?: string
  url?: string
  extensionConfigs?: string
  name?: string
  namespaceLabels?: Record<string, string>
  toVersion?: string
  maxBlocked: number
  outputDir?: string
  output: OutputFormat
}

const collect = (value: string, previous: string[] = []) => [...previous, value]

/** Every document of the files and directories given, with the file each came from. */
async function readInputs (paths: readonly string[]): Promise<{ objects: unknown[], sources: Map<unknown, string> }> {
  const objects: unknown[] = []
  const sources = new Map<unknown, string>()
  for (const path of paths) {
    for (const file of await manifestFiles(path)) {
      for (const doc of await readDocuments(file)) {
        objects.push(doc)
        sources.set(doc, file)
      }
    }
  }
  return { objects, sources }
}

/** `75s` -> `1m15s`. */
function at (seconds: number): string {
  const m = Math.floor(seconds / 60)
  return m > 0 ? `${m}m${seconds % 60}s` : `${seconds}s`
}

function tableText (result: SimulationResult, toVersion: string | undefined): string {
  const rows = [['TIME', 'HOOK', 'HANDLER', 'STATUS', 'RETRY', 'MESSAGE'], ...result.timeline.map(e => [
    at(e.at), e.hook || '-', e.handler || '-', e.status, e.retryAfterSeconds ? `${e.retryAfterSeconds}s` : '', e.status === 'Event' ? e.step ?? '' : [e.step, e.message].filter(Boolean).join(': ')
  ])]
  let out = columns(rows)
  for (const phase of result.phases) {
    out += `\nTemplates after the ClusterClass's patches (${phase.phase === 'create' ? 'created at' : 'upgraded to'} ${phase.version}):\n`
    for (const t of phase.templates) {
      out += `  ${t.role}: ${t.kind} ${t.name} -> ${t.generatedName} (${t.diff.length === 0 ? 'unchanged' : `${t.diff.length} change${t.diff.length === 1 ? '' : 's'}`})\n`
      for (const op of t.diff) out += `    ${op.op} ${op.path}${'value' in op ? ` ${JSON.stringify(op.value)}` : ''}\n`
    }
  }
  if (result.notes.length > 0) out += `\nNot simulated:\n${result.notes.map(n => `  ${n}\n`).join('')}`
  if (result.warnings.length > 0) out += `\nWarnings:\n${result.warnings.map(w => `  ${w}\n`).join('')}`
  if (result.outcome === 'completed') out += `\nThe cluster was created${toVersion ? `, upgraded to ${toVersion}` : ''} and deleted: ${result.calls} handler calls, ${at(result.timeline.at(-1)?.at ?? 0)} held by hooks.\n`
  return out
}

/** The extension's client: handlers in process, an extension's URL, or ExtensionConfig files. */
async function extensionClient (opts: SimulateCliOptions, objects: unknown[]): Promise<{ handlers: Awaited<ReturnType<typeof loadHandlers>> } | { client: HttpRuntimeClient }> {
  const given = [opts.handlers, opts.url, opts.extensionConfigs].filter(v => v !== undefined)
  if (given.length > 1) throw new UsageError('pass the extension once: --handlers <module>, --url <https-url> or --extension-configs <path>')
  if (!opts.url && !opts.extensionConfigs) return { handlers: opts.handlers ? await loadHandlers(opts.handlers) : referenceHandlers() }
  const clientCertificate = clientCertificateOf(opts)
  const name = opts.name ?? classExtensionName(objects.find(o => (o as { kind?: unknown })?.kind === 'ClusterClass')) ?? 'extension'
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
      throw new OperationFailed(`Discovery: ${(err as Error).message}`)
    }
  }
  client.warmUp(discovered)
  return { client }
}

export function simulateCommand (io: CliIO = defaultIO): Command {
  const command = new Command('simulate')
    .description('take a Cluster through its life as Cluster API v1.14 would (create, upgrade, delete) against an extension, without a management cluster, and print every hook call and the patched templates')
    .requiredOption('-f, --filename <path>', 'file or directory with the Cluster, its ClusterClass and the templates (YAML/JSON, multi-document; repeatable)', collect)
    .option('--handlers <module>', 'your module\'s handlers (its default or `handlers` export), called in process (default: the reference extension)')
    .option('--url <url>', 'https URL of a running extension')
    .option('--extension-configs <path>', 'directory (or file) with ExtensionConfigs; namespaceSelector and settings honoured as Cluster API does')
    .option('--name <name>', 'ExtensionConfig name of --handlers or --url (default: the one the ClusterClass\'s handler names end with)')
    .option('--namespace-labels <labels>', 'labels of the Cluster\'s namespace, k=v,... (kubernetes.io/metadata.name is always set)', labelsOption)
    .option('--to-version <version>', 'upgrade the Cluster to this Kubernetes version after creating it')
    .addOption(new Option('--max-blocked <duration>', 'fail when a hook holds the cluster longer (virtual time)').argParser(durationOption).default(600_000, '10m'))
    .option('--output-dir <dir>', 'write the patched templates there, one YAML file each')
    .addOption(outputOption(['table', 'json', 'yaml']))
  return clientTlsOptions(command).action(action(io, async (opts: SimulateCliOptions) => {
    const { objects, sources } = await readInputs(opts.filename)
    const extension = await extensionClient(opts, objects)
    let result: SimulationResult
    try {
      result = await simulate({
        ...extension,
        ...(opts.name && 'handlers' in extension ? { extensionName: opts.name } : {}),
        objects,
        sourceOf: o => sources.get(o),
        ...(opts.toVersion ? { toVersion: opts.toVersion } : {}),
        maxBlockedSeconds: Math.round(opts.maxBlocked / 1000)
      })
    } finally {
      if ('client' in extension) await extension.client.close()
    }
    io.stdout(render(opts.output, result, () => tableText(result, opts.toVersion)))
    if (opts.outputDir) {
      await mkdir(opts.outputDir, { recursive: true })
      for (const t of result.templates) await writeFile(join(opts.outputDir, `${t.role.replace(/\s+/g, '-')}-${t.kind}-${t.name}.yaml`.toLowerCase()), stringify(t.patched))
    }
    if (result.outcome === 'failed') {
      io.stderr(`error: ${result.error ?? 'the simulation failed'}\n`)
      throw new OperationFailed('simulation failed')
    }
  }))
}
