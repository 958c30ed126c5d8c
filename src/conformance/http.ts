// HTTP calls of a conformance run: POSTs over the runtime client's TLS settings (AgentPool: TLS 1.2+, server name
// pinned to the URL host, the CA bundle), never following redirects, each recorded as evidence.
import type { ClientConfig } from '../api/extension-config/types.js'
import type { AgentPool } from '../client/transport.js'
import { describeError, hookUrl, postHook } from '../client/wire.js'
import type { HttpEvidence } from './types.js'

/** Bodies in evidence are cut to these many characters. */
const EVIDENCE_REQUEST_CHARS = 600
const EVIDENCE_RESPONSE_CHARS = 2000

/** One POST of a conformance run. */
export interface PostOptions {
  /** label says what the call tests, e.g. "sample request without Content-Type". */
  label: string
  /** path is the hook path, joined to the extension's URL path like Cluster API does. */
  path: string
  /** body is sent as is. */
  body: string
  /** timeoutSeconds is sent as ?timeout=<n>s, as Cluster API does. */
  timeoutSeconds: number
  /** contentType is sent as the Content-Type header; none when undefined (like Cluster API's Go client). */
  contentType?: string
  /** waitMs is how long the tool waits for the whole answer before giving up. */
  waitMs: number
}

/** A finished call: what the cases inspect, and its evidence. */
export interface Exchange {
  /** evidence is the call as reports show it, bodies truncated. */
  evidence: HttpEvidence
  /** durationMs is how long the answer took (or the tool waited), in milliseconds. */
  durationMs: number
  /** status is the HTTP status code, when an answer arrived. */
  status?: number
  /** headers of the answer that matter to the cases: content-type and location. */
  headers?: Record<string, string>
  /** text is the whole body of the answer. */
  text?: string
  /** json is the parsed body when it is JSON. */
  json?: unknown
  /** jsonError says why the body is not JSON. */
  jsonError?: string
  /** error says why no HTTP answer arrived. */
  error?: string
  /** timedOut: the tool gave up waiting after waitMs. */
  timedOut: boolean
}

/** The extension a conformance run calls, and how. */
export interface HttpTarget {
  /** clientConfig is the ExtensionConfig's: its URL or Service. */
  clientConfig: ClientConfig
  /** ca is the PEM CA bundle; undefined means the system roots. */
  ca: string | undefined
  /** agents hold the connections, with the runtime client's TLS settings. */
  agents: AgentPool
}

function truncate (text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${Buffer.byteLength(text)} bytes in all)`
}

export async function post (target: HttpTarget, options: PostOptions): Promise<Exchange> {
  const url = hookUrl(target.clientConfig, options.path, options.timeoutSeconds)
  const headers: Record<string, string> = options.contentType === undefined ? {} : { 'content-type': options.contentType }
  const evidence: HttpEvidence = {
    label: options.label,
    request: { method: 'POST', url: url.toString(), headers, body: truncate(options.body, EVIDENCE_REQUEST_CHARS) },
    durationMs: 0
  }
  const dispatcher = target.agents.get(url.host, url.hostname.replace(/^\[|\]$/g, ''), target.ca)
  const signal = AbortSignal.timeout(options.waitMs)
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  try {
    const res = await postHook(url, { dispatcher, body: options.body, headers, signal, backstopMs: options.waitMs + 1000 })
    const text = res.body.toString('utf8')
    const durationMs = elapsed()
    const kept = pickHeaders(res.headers)
    evidence.response = { status: res.statusCode, headers: kept, body: truncate(text, EVIDENCE_RESPONSE_CHARS) }
    evidence.durationMs = durationMs
    const exchange: Exchange = { evidence, durationMs, status: res.statusCode, headers: kept, text, timedOut: false }
    try {
      exchange.json = JSON.parse(text)
    } catch (err) {
      exchange.jsonError = (err as Error).message
    }
    return exchange
  } catch (err) {
    const durationMs = elapsed()
    const timedOut = signal.aborted
    const error = timedOut ? `no answer within ${options.waitMs / 1000}s (the tool stopped waiting)` : describeError(err)
    evidence.error = error
    evidence.durationMs = durationMs
    return { evidence, durationMs, error, timedOut }
  }
}

/** The response headers worth showing: what the body is and where a redirect points. */
function pickHeaders (headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {}
  for (const name of ['content-type', 'location']) {
    const value = headers[name]
    if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return kept
}
