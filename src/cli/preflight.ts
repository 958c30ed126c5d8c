// runtime-sdk preflight: before installing or upgrading. Says who owns the ExtensionConfig CRD (installing our
// standalone deploy over Cluster API's breaks Cluster API) and lists registered handlers whose hook version this
// catalog does not know (they would stop working) or marks deprecated. Run the target release's CLI to check
// against its catalog.
import { Command } from 'commander'
import { type ControllerEndpointFlags, controllerEndpointOptions, fetchControllerStatus } from './controller-status.js'
import { EXTENSION_CONFIG_COLLECTION_PATH } from '../api/extension-config/constants.js'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import { createCatalog } from '../catalog/default.js'
import { KubeApi } from '../kube/api.js'
import { type CrdOwnership, describeCrdOwnership, readCrdOwnership } from '../controller/crd-owner.js'
import { hookVersionProblems } from '../controller/preflight.js'
import { action, type CliIO, defaultIO, type KubeconfigFlags, kubeconfigOptions, kubeconfigSelection, OperationFailed } from './command.js'
import { type OutputFormat, outputOption, render } from './output.js'
import { table } from './table.js'

interface PreflightOptions extends KubeconfigFlags, Omit<ControllerEndpointFlags, 'url'> {
  url?: string
  readOnly?: boolean
  takeOverCrd?: boolean
  output: OutputFormat
}

interface Registered {
  extensionConfigs: ExtensionConfig[]
  /** crd ownership, when read from a cluster (not from a controller's endpoint). */
  crd?: CrdOwnership
}

async function registered (opts: PreflightOptions): Promise<Registered> {
  if (opts.url) {
    return { extensionConfigs: (await fetchControllerStatus({ ...opts, url: opts.url })).extensionConfigs.map(r => r.extensionConfig) }
  }
  const api = new KubeApi(kubeconfigSelection(opts))
  try {
    const crd = await readCrdOwnership(api)
    if (!crd.installed) return { extensionConfigs: [], crd }
    const list = await api.request<{ items: ExtensionConfig[] }>('GET', EXTENSION_CONFIG_COLLECTION_PATH)
    return { extensionConfigs: list.items, crd }
  } finally {
    await api.close()
  }
}

/** The CRD line of the report; refused when the CRD is someone else's and we were not told how to live with it. */
function crdVerdict (crd: CrdOwnership, opts: PreflightOptions): { line: string, refused: boolean } {
  const refused = crd.foreign && !opts.readOnly && !opts.takeOverCrd
  const advice = !crd.foreign
    ? ''
    : refused
      ? ': do not apply deploy/default or deploy/crd over it; run beside it with deploy/beside-cluster-api (--read-only), or pass --take-over-crd'
      : opts.readOnly ? ': fine for a --read-only controller beside it' : ': taken over (--take-over-crd)'
  return { line: `${describeCrdOwnership(crd)}${advice}`, refused }
}

export function preflightCommand (io: CliIO = defaultIO): Command {
  const command = new Command('preflight')
    .description('check before installing or upgrading: who owns the ExtensionConfig CRD, and that every registered handler uses a hook version this release\'s catalog serves (exit 1 when one would stop working)')
  kubeconfigOptions(command, 'read the CRD and ExtensionConfig status from this cluster (with --url: the user whose token is sent)')
  command.option('--url <url>', 'read ExtensionConfigs from a running controller\'s HTTP endpoint instead (e.g. the embedded one)')
  controllerEndpointOptions(command)
  return command
    .option('--read-only', 'check for a controller that will run --read-only beside the CRD\'s owner (e.g. Cluster API)')
    .option('--take-over-crd', 'check for a controller that will write status on another owner\'s CRD (controller --take-over-crd)')
    .addOption(outputOption(['table', 'json', 'yaml']))
    .action(action(io, async (opts: PreflightOptions) => {
      const catalog = createCatalog()
      const problems: Array<{ extensionConfig: string, handler: string, apiVersion: string, hook: string, problem: string }> = []
      let handlers = 0
      const { extensionConfigs, crd } = await registered(opts)
      const verdict = crd ? crdVerdict(crd, opts) : undefined
      for (const ec of extensionConfigs) {
        handlers += ec.status?.handlers?.length ?? 0
        for (const p of hookVersionProblems(catalog, ec.status?.handlers)) problems.push({ extensionConfig: ec.metadata.name, ...p })
      }
      const unknown = problems.filter(p => p.problem === 'unknown').length
      io.stdout(render(opts.output, { ...(crd ? { crd } : {}), handlers, problems }, () =>
        (verdict ? `${verdict.line}\n` : '') +
        (problems.length > 0
          ? table(['EXTENSIONCONFIG', 'HANDLER', 'HOOK', 'PROBLEM'], problems.map(p =>
            [p.extensionConfig, p.handler, `${p.apiVersion}/${p.hook}`, p.problem === 'unknown' ? 'not in catalog: will stop working' : 'deprecated']))
          : '') +
        `${handlers} handlers checked: ${unknown} not in the catalog, ${problems.length - unknown} deprecated\n`))
      if (unknown > 0) throw new OperationFailed(`${unknown} handlers would stop working`)
      if (verdict?.refused) throw new OperationFailed(verdict.line)
    }))
}
