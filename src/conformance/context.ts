// What a case gets to work with (the extension, its discovered handlers, recorded calls) and what it returns.
import type { Catalog, CatalogHook } from '../catalog/catalog.js'
import type { Handler } from '../catalog/handlers.js'
import type { Exchange, HttpTarget, PostOptions } from './http.js'
import type { TlsEndpoint, TlsProbe } from './tls-probe.js'
import type { CaseLevel, CaseStatus } from './types.js'

/** Everything about the extension under test, shared by all cases of a run. */
export interface ExtensionCaseContext {
  /** catalog holds the hooks the extension's handlers implement. */
  catalog: Catalog
  /** target is the extension under test. */
  target: HttpTarget
  /** tlsEndpoint is where the TLS cases make their handshakes. */
  tlsEndpoint: TlsEndpoint
  /** graceMs is how much longer than a timeout the tool waits, so that late answers are seen (and timed). */
  graceMs: number
  /** shortTimeoutSeconds is the ?timeout= the timeout-query case sends. */
  shortTimeoutSeconds: number
  /** exchanges holds every call of the run, in order. */
  exchanges: Exchange[]
  /** handlers are set by the discovery case: the handlers to test, defaulted. */
  handlers?: Handler[]
  /** discoveryProblem says why Discovery gave no handlers to test. */
  discoveryProblem?: string
  /** post sends a request and records it. */
  post: (options: PostOptions) => Promise<Exchange>
  /** tls is the handshake of a TLS 1.2+ client (made once per run). */
  tls: () => Promise<TlsProbe>
}

/** A handler under test: its hook, path, request and the calls made to it. */
export interface HandlerCaseContext extends ExtensionCaseContext {
  /** handler is the handler as discovered, defaulted. */
  handler: Handler
  /** hook is the catalog's entry of the handler's hook version. */
  hook: CatalogHook
  /** path is the handler's hook path. */
  path: string
  /** request is the sample (or --request-dir) request, as sent. */
  request: Record<string, unknown>
  /** timeoutSeconds is the declared timeout as Cluster API applies it (0 means 10). */
  timeoutSeconds: number
  /** handlerExchanges holds every call made to this handler. */
  handlerExchanges: Exchange[]
  /** call POSTs a body to the handler with ?timeout=<timeoutSeconds>s (unless given) and records it. */
  call: (label: string, body: string, options?: {
    /** contentType is sent as the Content-Type header; none when undefined. */
    contentType?: string
    /** timeoutSeconds is sent as ?timeout=; default: the handler's timeout. */
    timeoutSeconds?: number
  }) => Promise<Exchange>
  /** sample is the answer to the request sent with Content-Type application/json (made once, shared by cases). */
  sample: () => Promise<Exchange>
}

/** What a case's check concluded. */
export interface CaseVerdict {
  /** status is the verdict. */
  status: CaseStatus
  /** message says why. */
  message: string
  /** exchanges are the calls the verdict rests on, shown as evidence. */
  exchanges?: Exchange[]
  /** facts are other observations, shown as evidence. */
  facts?: Record<string, string>
}

/** The rule a case checks. */
export interface CaseRule {
  /** id names the rule in reports; stable, kebab-case. */
  id: string
  /** title states the rule. */
  title: string
  /** level says whether a failure fails the run (required) or is only reported (advisory). */
  level: CaseLevel
}

/** A case: a named rule and the function that checks it. `extension` cases run before the handlers, `final` after. */
export type ConformanceCase =
  | CaseRule & {
    /** scope extension: once, before the handlers' cases; final: once, after them. */
    scope: 'extension' | 'final'
    /** run checks the rule against the extension. */
    run: (ctx: ExtensionCaseContext) => Promise<CaseVerdict>
  }
  | CaseRule & {
    /** scope handler: once per discovered handler. */
    scope: 'handler'
    /** run checks the rule against one handler. */
    run: (ctx: HandlerCaseContext) => Promise<CaseVerdict>
  }

type Extra = Pick<CaseVerdict, 'exchanges' | 'facts'>
export const pass = (message: string, extra: Extra = {}): CaseVerdict => ({ status: 'pass', message, ...extra })
export const fail = (message: string, extra: Extra = {}): CaseVerdict => ({ status: 'fail', message, ...extra })
export const skip = (message: string, extra: Extra = {}): CaseVerdict => ({ status: 'skip', message, ...extra })

/**
 * Why an exchange is not a usable hook answer (HTTP 200 with a JSON object), in Cluster API's terms, or
 * undefined when it is one.
 */
export function answerProblem (ex: Exchange): string | undefined {
  if (ex.status === undefined) return `no HTTP answer: ${ex.error ?? 'unknown error'}`
  if (ex.status >= 300 && ex.status < 400) {
    return `HTTP ${ex.status} redirect${ex.headers?.['location'] ? ` to ${ex.headers['location']}` : ''}: Cluster API does not follow redirects and reports an error`
  }
  if (ex.status !== 200) return `HTTP ${ex.status} instead of 200: Cluster API reports an error (hook failures must be HTTP 200 with status Failure)`
  if (ex.jsonError !== undefined) return `the body is not JSON: ${ex.jsonError}`
  if (ex.json === null || typeof ex.json !== 'object' || Array.isArray(ex.json)) return 'the body is not a JSON object'
  return undefined
}

/** The answer as an object, when the exchange is a usable answer. */
export function answerOf (ex: Exchange): Record<string, unknown> | undefined {
  return answerProblem(ex) === undefined ? ex.json as Record<string, unknown> : undefined
}

/** "status Success", "status Failure: \"boom\"" */
export function describeStatus (answer: Record<string, unknown>): string {
  const message = typeof answer['message'] === 'string' && answer['message'] !== '' ? `: ${JSON.stringify(clip(answer['message'], 120))}` : ''
  return `status ${JSON.stringify(answer['status'] ?? '')}${message}`
}

export function clip (text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`
}
