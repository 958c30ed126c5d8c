// runtime-sdk call: discovers extensions and calls every matching handler of a hook, like Cluster API would.
import { readFile } from 'node:fs/promises'
import { Command } from 'commander'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import type { KubeObject } from '../api/kube-object.js'
import { schemaProperties } from '../api/schema/builders.js'
import type { CatalogHook } from '../catalog/catalog.js'
import { HOOKS_GROUP } from '../catalog/default.js'
import { HttpRuntimeClient } from '../client/client.js'
import { RuntimeCallError } from '../client/errors.js'
import { extensionConfigForUrl, readExtensionConfigs } from '../client/extension-configs.js'
import type { CallResult, HandlerOutcome } from '../client/runtime-client.js'
import { readObject } from '../kube/manifests.js'
import { action, type CliIO, clientCertificateOf, clientTlsOptions, type ClientTlsFlags, defaultIO, OperationFailed, UsageError } from './command.js'
import { type OutputFormat, outputOption, render } from './output.js'
import { labelsOption } from './options.js'
import { table } from './table.js'
import { stringify } from 'yaml'

interface CallCliOptions extends ClientTlsFlags {
  object: string
  extensionConfigs?: string
  url?: string[]
  request?: string
  fromKubernetesVersion?: string
  toKubernetesVersion?: string
  namespaceLabels?: Record<string, string>
  resolve?: string[]
  sequential?: boolean
  output: OutputFormat
}

/** Request fields a flag can fill, for the hooks whose requests have them (the upgrade hooks). */
const FIELD_FLAGS = { fromKubernetesVersion: '--from-kubernetes-version', toKubernetesVersion: '--to-kubernetes-version' } as const

const collect = (value: string, previous: string[] = []) => [...previous, value]

/** Parses `host:port=host:port` rewrites into a resolve function (the TLS server name stays the original host). */
function resolver (rules: string[] | undefined): ((url: URL) => URL) | undefined {
  if (!rules?.length) return undefined
  const map = new Map(rules.map(rule => {
    const [from, to] = rule.split('=')
    if (!from || !to) throw new UsageError(`--resolve "${rule}": expected host[:port]=host:port`)
    return [from, to] as const
  }))
  return url => {
    const to = map.get(url.host) ?? map.get(`${url.hostname}:${url.port || '443'}`) ?? map.get(url.hostname)
    if (!to) return url
    const u = new URL(url)
    u.host = to
    return u
  }
}

function hookOf (client: HttpRuntimeClient, name: string): CatalogHook {
  const parts = name.split('/')
  return parts.length === 3
    ? client.catalog.get({ group: parts[0] as string, version: parts[1] as string, hook: parts[2] as string })
    : client.catalog.latest(HOOKS_GROUP, name)
}

/**
 * The request: --request as given, or the object under its kind's field (cluster, machine, ...) with the fields
 * flags fill; checked before anything is sent, naming the flag or --request for what is missing.
 */
async function buildRequest (hook: CatalogHook, object: Record<string, unknown>, opts: CallCliOptions, validate: (request: unknown) => string | undefined): Promise<Record<string, unknown>> {
  const name = hook.gvh.hook
  let request: Record<string, unknown>
  if (opts.request) {
    request = await readObject(opts.request)
  } else {
    const properties = schemaProperties(hook.definition.request)
    const field = String(object['kind'] ?? '').replace(/^./, c => c.toLowerCase())
    if (!properties.includes(field)) {
      throw new UsageError(`a ${name} request has no ${field || 'object'} field for --object ${opts.object}: pass the whole request with --request <file>`)
    }
    request = { [field]: object }
    for (const [key, flag] of Object.entries(FIELD_FLAGS)) {
      const value = opts[key as keyof typeof FIELD_FLAGS]
      if (value === undefined) continue
      if (!properties.includes(key)) throw new UsageError(`${flag} does not apply to ${name}: its request has no ${key}`)
      request[key] = value
    }
  }
  // Go's decoder reads a field left out as empty; a request Cluster API would send has the fields it always sends.
  const required = (hook.definition.request as { required?: string[] }).required ?? []
  const missing = Object.keys(FIELD_FLAGS).filter(key => required.includes(key) && request[key] === undefined)
  const problem = validate(request) ?? (missing.length > 0 ? `${missing.join(', ')}: required, Cluster API always sends ${missing.length > 1 ? 'them' : 'it'}` : undefined)
  if (problem) {
    const flags = missing.map(key => FIELD_FLAGS[key as keyof typeof FIELD_FLAGS])
    const fix = !opts.request && flags.length > 0 ? `pass ${flags.join(' and ')}` : 'pass the whole request with --request <file>'
    throw new UsageError(`the ${name} request is invalid: ${problem}; ${fix}`)
  }
  return request
}

