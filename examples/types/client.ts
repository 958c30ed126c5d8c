// Type tests of the runtime client (see handlers.ts for how the package test checks them). Nothing here runs.
import { HttpRuntimeClient, v1alpha1, type RuntimeClient } from 'runtime-sdk'
import { FakeRuntimeClient, sampleRequest } from 'runtime-sdk/testing'
import { exact, type Equal } from './expect.js'

export async function upgradeMayStart (client: RuntimeClient): Promise<boolean> {
  const request = sampleRequest(v1alpha1.BeforeClusterUpgrade)
  // Compiles: the aggregated response is the hook's response type.
  const { response, handlers } = await client.callAllExtensions(v1alpha1.BeforeClusterUpgrade, request.cluster, request)
  exact<Equal<typeof response.retryAfterSeconds, number>>()
  exact<Equal<typeof response.status, 'Success' | 'Failure'>>()
  exact<Equal<(typeof handlers)[number]['name'], string>>()
  const allAnswered = handlers.every(h => h.outcome === 'success')

  // @ts-expect-error TS2345 a BeforeClusterUpgrade request needs toKubernetesVersion
  await client.callAllExtensions(v1alpha1.BeforeClusterUpgrade, request.cluster, { cluster: request.cluster, fromKubernetesVersion: 'v1.32.3' })
  // @ts-expect-error TS2379 a BeforeClusterUpgrade request is no GeneratePatches request
  await client.callExtension(v1alpha1.GeneratePatches, request.cluster, 'patch.ext', request)
  const patches = await client.callExtension(v1alpha1.GeneratePatches, request.cluster, 'patch.ext', sampleRequest(v1alpha1.GeneratePatches))
  // @ts-expect-error TS2339 a GeneratePatches response has no retryAfterSeconds
  return allAnswered && response.retryAfterSeconds === 0 && patches.response.retryAfterSeconds === undefined
}

export const real: RuntimeClient = new HttpRuntimeClient()
export const fake: RuntimeClient = new FakeRuntimeClient()
  .handle(v1alpha1.BeforeClusterUpgrade, 'backup.ext', { status: 'Success', retryAfterSeconds: 30 })
  .handle(v1alpha1.BeforeClusterUpgrade, 'quota.ext', (request) => ({ status: 'Failure', message: `no quota for ${request.toKubernetesVersion}` }))
  // @ts-expect-error TS2322 'Bogus' is not a response status (FakeRuntimeClient)
  .handle(v1alpha1.BeforeClusterUpgrade, 'bogus.ext', { status: 'Bogus' })
