// Reading hook request bodies: JSON whatever the Content-Type says about it, bounded at 20 MiB without a 413.
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'
import { HttpError, isJsonContentType } from '../http/index.js'

/** A request body as read from the wire; parsed later so that every problem becomes a Failure response. */
export type RawBody = { bytes: Buffer } | { tooLarge: true, limit: number }

/**
 * Installs the only body parser of the hook routes' plugin. Bodies up to `limit` bytes are buffered; a larger
 * body is drained (not buffered) and reported as too large, so the handler is not called and the caller gets
 * HTTP 200 with status Failure. A declared Content-Length beyond `drainLimit` is refused right away (413,
 * connection closed) rather than read.
 */
export function installBodyParser (app: FastifyInstance, limit: number, drainLimit: number): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (request, payload: IncomingMessage, done: (err: Error | null, body?: RawBody) => void) => {
    if (!isJsonContentType(request.headers['content-type'])) {
      done(new HttpError(415, 'UnsupportedMediaType', `hook requests are JSON: send Content-Type application/json or none, not ${JSON.stringify(request.headers['content-type'])}`))
      return
    }
    const declared = Number(request.headers['content-length'] ?? NaN)
    if (declared > drainLimit) {
      done(new HttpError(413, 'PayloadTooLarge', `request body of ${declared} bytes exceeds the limit of ${limit} bytes`))
      return
    }
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
    payload.on('end', () => finish(null, size > limit ? { tooLarge: true, limit } : { bytes: Buffer.concat(chunks, size) }))
    payload.on('error', (err) => finish(err))
  })
}
