// What handlers answer: a schema-valid response to a realistic request, with or without a Content-Type header,
// and a Failure (not an HTTP error) to input they cannot read.
import { schemaProperties } from '../../api/schema/builders.js'
import { answerProblem, describeStatus, fail, type HandlerCaseContext, type CaseVerdict, pass } from '../context.js'
import type { Exchange } from '../http.js'

/** Why an exchange is not a schema-valid answer of the handler's hook, or undefined. */
function invalidAnswer (ctx: HandlerCaseContext, ex: Exchange): string | undefined {
  const problem = answerProblem(ex)
  if (problem) return problem
  const valid = ctx.catalog.validateResponse(ctx.hook.gvh, ex.json)
  return valid.valid ? undefined : `the answer does not match the ${ctx.hook.responseKind} schema: ${valid.message}`
}

export async function response (ctx: HandlerCaseContext): Promise<CaseVerdict> {
  const ex = await ctx.sample()
  const problem = invalidAnswer(ctx, ex)
  if (problem) return fail(problem, { exchanges: [ex] })
  return pass(`HTTP 200, a valid ${ctx.hook.responseKind} with ${describeStatus(ex.json as Record<string, unknown>)}`, { exchanges: [ex] })
}

/** Only whether the request is accepted counts here; what the answer holds is the response case's business. */
export async function contentTypeOptional (ctx: HandlerCaseContext): Promise<CaseVerdict> {
  const ex = await ctx.call('sample request without Content-Type', JSON.stringify(ctx.request))
  const problem = answerProblem(ex)
  if (problem) return fail(`without a Content-Type header (Cluster API's Go client sends none): ${problem}`, { exchanges: [ex] })
  return pass(`answered without a Content-Type header: HTTP 200, ${describeStatus(ex.json as Record<string, unknown>)}`, { exchanges: [ex] })
}

/** Bodies no handler can accept: cut-off JSON, and (when the hook has settings) settings of the wrong type. */
function malformedBodies (ctx: HandlerCaseContext): Array<[string, string]> {
  const text = JSON.stringify(ctx.request)
  const bodies: Array<[string, string]> = [['truncated JSON', text.slice(0, Math.max(1, Math.floor(text.length / 2)))]]
  if (schemaProperties(ctx.hook.definition.request).includes('settings')) bodies.push(['settings of the wrong type', JSON.stringify({ ...ctx.request, settings: 42 })])
  return bodies
}

export async function malformedInput (ctx: HandlerCaseContext): Promise<CaseVerdict> {
  const exchanges: Exchange[] = []
  const problems: string[] = []
  const messages: string[] = []
  for (const [label, body] of malformedBodies(ctx)) {
    const ex = await ctx.call(label, body, { contentType: 'application/json' })
    exchanges.push(ex)
    const problem = answerProblem(ex)
    const answer = ex.json as Record<string, unknown>
    if (problem) problems.push(`${label}: ${problem}`)
    else if (answer['status'] !== 'Failure') problems.push(`${label}: answered ${describeStatus(answer)} instead of status Failure`)
    else messages.push(describeStatus(answer))
  }
  if (problems.length > 0) return fail(problems.join('; '), { exchanges })
  return pass(`every malformed request got HTTP 200 with ${messages.join(' and ')}`, { exchanges })
}
