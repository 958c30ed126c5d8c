// JSON errors of non-hook outcomes (unknown path, wrong method, ...): {code, message} with stable codes, for every
// HTTP server of the project (extension server, controller endpoint, conversion webhook).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'

export class HttpError extends Error {
  /** options.cause is logged with a 5xx answer, never sent. */
  constructor (readonly statusCode: number, readonly code: string, message: string, options?: ErrorOptions) {
    super(message, options)
  }
}

/** The body of an unexpected error's 500, on every server: the details are logged, never sent. */
export const INTERNAL_ERROR_BODY = JSON.stringify({ code: 'InternalError', message: 'internal server error' })

const CODES: Record<number, string> = {
  400: 'BadRequest',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  408: 'RequestTimeout',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  503: 'ServiceUnavailable'
}

/** The reply for any error fastify or a route raises outside the hook pipeline. Internal errors hide details. */
export function sendError (error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500
  const code = error instanceof HttpError ? error.code : (CODES[status] ?? 'InternalError')
  const message = status >= 500 && !(error instanceof HttpError) ? 'internal server error' : error.message
  if (status >= 500) request.log.error({ err: error }, 'request failed')
  reply.code(status).type('application/json').send({ code, message })
}
