// Runs the conformance cases against one extension: TLS and Discovery first, then every case for every
// discovered handler, then the run-wide cases. Calls are sequential, so timings are the extension's own.
import { readFileSync } from 'node:fs'
import type { ExtensionConfig } from '../api/extension-config/types.js'
import type { Catalog } from '../catalog/catalog.js'
import { createCatalog } from '../catalog/default.js'
import { DEFAULT_HANDLER_TIMEOUT_SECONDS } from '../api/hooks/v1alpha1/constants.js'
import type { Handler } from '../catalog/handlers.js'
import { parseApiVersion } from '../catalog/identity.js'
import { AgentPool, type ClientCertificate, loadCABundle, urlForExtension } from '../client/transport.js'
import { CASES } from './cases/index.js'
import { type ConformanceCase, fail, type HandlerCaseContext, type CaseVerdict, type ExtensionCaseContext, skip } from './context.js'
import { type Exchange, post } from './http.js'
import { type RequestOverrides, requestFor } from './requests.js'
import { MODERN_CLIENT, probeTls, type TlsProbe } from './tls-probe.js'
import type { CaseResult, ConformanceReport } from './types.js'
import { ConformanceSetupError } from './errors.js'

/** The options of {@link runConformance}: the extension to test and how. */
export interface ConformanceOptions {
  /** extension is the ExtensionConfig to test (a URL makes one with extensionConfigForUrl); clientConfig and settings are used. */
  extension: ExtensionConfig
  /** clientCertificate is presented to the extension (mTLS). */
  clientCertificate?: ClientCertificate
  /** hooks limits the handler cases to handlers of these hooks (UpperCamelCase names); all when undefined. */
  hooks?: readonly string[]
  /** requests replace the catalog's sample requests, by hook name. */
  requests?: RequestOverrides
  /** catalog defaults to createCatalog(). */
  catalog?: Catalog
  /** graceMs: how much longer than a timeout the tool waits for a late answer (default 2000). */
  graceMs?: number
  /** shortTimeoutSeconds: the ?timeout= of the timeout-query case (default 1). */
  shortTimeoutSeconds?: number
  /** onResult is called as each case finishes (progress output). */
  onResult?: (result: CaseResult) => void
}

/**
 * Tests a Runtime Extension against the Runtime SDK contract, as `runtime-sdk conformance` does: TLS and Discovery
 * first, then every case for every discovered handler (with the catalog's sample requests or yours), then the
 * run-wide cases. Calls are made one at a time, so timings are the extension's own. The report passes when no
 * required case failed; an unusable URL, CA bundle or client certificate throws ConformanceSetupError.
 *
 * @example
 * ```ts
 * import { extensionConfigForUrl } from 'runtime-sdk/client'
 * import { renderReport, runConformance } from 'runtime-sdk/conformance'
 *
 * const report = await runConformance({ extension: extensionConfigForUrl('https://127.0.0.1:9443', 'my-extension') })
 * console.log(renderReport(report, 'markdown'))
 * process.exitCode = report.passed ? 0 : 1
 * ```
 */
