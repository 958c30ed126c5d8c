// Discovery: the extension lists its handlers; Cluster API defaults and validates them with the catalog's rules
// (the messages are the runtime client's). The handlers found here are the ones the handler cases test.
import { type AnnouncedHandler, defaultHandler, type Handler, handlerErrors, validateDiscoveredHandlers } from '../../catalog/handlers.js'
import { answerProblem, describeStatus, fail, type CaseVerdict, pass, type ExtensionCaseContext } from '../context.js'

const DISCOVERY_TIMEOUT_SECONDS = 10

export async function discovery (ctx: ExtensionCaseContext): Promise<CaseVerdict> {
  const hook = ctx.catalog.discoveryHook()
  const ex = await ctx.post({
    label: 'Discovery',
    path: ctx.catalog.path(hook.gvh),
    body: JSON.stringify({ kind: hook.requestKind, apiVersion: hook.apiVersion }),
    contentType: 'application/json',
    timeoutSeconds: DISCOVERY_TIMEOUT_SECONDS,
    waitMs: DISCOVERY_TIMEOUT_SECONDS * 1000 + ctx.graceMs
  })
  const exchanges = [ex]
  const failed = (message: string) => {
    ctx.discoveryProblem = 'Discovery failed'
    return fail(message, { exchanges })
  }
  const problem = answerProblem(ex)
  if (problem) return failed(problem)
  const answer = ex.json as Record<string, unknown>
  if (answer['status'] === 'Failure') return failed(`got failure response with message: ${String(answer['message'] ?? '')}`)
  if (answer['status'] !== 'Success') return failed(`got unknown response status ${JSON.stringify(answer['status'] ?? '')} with message: ${String(answer['message'] ?? '')}`)
  const listed = answer['handlers'] ?? []
  const shapeError = handlerListShapeError(listed)
  if (shapeError) return failed(`the handler list cannot be read: ${shapeError}`)
  const announced = listed as AnnouncedHandler[]
  const validated = validateDiscoveredHandlers(ctx.catalog, announced)
  if ('error' in validated) {
    // Cluster API rejects the whole extension; the handlers that are valid on their own are still tested.
    ctx.handlers = individuallyValid(ctx, announced)
    if (ctx.handlers.length === 0) ctx.discoveryProblem = 'Discovery lists no valid handlers'
    return fail(`${validated.error} (Cluster API rejects the extension; the ${ctx.handlers.length} valid handlers are still tested)`, { exchanges })
  }
  const schema = ctx.catalog.validateResponse(hook.gvh, answer)
  if (!schema.valid) {
    ctx.handlers = validated.handlers
    return fail(`the answer does not match the ${hook.responseKind} schema: ${schema.message}`, { exchanges })
  }
  ctx.handlers = validated.handlers
  if (validated.handlers.length === 0) ctx.discoveryProblem = 'Discovery lists no handlers'
  const facts = Object.fromEntries(validated.handlers.map(h => [h.name, `${h.requestHook.apiVersion} ${h.requestHook.hook}, timeout ${h.timeoutSeconds}s, failurePolicy ${h.failurePolicy}`]))
  const count = validated.handlers.length
  return pass(`${describeStatus(answer)}; ${count} ${count === 1 ? 'handler' : 'handlers'}, valid after defaulting`, { exchanges, facts })
}

/** Problems that keep the handler list from being read at all (before Cluster API's validation applies). */
function handlerListShapeError (handlers: unknown): string | undefined {
  if (!Array.isArray(handlers)) return 'handlers: must be an array'
  for (const [i, h] of handlers.entries()) {
    const handler = h as Record<string, unknown> | null
    const requestHook = handler?.['requestHook'] as Record<string, unknown> | null | undefined
    if (typeof handler?.['name'] !== 'string') return `handlers[${i}].name: must be a string`
    if (typeof requestHook?.['apiVersion'] !== 'string' || typeof requestHook['hook'] !== 'string') return `handlers[${i}].requestHook: apiVersion and hook must be strings`
  }
  return undefined
}

function individuallyValid (ctx: ExtensionCaseContext, announced: AnnouncedHandler[]): Handler[] {
  const counts = new Map<string, number>()
  for (const h of announced) counts.set(h.name, (counts.get(h.name) ?? 0) + 1)
  return announced.map(defaultHandler).filter(h => counts.get(h.name) === 1 && handlerErrors(ctx.catalog, h).length === 0) as Handler[]
}
