// The reference extension whose GeneratePatches misbehaves the way RUNTIME_SDK_MISBEHAVE says, as a candidate for
// `runtime-sdk rollout-impact --handlers` in tests: `throw` (the handler throws), `garbage` (it answers what is not a
// GeneratePatches response), `hang` (it never answers); the other handlers answer as the reference extension does.
import { referenceHandlers } from '../../src/reference-extension/index.js'
import type { ExtensionHandler } from '../../src/server/types.js'

const misbehave: Record<string, () => unknown> = {
  throw: () => { throw new Error('the candidate broke') },
  garbage: () => ({ status: 'Success', items: 'not a list' }),
  hang: async () => await new Promise(() => {})
}

// Chosen at every call, so that one loaded module serves every test of a process.
export default referenceHandlers().map(h => ({
  ...h,
  handler: (request: unknown, ctx: never) => {
    const chosen = misbehave[process.env['RUNTIME_SDK_MISBEHAVE'] ?? '']
    if (chosen && h.hook.hook === 'GeneratePatches') return chosen()
    return (h.handler as (r: unknown, c: never) => unknown)(request, ctx)
  }
}) as ExtensionHandler)
