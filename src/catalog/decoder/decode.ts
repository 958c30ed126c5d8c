// Runs a generated decoder (*.generated.ts) on a value and words the problem Go's decoder would report
// first: nesting beyond its limit before anything else (Go checks the whole text before decoding), then the field's
// path and Go's message.
import { formatPath } from '../field-path.js'
import { type Checker, deepestContainer, type Mode, RECEIVE, tooDeep } from './rules.js'

/** undefined when the value passes, else a message naming the field. */
export function decodeProblem (check: Checker, value: unknown, mode: Mode): string | undefined {
  // Go decodes a JSON null into the zero value of the request or response.
  if (value === null || value === undefined) return undefined
  let problem
  try {
    problem = check(value, mode, 1)
  } catch (err) {
    // Only a value nested deeper than JavaScript's stack takes: a JSONSchemaProps (recursive) thousands of levels deep.
    if (!(err instanceof RangeError)) throw err
    problem = { path: [], message: 'nested too deeply to check', hard: true }
  }
  if (problem === undefined) return undefined
  if (!problem.depth && typeof value === 'object') {
    const deep = deepestContainer(value)
    if (deep !== undefined) problem = tooDeep(deep)
  }
  if (problem.depth || problem.path.length === 0) return problem.message
  const at = formatPath(problem.path.reverse())
  return at ? `${at}: ${problem.message}` : problem.message
}

/**
 * A request an extension received, as its handler must get it: what Go's handler would read, in the types' shape
 * (see rules.ts: RECEIVE). JSON null is an empty request; the value is changed in place otherwise.
 */
export function receive (check: Checker, value: unknown): { request: unknown } | { message: string } {
  const request = value ?? {}
  const message = decodeProblem(check, request, RECEIVE)
  return message === undefined ? { request } : { message }
}
