// /openapi.json and Swagger UI at /docs. The document is built, and Swagger UI with its static files and the YAML
// library loaded, on the first request for them, in a fastify app of their own: most extensions are never browsed,
// so none of it is paid for at start-up.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { OpenAPIDocument } from '../catalog/openapi.js'
import { appOptions, jsonErrors } from '../http/index.js'

export function mountDocs (app: FastifyInstance, document: () => OpenAPIDocument): void {
  let docs: Promise<FastifyInstance> | undefined
  const load = async (): Promise<FastifyInstance> => {
    const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }] = await Promise.all([import('fastify'), import('@fastify/swagger'), import('@fastify/swagger-ui')])
    const docsApp = Fastify({ ...appOptions, loggerInstance: app.log })
    jsonErrors(docsApp)
    await docsApp.register(swagger, { mode: 'static', specification: { document: document() as never } })
    await docsApp.register(swaggerUi, { routePrefix: '/docs' })
    await docsApp.ready()
    return docsApp
  }
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    docs ??= load().catch((err: unknown) => { docs = undefined; throw err })
    const docsApp = await docs
    reply.hijack()
    docsApp.routing(request.raw, reply.raw)
  }
  app.get('/openapi.json', async () => document())
  app.get('/docs', serve)
  app.get('/docs/*', serve)
  app.addHook('onClose', async () => { await (await docs?.catch(() => undefined))?.close() })
}
