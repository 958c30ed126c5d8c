// Timing: Cluster API sends ?timeout=<declared timeout> and gives up when it passes, so an answer must come
// within the handler's declared timeout. An extension that reads ?timeout= answers before the caller gives up.
import { fail, type HandlerCaseContext, type CaseVerdict, pass, skip } from '../context.js'

export async function timeout (ctx: HandlerCaseContext): Promise<CaseVerdict> {
  const ex = await ctx.sample()
  const limitMs = ctx.timeoutSeconds * 1000
  const facts = { declaredTimeout: `${ctx.timeoutSeconds}s`, answeredAfter: `${ex.durationMs}ms` }
  if (ex.timedOut) return fail(`no answer within ${ctx.timeoutSeconds}s (waited ${ex.durationMs}ms); Cluster API gives up at ${ctx.timeoutSeconds}s`, { exchanges: [ex], facts })
  if (ex.status === undefined) return skip(`no answer to time: ${ex.error ?? 'unknown error'} (see response)`, { exchanges: [ex] })
  if (ex.durationMs > limitMs) return fail(`answered after ${ex.durationMs}ms, later than the declared timeout of ${ctx.timeoutSeconds}s: Cluster API gives up at ${ctx.timeoutSeconds}s`, { exchanges: [ex], facts })
  return pass(`answered in ${ex.durationMs}ms, within the declared timeout of ${ctx.timeoutSeconds}s`, { facts })
}

export async function timeoutQuery (ctx: HandlerCaseContext): Promise<CaseVerdict> {
  const short = ctx.shortTimeoutSeconds
  if (ctx.timeoutSeconds <= short) return skip(`the declared timeout (${ctx.timeoutSeconds}s) is not longer than ?timeout=${short}s`)
  const ex = await ctx.call(`sample request with ?timeout=${short}s`, JSON.stringify(ctx.request), { contentType: 'application/json', timeoutSeconds: short })
  if (ex.timedOut) return fail(`no answer within ?timeout=${short}s (waited ${ex.durationMs}ms)`, { exchanges: [ex] })
  if (ex.status === undefined) return skip(`no answer to time: ${ex.error ?? 'unknown error'} (see response)`, { exchanges: [ex] })
  if (ex.durationMs > short * 1000) return fail(`answered after ${ex.durationMs}ms although the request said ?timeout=${short}s`, { exchanges: [ex] })
  return pass(`answered in ${ex.durationMs}ms with HTTP ${ex.status}, within ?timeout=${short}s`)
}
