// Type tests of extension handlers. The package test (test/package/package.test.ts) compiles this project twice:
// as is, where tsc fails on any `@ts-expect-error` that has no error under it, and with the directives disabled,
// where each marked line must fail with exactly the TS code written after the directive. Nothing here runs.
import { createExtensionServer, defineHandler, runtimeExtension, v1alpha1, type ResponseOf } from 'runtime-sdk'
import { exact, type Equal } from './expect.js'

// Compiles: inline handlers are typed by the hook next to them, request fields included.
createExtensionServer({
  insecureHttp: true,
  handlers: [
    {
      hook: v1alpha1.BeforeClusterUpgrade,
      name: 'typed-request',
      handler: (request, ctx) => {
        exact<Equal<typeof request.toKubernetesVersion, string>>()
        exact<Equal<typeof ctx.signal, AbortSignal>>()
        return { status: 'Success', message: `upgrading to ${request.toKubernetesVersion}` }
      }
    },
    {
      hook: v1alpha1.GeneratePatches,
      name: 'patches',
      handler: async (request) => ({
        status: 'Success',
        items: (request.items ?? []).map(item => ({ uid: item.uid, patchType: 'JSONPatch', patch: 'W10=' }))
      })
    },
    { hook: v1alpha1.DiscoverVariables, name: 'variables', handler: () => ({ status: 'Failure', message: 'not yet' }) },
    // Literals nested in the answer stay literals, without `as const`, in an async handler without parameters.
    { hook: v1alpha1.DiscoverVariables, name: 'typed-variable', handler: async () => ({ status: 'Success', variables: [{ name: 'team', schema: { openAPIV3Schema: { type: 'string' } } }] }) }
  ]
})
const upgradeHandler = defineHandler({ hook: v1alpha1.BeforeClusterUpgrade, name: 'retry', handler: () => ({ status: 'Success', retryAfterSeconds: 30 }) })
export const plugin = runtimeExtension({ handlers: [upgradeHandler, { hook: v1alpha1.BeforeClusterCreate, name: 'hold', handler: (request) => ({ status: 'Success', message: request.cluster.metadata.name ?? '' }) }] })

// A status that is not Success or Failure, in each way of declaring a handler.
createExtensionServer({
  insecureHttp: true,
  // @ts-expect-error TS2322 'Bogus' is not a response status (createExtensionServer, inline)
  handlers: [{ hook: v1alpha1.BeforeClusterUpgrade, name: 'bogus', handler: () => ({ status: 'Bogus' }) }]
})
runtimeExtension({
  // @ts-expect-error TS2322 'Bogus' is not a response status (runtimeExtension, inline)
  handlers: [{ hook: v1alpha1.BeforeClusterUpgrade, name: 'bogus', handler: () => ({ status: 'Bogus' }) }]
})
// @ts-expect-error TS2322 'Bogus' is not a response status (defineHandler)
defineHandler({ hook: v1alpha1.BeforeClusterUpgrade, name: 'bogus', handler: async () => ({ status: 'Bogus' }) })

// A field of the wrong type in the response.
// @ts-expect-error TS2322 retryAfterSeconds is a number
defineHandler({ hook: v1alpha1.BeforeClusterUpgrade, name: 'late', handler: () => ({ status: 'Success', retryAfterSeconds: '30' }) })

// A request field the hook does not have.
createExtensionServer({
  insecureHttp: true,
  handlers: [{
    hook: v1alpha1.BeforeClusterUpgrade,
    name: 'no-such-field',
    // @ts-expect-error TS2339 BeforeClusterUpgradeRequest has no notAField
    handler: (request) => ({ status: 'Success', message: String(request.notAField) })
  }]
})

// Another hook's handler function: a GeneratePatches handler expects a request DiscoverVariables does not send.
const patchHandler = defineHandler({ hook: v1alpha1.GeneratePatches, name: 'patch', handler: () => ({ status: 'Success', items: [] }) })
createExtensionServer({
  insecureHttp: true,
  // @ts-expect-error TS2322 a GeneratePatches handler is no DiscoverVariables handler
  handlers: [{ hook: v1alpha1.DiscoverVariables, name: 'variables', handler: patchHandler.handler }]
})

// Another hook's response as the answer: the fields only other hooks' responses have are refused.
declare const patches: ResponseOf<typeof v1alpha1.GeneratePatches>
// @ts-expect-error TS2322 a GeneratePatches response is no DiscoverVariables answer (defineHandler)
defineHandler({ hook: v1alpha1.DiscoverVariables, name: 'variables', handler: () => patches })
createExtensionServer({
  insecureHttp: true,
  // @ts-expect-error TS2322 items belong to GeneratePatches, not BeforeClusterUpgrade (createExtensionServer, inline)
  handlers: [{ hook: v1alpha1.BeforeClusterUpgrade, name: 'items', handler: async () => ({ status: 'Success', items: [] }) }]
})
