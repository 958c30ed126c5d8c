// How a failed HTTP call reads in one line, for the client's errors and the conformance report alike.

/** An error of a call in a line: message, cause and code (e.g. "other side closed (UND_ERR_SOCKET)"). */
export function describeError (err: unknown): string {
  const e = err as Error & { code?: string, cause?: Error & { code?: string } }
  const parts = [e.message]
  if (e.cause?.message && !e.message.includes(e.cause.message)) parts.push(e.cause.message)
  let text = parts.map(p => p.replace(/[\s:]+$/, '')).join(': ')
  const code = e.code ?? e.cause?.code
  if (code && !text.includes(code)) text += ` (${code})`
  return text
}
