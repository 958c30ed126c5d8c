// runtime-sdk call: discovers extensions and calls every matching handler of a hook, like Cluster API would.
import { readFile } from 'node:fs/promises'
import { Command, Option } from 'commander'
import type { ExtensionConfig } from '../api/extension-config.js'
import { HOOKS_GROUP } from '../catalog/default.js'
import { HttpRuntimeClient } from '../client/client.js'
import { RuntimeCallError } from '../client/errors.js'
import type { CallResult, HandlerOutcome } from '../client/runtime-client.js'
import { extensionConfigForUrl, readExtensionConfigs } from '../client/extension-configs.js'
import { readObject } from '../kube/manifests.js'
import { labelsOption } from './options.js'
import { type CliIO, defaultIO } from './discover.js'
import { table } from './table.js'

interface CallCliOptions {
  object: string
  extensionConfigs?: string
  url?: string[]
  request?: string
  caFile?: string
  certFile?: string
  keyFile?: string
  namespaceLabels?: Record<string, string>
  resolve?: string[]
  sequential?: boolean
  output: 'table' | 'json'
}

const collect = (value: string, previous: string[] = []) => [...previous, value]

/** Parses `host:port=host:port` rewrites into a resolve function (the TLS server name stays the original host). */
function resolver (rules: string[] | undefined): ((url: URL) => URL) | undefined {
  if (!rules?.length) return undefined
  const map = new Map(rules.map(rule => {
    const [from, to] = rule.split('=')
    if (!from || !to) throw new Error(`invalid --resolve "${rule}": expected host[:port]=host:port`)
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

function outcomeRow (o: HandlerOutcome): string[] {
  return [o.name, o.outcome, o.status ?? '', o.retryAfterSeconds !== undefined ? String(o.retryAfterSeconds) : '', `${Math.round(o.durationMs)}ms`, o.error ?? o.message ?? '']
}

export function callCommand (io: CliIO = defaultIO): Command {
  return new Command('call')
    .description('call every handler of a hook whose ExtensionConfig matches the object, and print each outcome and the aggregate')
    .argument('<hook>', `hook name (e.g. BeforeClusterCreate; latest version of ${HOOKS_GROUP}) or <group>/<version>/<Hook>`)
    .requiredOption('--object <file>', 'the object the hook is called for (YAML/JSON); its namespace is matched against namespaceSelectors')
    .option('--extension-configs <path>', 'directory (or file) with ExtensionConfig YAML/JSON documents')
    .option('--url <url>', 'https URL of an extension (repeatable), registered as ExtensionConfig "extension-<n>"', collect)
    .option('--request <file>', 'request body (YAML/JSON); default: {<kind of object>: <object>}')
    .option('--ca-file <file>', 'PEM CA bundle for ExtensionConfigs without caBundle')
    .option('--cert-file <file>', 'PEM client certificate for mTLS')
    .option('--key-file <file>', 'PEM client key for mTLS')
    .option('--namespace-labels <labels>', 'labels of the object\'s namespace, k=v,... (kubernetes.io/metadata.name is always set)', labelsOption)
    .option('--resolve <rule>', 'connect to another address: host[:port]=host:port (repeatable), e.g. ext.ns.svc:443=127.0.0.1:9443', collect)
    .option('--sequential', 'call handlers one by one like Cluster API (default: in parallel, same aggregate)')
    .addOption(new Option('--output <format>', 'output format').choices(['table', 'json']).default('table'))
    .action(async (hookName: string, opts: CallCliOptions) => {
      let client: HttpRuntimeClient | undefined
      try {
        const object = await readObject(opts.object)
        const request = opts.request
          ? await readObject(opts.request)
          : { [String(object['kind'] ?? 'object').replace(/^./, c => c.toLowerCase())]: object }
        const caBundle = opts.caFile ? (await readFile(opts.caFile)).toString('base64') : undefined
        const configs: ExtensionConfig[] = [
          ...(opts.extensionConfigs ? await readExtensionConfigs(opts.extensionConfigs) : []),
          ...(opts.url ?? []).map((url, i) => extensionConfigForUrl(url, `extension-${i + 1}`))
        ]
        if (configs.length === 0) throw new Error('no ExtensionConfigs: use --extension-configs <dir> or --url <url>')
        for (const ec of configs) if (caBundle && !ec.spec.clientConfig.caBundle) ec.spec.clientConfig.caBundle = caBundle
        const extraLabels = opts.namespaceLabels ?? {}
        const resolve = resolver(opts.resolve)
        client = new HttpRuntimeClient({
          namespaceLabels: ns => ({ 'kubernetes.io/metadata.name': ns, ...extraLabels }),
          ...(resolve ? { resolve } : {}),
          ...(opts.certFile || opts.keyFile ? { clientCertificate: { certFile: opts.certFile ?? '', keyFile: opts.keyFile ?? '' } } : {}),
          backoff: false
        })
        const parts = hookName.split('/')
        const hook = parts.length === 3
          ? client.catalog.get({ group: parts[0] as string, version: parts[1] as string, hook: parts[2] as string })
          : client.catalog.latest(HOOKS_GROUP, hookName)
        const discovered: ExtensionConfig[] = []
        let failed = false
        for (const ec of configs) {
          try {
            discovered.push(await client.discover(ec))
          } catch (err) {
            failed = true
            io.stderr(`error: ${(err as Error).message}\n`)
          }
        }
        client.warmUp(discovered)
        let result: CallResult<unknown> | undefined
        let error: RuntimeCallError | undefined
        try {
          result = await client.callAllExtensions(hook.definition, object, request, { sequential: opts.sequential ?? false })
        } catch (err) {
          if (!(err instanceof RuntimeCallError)) throw err
          error = err
        }
        const handlers = result?.handlers ?? error?.handlers ?? []
        if (opts.output === 'json') {
          io.stdout(`${JSON.stringify({ hook: hook.gvh, handlers: handlers.map(({ response: _r, ...h }) => h), ...(result ? { response: result.response } : {}), ...(error ? { error: error.message } : {}) }, null, 2)}\n`)
        } else {
          io.stdout(table(['HANDLER', 'OUTCOME', 'STATUS', 'RETRY', 'DURATION', 'MESSAGE'], handlers.map(outcomeRow)))
          if (result) {
            const r = result.response as Record<string, unknown>
            io.stdout(`\n${hook.gvh.hook}: status=${String(r['status'])}` +
              `${r['retryAfterSeconds'] !== undefined ? ` retryAfterSeconds=${String(r['retryAfterSeconds'])}` : ''}` +
              `${r['message'] ? ` message=${JSON.stringify(r['message'])}` : ''}\n`)
          }
        }
        if (error) io.stderr(`error: ${error.message}\n`)
        if (error || failed) process.exitCode = 1
      } catch (err) {
        io.stderr(`error: ${(err as Error).message}\n`)
        process.exitCode = 1
      } finally {
        await client?.close()
      }
    })
}
