// The wire of a hook call as Cluster API's client speaks it: the URL with ?timeout=, the POST without Content-Type,
// the body read up to MAX_BODY_BYTES, the response decoded like Go's encoding/json, and a failed call described in
// one line. The conformance tool calls extensions through the same functions.
import type { Dispatcher } from 'undici'
import type { ClientConfig } from '../api/extension-config/types.js'
import { schemaProperties } from '../api/schema/builders.js'
import type { Catalog, CatalogHook } from '../catalog/catalog.js'
import { MAX_BODY_BYTES } from '../catalog/handlers.js'
import { CallingError } from './errors.js'
import { urlForExtension } from './transport.js'
import { request } from '../shims/undici.js'

export interface HttpResult {
  statusCode: number
  headers: Record<string, string | string[] | undefined>
  /** body holds at most MAX_BODY_BYTES + 1 bytes: a longer body is cut there, so that callers can tell it was too long. */
  body: Buffer
}

interface PostHookOptions {
  dispatcher: Dispatcher
  body: string
  signal: AbortSignal
  /** maxBytes is the longest body read (default MAX_BODY_BYTES); one byte more is kept so callers can tell. */
  maxBytes?: number
  /** backstopMs bounds waiting for headers and between body chunks, should the signal never fire. */
  backstopMs: number
  /** headers default to none: Cluster API sends no Content-Type. */
  headers?: Record<string, string>
}

/** The URL of a hook handler with ?timeout=<n>s, query sorted, as Cluster API's client sends it. */
export function hookUrl (config: ClientConfig, hookPath: string, timeoutSeconds: number): URL {
  const url = urlForExtension(config, hookPath)
  url.searchParams.set('timeout', `${timeoutSeconds}s`)
  url.searchParams.sort()
  return url
}

/** POSTs a hook request, reading at most maxBytes + 1 bytes of the answer. */
export async function postHook (url: URL, options: PostHookOptions): Promise<HttpResult> {
  const { dispatcher, body, signal, backstopMs, headers = {}, maxBytes = MAX_BODY_BYTES } = options
  const res = await untilAborted(request(dispatcher, url, { method: 'POST', body, headers, signal, headersTimeout: backstopMs, bodyTimeout: backstopMs }), signal)
  const chunks: Buffer[] = []
  let total = 0
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    total += chunk.length
    chunks.push(chunk)
    if (total > maxBytes) {
      res.body.destroy()
      break
    }
  }
  return { statusCode: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }
}

/**
 * The request's response, or the signal's reason as soon as it aborts. undici does not abort a request whose
 * connection is still being made (DNS, TCP connect, TLS handshake): it waits for its own 10 s connect timeout.
 * Cluster API's deadline covers the whole call, so does ours; the abandoned attempt ends in the background.
 */
function untilAborted<T extends { body: { destroy: () => unknown } }> (pending: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    pending.then(res => res.body.destroy(), () => {})
    return Promise.reject(signal.reason)
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      pending.then(res => res.body.destroy(), () => {})
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    pending.then(res => {
      signal.removeEventListener('abort', onAbort)
      resolve(res)
    }, (err: unknown) => {
      signal.removeEventListener('abort', onAbort)
      reject(err)
    })
  })
}

/**
 * Decodes a response like Go's encoding/json into the hook's type: unknown fields are ignored, top-level keys match
 * case-insensitively, absent status is "" and absent retryAfterSeconds 0; the result is checked against the schema
 * (except status, which is checked by the caller with Cluster API's messages).
 */
export function decodeResponse (catalog: Catalog, hook: CatalogHook, body: Buffer): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch (err) {
    throw new CallingError(`failed to decode response: ${(err as Error).message}`)
  }
  if (parsed === null) parsed = {}
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CallingError(`failed to decode response: json: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type ${hook.responseKind}`)
  }
  const properties = schemaProperties(hook.definition.response)
  const response: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    const target = properties.includes(key) ? key : properties.find(p => p.toLowerCase() === key.toLowerCase()) ?? key
    if (target === key || !(target in (parsed as Record<string, unknown>))) response[target] = value
  }
  delete response['kind']
  delete response['apiVersion']
  if (response['status'] === undefined || response['status'] === null) response['status'] = ''
  if (typeof response['status'] !== 'string') throw new CallingError(`failed to decode response: status: must be a string, got ${typeof response['status']}`)
  if (hook.blocking && (response['retryAfterSeconds'] === undefined || response['retryAfterSeconds'] === null)) response['retryAfterSeconds'] = 0
  const check: Record<string, unknown> = { ...response, status: 'Success' }
  if (hook.gvh.hook === 'Discovery') {
    // Discovery's handler constraints are reported with Cluster API's discovery validation messages instead.
    const handlerError = discoveryHandlerShapeError(check['handlers'])
    if (handlerError) throw new CallingError(`failed to decode response: ${handlerError}`)
    delete check['handlers']
  }
  const result = catalog.validateResponse(hook.gvh, check, 'decode')
  if (!result.valid) throw new CallingError(`failed to decode response: ${result.message}`)
  return response
}

function discoveryHandlerShapeError (handlers: unknown): string | undefined {
  if (handlers === undefined || handlers === null) return undefined
  if (!Array.isArray(handlers)) return 'handlers: must be an array'
  for (const [i, h] of handlers.entries()) {
    const at = `handlers[${i}]`
    if (typeof h !== 'object' || h === null || Array.isArray(h)) return `${at}: must be an object`
    const { name, requestHook, timeoutSeconds, failurePolicy } = h as Record<string, unknown>
    if (typeof name !== 'string') return `${at}.name: must be a string`
    if (typeof requestHook !== 'object' || requestHook === null) return `${at}.requestHook: must be an object`
    const rh = requestHook as Record<string, unknown>
    if (typeof rh['apiVersion'] !== 'string' || typeof rh['hook'] !== 'string') return `${at}.requestHook: apiVersion and hook must be strings`
    if (timeoutSeconds !== undefined && timeoutSeconds !== null && (!Number.isInteger(timeoutSeconds) || Math.abs(timeoutSeconds as number) > 2 ** 31)) return `${at}.timeoutSeconds: must be an int32`
    if (failurePolicy !== undefined && failurePolicy !== null && typeof failurePolicy !== 'string') return `${at}.failurePolicy: must be a string`
  }
  return undefined
}

/** A failed HTTP call in a line: message, cause and code (e.g. "other side closed (UND_ERR_SOCKET)"). */
export function describeError (err: unknown): string {
  const e = err as Error & { code?: string, cause?: Error & { code?: string } }
  const parts = [e.message]
  if (e.cause?.message && !e.message.includes(e.cause.message)) parts.push(e.cause.message)
  let text = parts.map(p => p.replace(/[\s:]+$/, '')).join(': ')
  const code = e.code ?? e.cause?.code
  if (code && !text.includes(code)) text += ` (${code})`
  return text
}

/** JSON with object keys sorted: the same value always gives the same text (cache keys, comparing answers). */
export function stableJson (value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map(k => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
