// How answers behave across calls and what they carry: the same answer to the same request, sensible
// retryAfterSeconds, no stack traces in messages, no redirects anywhere.
import { stableJson } from '../../client/wire.js'
import { answerOf, answerProblem, clip, fail, type HandlerCaseContext, type CaseVerdict, pass, type ExtensionCaseContext, skip } from '../context.js'
import type { Exchange } from '../http.js'
import { findStackTrace } from '../stack-trace.js'

/** The longest sensible retryAfterSeconds: entries of Cluster API's hook cache live 24 hours. */
export const MAX_RETRY_AFTER_SECONDS = 86400

export async function idempotent (ctx: HandlerCaseContext): Promise<CaseVerdict> {
  const body = JSON.stringify(ctx.request)
  const first = await ctx.call('first of two identical calls', body, { contentType: 'application/json' })
  const second = await ctx.call('second of two identical calls', body, { contentType: 'application/json' })
  const exchanges = [first, second]
  const [a, b] = [answerOf(first), answerOf(second)]
  if (!a && !b) return skip('neither call got an answer to compare (see response)', { exchanges })
  if (!a || !b) return fail(`only one of two identical calls got an answer: ${answerProblem(a ? second : first) ?? ''}`, { exchanges })
  const difference = firstDifference(a, b)
  if (difference) return fail(`two identical calls got different answers (Cluster API calls handlers again and again and expects the same answer): ${difference}`, { exchanges })
  return pass('two identical calls got the same answer')
}

/** Where two JSON values first differ, e.g. `message: "a" then "b"`; undefined when equal. No field is ignored. */
function firstDifference (a: unknown, b: unknown, path = ''): string | undefined {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    for (const key of keys) {
      const at = Array.isArray(a) ? `${path}[${key}]` : path ? `${path}.${key}` : key
      const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], at)
      if (found) return found
    }
    return undefined
  }
  if (stableJson(a) === stableJson(b)) return undefined
  const show = (v: unknown) => v === undefined ? '(absent)' : clip(JSON.stringify(v), 120)
  return `${path || '(root)'}: ${show(a)} then ${show(b)}`
}

export async function retryAfter (ctx: HandlerCaseContext): Promise<CaseVerdict> {
  const ex = await ctx.sample()
  const answer = answerOf(ex)
  if (!answer) return skip('no answer to check (see response)')
  const value = answer['retryAfterSeconds']
  const hook = ctx.hook.gvh.hook
  if (!ctx.hook.blocking) {
    if (value !== undefined) return fail(`${hook} cannot block, yet the answer has retryAfterSeconds ${JSON.stringify(value)}; Cluster API ignores it`, { exchanges: [ex] })
    return pass(`${hook} cannot block and the answer has no retryAfterSeconds`)
  }
  if (value === undefined || value === null) return pass('retryAfterSeconds is absent, read as 0 (not blocking)')
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return fail(`retryAfterSeconds ${JSON.stringify(value)} must be an integer of at least 0`, { exchanges: [ex] })
  if (value > MAX_RETRY_AFTER_SECONDS) return fail(`retryAfterSeconds ${value} is more than ${MAX_RETRY_AFTER_SECONDS} (24 h, how long Cluster API remembers a blocking answer)`, { exchanges: [ex] })
  if (value > 0 && answer['status'] === 'Failure') return fail(`a Failure answer has retryAfterSeconds ${value}; Cluster API reports the failure and does not wait, so use 0`, { exchanges: [ex] })
  return pass(value === 0 ? 'retryAfterSeconds 0: not blocking' : `retryAfterSeconds ${value}: blocks for about ${value}s`)
}

/** The texts of an answer that reach Cluster API's conditions: the message, or the body of a non-200 answer. */
function reportedTexts (ex: Exchange): string[] {
  if (ex.status === undefined) return []
  if (ex.status !== 200) return [ex.text ?? '']
  const message = (ex.json as Record<string, unknown> | undefined)?.['message']
  return typeof message === 'string' ? [message] : []
}

export async function noStackTrace (ctx: HandlerCaseContext): Promise<CaseVerdict> {
  let checked = 0
  for (const ex of ctx.handlerExchanges) {
    for (const text of reportedTexts(ex)) {
      checked++
      const found = findStackTrace(text)
      if (found) return fail(`the answer to "${ex.evidence.label}" carries ${found.kind}: ${JSON.stringify(clip(found.excerpt, 160))}`, { exchanges: [ex] })
    }
  }
  return pass(`no stack trace in the ${checked} messages of ${ctx.handlerExchanges.length} answers`)
}

export async function noRedirect (ctx: ExtensionCaseContext): Promise<CaseVerdict> {
  const redirects = ctx.exchanges.filter(ex => ex.status !== undefined && ex.status >= 300 && ex.status < 400)
  if (redirects.length > 0) {
    const first = redirects[0] as Exchange
    return fail(`${redirects.length} of ${ctx.exchanges.length} answers were redirects, which Cluster API does not follow; first: "${first.evidence.label}" got HTTP ${first.status}` +
      `${first.headers?.['location'] ? ` to ${first.headers['location']}` : ''}`, { exchanges: redirects.slice(0, 3) })
  }
  return pass(`none of the ${ctx.exchanges.length} answers was a redirect (redirects are never followed)`)
}
