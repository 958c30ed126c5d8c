// The reference extension is what users copy: every handler is total over what the request schema accepts. It
// answers (Success or Failure with a message, a thrown HookError included) with a response its schema accepts, and
// never throws anything else.
import fc from 'fast-check'
import t from 'tap'
import { pino } from 'pino'
import { createCatalog } from '../../src/catalog/index.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { HookError } from '../../src/server/index.js'
import type { HandlerContext } from '../../src/server/types.js'
import { schemaArbitrary } from '../helpers/schema-arbitrary.js'

const catalog = createCatalog()
const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 60)

const context = (name: string): HandlerContext => ({
  log: pino({ level: 'silent' }),
  signal: new AbortController().signal,
  deadline: new Date(Date.now() + 10_000),
  requestId: 'property-test',
  name
})

for (const handler of referenceHandlers()) {
  const hook = catalog.of(handler.hook)
  if (!hook) throw new Error(`${handler.name}: its hook is not in the default catalog`)
  t.test(`${handler.name} (${hook.gvh.hook}) answers every valid request`, async t => {
    let checked = 0
    const requests = schemaArbitrary(hook.definition.request as Record<string, unknown>)
      .map(body => ({ ...(body as object), kind: hook.requestKind, apiVersion: hook.apiVersion }))
      .filter(body => catalog.validateRequest(hook.gvh, body).valid)
    await fc.assert(fc.asyncProperty(requests, async request => {
      checked++
      let response: unknown
      try {
        response = await handler.handler(structuredClone(request) as never, context(handler.name))
      } catch (err) {
        if (err instanceof HookError) return
        throw new Error(`threw ${String(err)} on ${JSON.stringify(request).slice(0, 2000)}`)
      }
      const answer = { ...(response as object), kind: hook.responseKind, apiVersion: hook.apiVersion }
      const verdict = catalog.validateResponse(hook.gvh, answer)
      if (!verdict.valid) throw new Error(`invalid response (${verdict.message}): ${JSON.stringify(response).slice(0, 500)}`)
    }), { numRuns: RUNS })
    t.equal(checked >= RUNS, true, `${checked} requests checked`)
  })
}
