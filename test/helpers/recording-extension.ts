// The reference extension with a request log: every request a handler receives is appended, as one JSON line
// {hook, name, request}, to the file RUNTIME_SDK_REQUEST_LOG names. Served by `runtime-sdk serve --handlers` for
// test/capi/simulate.test.ts, which compares what Cluster API sent with what `runtime-sdk simulate` sends;
// RUNTIME_SDK_RESPONSES names the reference extension's responses file.
import { appendFileSync } from 'node:fs'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import type { ExtensionHandler } from '../../src/server/types.js'

/** One logged request. */
export interface LoggedRequest {
  hook: string
  name: string
  request: Record<string, unknown>
}

const log = process.env['RUNTIME_SDK_REQUEST_LOG']
const responses = process.env['RUNTIME_SDK_RESPONSES']

/** The reference extension's handlers, each logging its request to `file` before answering. */
export function recordingHandlers (file: string | undefined, responsesFile?: string): ExtensionHandler[] {
  return referenceHandlers(responsesFile ? { responsesFile } : {}).map(h => ({
    ...h,
    handler: (request: unknown, ctx: never) => {
      if (file) appendFileSync(file, `${JSON.stringify({ hook: h.hook.hook, name: h.name, request })}\n`)
      return (h.handler as (r: unknown, c: never) => unknown)(request, ctx)
    }
  }) as ExtensionHandler)
}

export default recordingHandlers(log, responses)
