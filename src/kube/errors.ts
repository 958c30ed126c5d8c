// The errors of the Kubernetes plumbing: the API server's (the HTTP status plus the reason and message of the Status
// object it answers with, or a reason derived from the status code) and unreadable manifests (ManifestError).

import { codedError } from '../errors/index.js'

/** The metav1.Status object the apiserver returns for failed requests and in watch ERROR events. */
export interface KubeStatus {
  /** apiVersion is v1. */
  apiVersion?: string
  /** kind is Status. */
  kind?: string
  /** status is Failure for failed requests. */
  status?: string
  /** message is a human readable description of the failure. */
  message?: string
  /** reason is a machine readable cause, e.g. NotFound, AlreadyExists, Conflict, Invalid. */
  reason?: string
  /** code is the HTTP status code of the failure. */
  code?: number
  /** details name the object the failure is about and its causes (field errors), when the server gives them. */
  details?: Record<string, unknown>
  /** metadata is the list metadata of the Status. */
  metadata?: Record<string, unknown>
}

// Reasons client-go assigns when a response carries no Status (k8s.io/apimachinery errors.NewGenericServerResponse).
const reasonByCode: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout'
}

/** A request the API server refused (a non-2xx answer) or a watch ERROR event: the HTTP status and the Status' reason. */
export class KubeApiError extends Error {
  /** name is KubeApiError. */
  override name = 'KubeApiError'
  /** code is the HTTP status (or Status.code of a watch ERROR event). */
  readonly code: number
  /** reason is Status.reason, e.g. NotFound, AlreadyExists, Conflict, Gone, Expired, Invalid. */
  readonly reason: string
  /** status is the Status object when the apiserver sent one. */
  readonly status?: KubeStatus

  constructor (code: number, reason: string, message: string, status?: KubeStatus) {
    super(message)
    this.code = code
    this.reason = reason
    if (status) this.status = status
  }

  /** An error from a Status object (a failed response body or a watch ERROR event). */
  static fromStatus (status: KubeStatus, httpCode?: number): KubeApiError {
    const code = status.code ?? httpCode ?? 500
    const reason = status.reason || reasonByCode[code] || 'Unknown'
    return new KubeApiError(code, reason, status.message || `${reason} (${code})`, status)
  }

  /** An error from a failed HTTP response: its Status when the body is one, else the code and text. */
  static fromResponse (code: number, body: string, what: string): KubeApiError {
    try {
      const parsed = JSON.parse(body) as KubeStatus
      if (parsed && parsed.kind === 'Status') return KubeApiError.fromStatus(parsed, code)
    } catch {}
    const reason = reasonByCode[code] ?? (code >= 500 ? 'InternalError' : 'Unknown')
    const text = body.trim().slice(0, 512)
    return new KubeApiError(code, reason, `${what}: ${code} ${reason}${text ? `: ${text}` : ''}`)
  }
}

/** True when err is a KubeApiError, and when reasons are given, one with one of these reasons. */
export function isKubeApiError (err: unknown, ...reasons: string[]): err is KubeApiError {
  return err instanceof KubeApiError && (reasons.length === 0 || reasons.includes(err.reason))
}

// By reason, as client-go does: 409 is both Conflict (stale resourceVersion) and AlreadyExists (create).
export const isNotFound = (err: unknown): err is KubeApiError => isKubeApiError(err, 'NotFound')
export const isAlreadyExists = (err: unknown): err is KubeApiError => isKubeApiError(err, 'AlreadyExists')
export const isConflict = (err: unknown): err is KubeApiError => isKubeApiError(err, 'Conflict')

/** The resourceVersion asked for is too old (410 Gone / reason Expired or Gone): relist. */
export const isResourceExpired = (err: unknown): err is KubeApiError =>
  isKubeApiError(err) && (err.code === 410 || err.reason === 'Expired' || err.reason === 'Gone')

/** A manifest file that cannot be read or parsed. */
export class ManifestError extends codedError('ERR_RUNTIME_SDK_MANIFEST') {
  /**
   * @param file the path of the manifest.
   * @param reason the message without the file name.
   */
  constructor (readonly file: string, readonly reason: string) {
    super(`${file}: ${reason}`)
  }
}
