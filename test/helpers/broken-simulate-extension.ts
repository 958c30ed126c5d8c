// The reference extension with one handler broken the way RUNTIME_SDK_BROKEN says, for `runtime-sdk simulate
// --handlers` in tests: `patch` (GeneratePatches answers a patch that does not apply), `blocking` (BeforeClusterCreate
// never stops blocking), `changing` (BeforeClusterCreate's message changes on every call); the others answer as the
// reference extension does.
import { BeforeClusterCreate, GeneratePatches } from '../../src/api/hooks/v1alpha1/index.js'
import { referenceHandlers } from '../../src/reference-extension/index.js'
import { defineHandler, type ExtensionHandler } from '../../src/server/types.js'

let calls = 0
const broken: Record<string, ExtensionHandler> = {
  patch: defineHandler({
    hook: GeneratePatches,
    name: 'generate-patches',
    handler: (request) => ({ status: 'Success' as const, items: (request.items ?? []).map(i => ({ uid: i.uid, patchType: 'JSONPatch' as const, patch: Buffer.from('[{"op":"replace","path":"/spec/nope","value":1}]').toString('base64') })) })
  }),
  blocking: defineHandler({ hook: BeforeClusterCreate, name: 'before-cluster-create', handler: async () => ({ status: 'Success' as const, retryAfterSeconds: 60, message: 'waiting for a quota' }) }),
  changing: defineHandler({ hook: BeforeClusterCreate, name: 'before-cluster-create', handler: async () => ({ status: 'Success' as const, message: `attempt ${++calls}` }) })
}

// Chosen at every call, so that one loaded module serves every test of a process.
export default referenceHandlers().map(h => ({
  ...h,
  handler: (request: unknown, ctx: never) => {
    const replacement = broken[process.env['RUNTIME_SDK_BROKEN'] ?? '']
    const chosen = replacement && replacement.hook.hook === h.hook.hook ? replacement : h
    return (chosen.handler as (r: unknown, c: never) => unknown)(request, ctx)
  }
}) as ExtensionHandler)