/** A handler's response as shown: kind and apiVersion dropped, GeneratePatches' base64 patches decoded. */
function shownResponse (response: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!response) return undefined
  const { kind: _k, apiVersion: _a, ...rest } = response
  if (Array.isArray(rest['items'])) {
    rest['items'] = rest['items'].map((item: Record<string, unknown>) => {
      if (typeof item?.['patch'] !== 'string') return item
      try {
        return { ...item, patch: JSON.parse(Buffer.from(item['patch'], 'base64').toString('utf8')) as unknown }
      } catch {
        return item
      }
    })
  }
  return rest
}

function outcomeRow (o: HandlerOutcome): string[] {
  return [o.name, o.outcome, o.status ?? '', o.retryAfterSeconds !== undefined ? String(o.retryAfterSeconds) : '', `${Math.round(o.durationMs)}ms`, o.error ?? o.message ?? '']
}

function tableText (hook: CatalogHook, handlers: HandlerOutcome[], response: Record<string, unknown> | undefined): string {
  let out = table(['HANDLER', 'OUTCOME', 'STATUS', 'RETRY', 'DURATION', 'MESSAGE'], handlers.map(outcomeRow))
  for (const h of handlers) {
    const { status: _s, message: _m, retryAfterSeconds: _r, ...fields } = shownResponse(h.response) ?? {}
    if (Object.keys(fields).length > 0) out += `\n${h.name} response:\n${stringify(fields).replace(/^/gm, '  ').trimEnd()}\n`
  }
  if (response) {
    out += `\n${hook.gvh.hook}: status=${String(response['status'])}` +
      `${response['retryAfterSeconds'] !== undefined ? ` retryAfterSeconds=${String(response['retryAfterSeconds'])}` : ''}` +
      `${response['message'] ? ` message=${JSON.stringify(response['message'])}` : ''}\n`
  }
  return out
}