export async function runConformance (options: ConformanceOptions): Promise<ConformanceReport> {
  const started = Date.now()
  const catalog = options.catalog ?? createCatalog()
  const clientConfig = options.extension.spec.clientConfig
  let baseUrl: URL
  let ca: string | undefined
  let agents: AgentPool
  let clientPem: { cert: string, key: string } | undefined
  try {
    baseUrl = urlForExtension(clientConfig, '/')
    ca = loadCABundle(clientConfig.caBundle)
    agents = new AgentPool({ clientCertificate: options.clientCertificate })
    clientPem = readClientCertificate(options.clientCertificate)
  } catch (err) {
    throw new ConformanceSetupError((err as Error).message)
  }
  const graceMs = options.graceMs ?? 2000
  const exchanges: Exchange[] = []
  let tls: Promise<TlsProbe> | undefined
  const tlsEndpoint = { host: baseUrl.hostname.replace(/^\[|\]$/g, ''), port: Number(baseUrl.port || 443), ca, clientCertificate: clientPem, timeoutMs: 10_000 }
  const ctx: ExtensionCaseContext = {
    catalog,
    target: { clientConfig, ca, agents },
    tlsEndpoint,
    graceMs,
    shortTimeoutSeconds: options.shortTimeoutSeconds ?? 1,
    exchanges,
    post: async (postOptions) => {
      const ex = await post(ctx.target, postOptions)
      exchanges.push(ex)
      return ex
    },
    tls: () => (tls ??= probeTls(tlsEndpoint, MODERN_CLIENT))
  }

  const results: CaseResult[] = []
  const record = async (c: ConformanceCase, run: () => Promise<CaseVerdict>, handler?: Handler) => {
    const t0 = performance.now()
    const verdict = await run().catch((err: Error) => fail(`the check itself failed: ${err.message}`))
    const result: CaseResult = {
      id: c.id,
      title: c.title,
      level: c.level,
      ...(handler ? { handler: handler.name, hook: handler.requestHook.hook } : {}),
      status: verdict.status,
      message: verdict.message,
      durationMs: Math.round(performance.now() - t0),
      evidence: {
        ...(verdict.exchanges?.length ? { exchanges: verdict.exchanges.map(ex => ex.evidence) } : {}),
        ...(verdict.facts ? { facts: verdict.facts } : {})
      }
    }
    results.push(result)
    options.onResult?.(result)
  }

  try {
    for (const c of CASES) if (c.scope === 'extension') await record(c, () => c.run(ctx))
    const handlerCases = CASES.filter((c): c is Extract<ConformanceCase, { scope: 'handler' }> => c.scope === 'handler')
    const selected = (ctx.handlers ?? []).filter(h => !options.hooks || options.hooks.includes(h.requestHook.hook))
    if (selected.length === 0) {
      const why = ctx.discoveryProblem ?? (options.hooks ? `no discovered handler implements ${options.hooks.join(', ')}` : 'no handlers to test')
      for (const c of handlerCases) await record(c, async () => skip(why))
    }
    for (const handler of selected) {
      const hctx = handlerContext(ctx, handler, options)
      for (const c of handlerCases) await record(c, () => typeof hctx === 'string' ? Promise.resolve(skip(hctx)) : c.run(hctx), handler)
    }
    for (const c of CASES) if (c.scope === 'final') await record(c, () => c.run(ctx))
  } finally {
    await agents.close()
  }
  return buildReport(baseUrl.toString(), started, results)
}

/** The context of one handler's cases, or why they cannot run. */
function handlerContext (ctx: ExtensionCaseContext, handler: Handler, options: ConformanceOptions): HandlerCaseContext | string {
  const gv = parseApiVersion(handler.requestHook.apiVersion)
  const hook = ctx.catalog.get({ ...gv, hook: handler.requestHook.hook })
  const request = requestFor(hook, options.requests ?? {}, options.extension.spec.settings)
  if (!request) return `no sample request for ${hook.apiVersion} ${hook.gvh.hook}: put one in --request-dir as ${hook.gvh.hook}.json`
  const timeoutSeconds = handler.timeoutSeconds || DEFAULT_HANDLER_TIMEOUT_SECONDS
  const path = ctx.catalog.path(hook.gvh, handler.name)
  const handlerExchanges: Exchange[] = []
  let sample: Promise<Exchange> | undefined
  const call: HandlerCaseContext['call'] = async (label, body, callOptions = {}) => {
    const seconds = callOptions.timeoutSeconds ?? timeoutSeconds
    const ex = await ctx.post({ label, path, body, timeoutSeconds: seconds, waitMs: seconds * 1000 + ctx.graceMs, ...(callOptions.contentType ? { contentType: callOptions.contentType } : {}) })
    handlerExchanges.push(ex)
    return ex
  }
  return {
    ...ctx,
    handler,
    hook,
    path,
    request,
    timeoutSeconds,
    handlerExchanges,
    call,
    sample: () => (sample ??= call('sample request', JSON.stringify(request), { contentType: 'application/json' }))
  }
}

function readClientCertificate (certificate: ClientCertificate | undefined): { cert: string, key: string } | undefined {
  if (!certificate) return undefined
  if ('cert' in certificate) return certificate
  return { cert: readFileSync(certificate.certFile, 'utf8'), key: readFileSync(certificate.keyFile, 'utf8') }
}

function buildReport (target: string, started: number, cases: CaseResult[]): ConformanceReport {
  const count = (predicate: (c: CaseResult) => boolean) => cases.filter(predicate).length
  const requiredFailed = count(c => c.status === 'fail' && c.level === 'required')
  return {
    target,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    passed: requiredFailed === 0,
    summary: {
      total: cases.length,
      passed: count(c => c.status === 'pass'),
      failed: count(c => c.status === 'fail'),
      skipped: count(c => c.status === 'skip'),
      requiredFailed,
      advisoryFailed: count(c => c.status === 'fail' && c.level === 'advisory')
    },
    cases
  }
}
