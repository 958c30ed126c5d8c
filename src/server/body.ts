// Reading hook request bodies: JSON whatever the Content-Type says about it, bounded at 20 MiB without a 413.
// Read by endpoint.ts from node's request, whichever entrance the request came through.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import { HttpError, isJsonContentType } from '../http/index.js'

/** A request body as read from the wire; parsed later so that every problem becomes a Failure response. */
export type RawBody = { bytes: Buffer } | { tooLarge: true, limit: number }

export interface BodyLimits {
  /** limit is the largest body handed to the handler; larger ones are answered with a Failure. */
  limit: number
  /** drainLimit is the most read before giving up with a 413 (a larger declared Content-Length is refused unread). */
  drainLimit: number
}

/** Why a hook request is refused before its body is read (415 or 413), or undefined to read it. */
export function refuseBeforeReading (headers: IncomingHttpHeaders, limits: BodyLimits): HttpError | undefined {
  if (!isJsonContentType(headers['content-type'])) {
    return new HttpError(415, 'UnsupportedMediaType', `hook requests are JSON: send Content-Type application/json or none, not ${JSON.stringify(headers['content-type'])}`)
  }
  const declared = Number(headers['content-length'] ?? NaN)
  if (declared > limits.drainLimit) return new HttpError(413, 'PayloadTooLarge', `request body of ${declared} bytes exceeds the limit of ${limits.limit} bytes`)
  return undefined
}

/**
 * Reads a body: up to `limit` bytes are buffered; a larger body is drained (not buffered) and reported as too
 * large, so the handler is not called and the caller gets HTTP 200 with status Failure. Beyond `drainLimit` the
 * reader stops with a 413.
 */
export function readRawBody (payload: IncomingMessage, limits: BodyLimits, done: (err: Error | null, body?: RawBody) => void): void {
  const { limit, drainLimit } = limits
  const chunks: Buffer[] = []
  let size = 0
  let finished = false
  const finish = (err: Error | null, body?: RawBody) => {
    if (finished) return
    finished = true
    done(err, body)
  }
  payload.on('data', (chunk: Buffer) => {
    size += chunk.length
    if (size <= limit) chunks.push(chunk)
    else chunks.length = 0
    if (size > drainLimit) {
      payload.removeAllListeners('data')
      payload.resume()
      finish(new HttpError(413, 'PayloadTooLarge', `request body exceeds the limit of ${limit} bytes`))
    }
  })
  payload.on('end', () => finish(null, size > limit ? { tooLarge: true, limit } : { bytes: chunks.length === 1 ? chunks[0] as Buffer : Buffer.concat(chunks, size) }))
  payload.on('error', (err) => finish(err))
}