export function callCommand (io: CliIO = defaultIO): Command {
  const command = new Command('call')
    .description('call every handler of a hook whose ExtensionConfig matches the object, and print each outcome, each response and the aggregate')
    .argument('<hook>', `hook name (e.g. BeforeClusterCreate; latest version of ${HOOKS_GROUP}) or <group>/<version>/<Hook>`)
    .requiredOption('--object <file>', 'the object the hook is called for (YAML/JSON); its namespace is matched against namespaceSelectors')
    .option('--extension-configs <path>', 'directory (or file) with ExtensionConfig YAML/JSON documents, defaulted and validated as the API server does')
    .option('--url <url>', 'https URL of an extension (repeatable), registered as ExtensionConfig "extension-<n>"', collect)
    .option('--request <file>', 'the whole request (YAML/JSON); default: the object under its kind (cluster: ...) and the fields below')
    .option('--from-kubernetes-version <version>', 'fromKubernetesVersion of an upgrade hook\'s request')
    .option('--to-kubernetes-version <version>', 'toKubernetesVersion of an upgrade hook\'s request')
    .option('--namespace-labels <labels>', 'labels of the object\'s namespace, k=v,... (kubernetes.io/metadata.name is always set)', labelsOption)
    .option('--resolve <rule>', 'connect to another address: host[:port]=host:port (repeatable), e.g. ext.ns.svc:443=127.0.0.1:9443', collect)
    .option('--sequential', 'call handlers one by one like Cluster API (default: in parallel, same aggregate)')
    .addOption(outputOption(['table', 'json', 'yaml']))
  return clientTlsOptions(command, { certificateAuthority: '--ca-file', clientCertificate: '--cert-file', clientKey: '--key-file' })
    .action(action(io, async (hookName: string, opts: CallCliOptions) => {
      const clientCertificate = clientCertificateOf(opts)
      const resolve = resolver(opts.resolve)
      if (!opts.extensionConfigs && !opts.url?.length) throw new UsageError('no extensions to call: pass --extension-configs <path> or --url <url>')
      const object = await readObject(opts.object) as Record<string, unknown> & KubeObject
      const caBundle = opts.certificateAuthority ? (await readFile(opts.certificateAuthority)).toString('base64') : undefined
      const configs: ExtensionConfig[] = [
        ...(opts.extensionConfigs ? await readExtensionConfigs(opts.extensionConfigs) : []),
        ...(opts.url ?? []).map((url, i) => extensionConfigForUrl(url, `extension-${i + 1}`))
      ]
      if (configs.length === 0) throw new UsageError(`${opts.extensionConfigs ?? ''} holds no ExtensionConfig`)
      // As in discover and conformance: the flag, when given, is the CA to trust.
      if (caBundle) for (const ec of configs) ec.spec.clientConfig.caBundle = caBundle
      const client = new HttpRuntimeClient({
        namespaceLabels: ns => ({ 'kubernetes.io/metadata.name': ns, ...opts.namespaceLabels }),
        ...(resolve ? { resolve } : {}),
        ...(clientCertificate ? { clientCertificate } : {}),
        backoff: false
      })
      try {
        const hook = hookOf(client, hookName)
        const request = await buildRequest(hook, object, opts, r => {
          const valid = client.catalog.validateRequest(hook.gvh, r)
          return valid.valid ? undefined : valid.message
        })
        const discovered: ExtensionConfig[] = []
        for (const ec of configs) {
          try {
            discovered.push(await client.discover(ec))
          } catch (err) {
            io.stderr(`error: ${(err as Error).message}\n`)
          }
        }
        client.warmUp(discovered)
        if (discovered.length === 0) throw new OperationFailed('no extension could be discovered')
        if ((await client.getAllExtensions(hook.definition, object)).length === 0) {
          const where = `${object.metadata?.namespace ? `namespace ${object.metadata.namespace}` : 'objects without a namespace'}`
          io.stderr(`error: no ${hook.gvh.hook} handler to call: none of the ${discovered.length} discovered ExtensionConfigs (of ${configs.length}) has one whose namespaceSelector matches ${where}\n`)
          throw new OperationFailed('no handler')
        }
        let result: CallResult<unknown> | undefined
        let error: RuntimeCallError | undefined
        try {
          result = await client.callAllExtensions(hook.definition, object, request, { sequential: opts.sequential ?? false })
        } catch (err) {
          if (!(err instanceof RuntimeCallError)) throw err
          error = err
        }
        const handlers = result?.handlers ?? error?.handlers ?? []
        const response = result?.response as Record<string, unknown> | undefined
        const document = {
          hook: hook.gvh,
          handlers: handlers.map(h => ({ ...h, ...(h.response ? { response: shownResponse(h.response) } : {}) })),
          ...(response ? { response } : {}),
          ...(error ? { error: error.message } : {})
        }
        io.stdout(render(opts.output, document, () => tableText(hook, handlers, response)))
        if (error) io.stderr(`error: ${error.message}\n`)
        if (error || discovered.length < configs.length) throw new OperationFailed('the call failed')
      } finally {
        await client.close()
      }
    }))
}
