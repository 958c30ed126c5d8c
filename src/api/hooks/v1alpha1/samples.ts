// One realistic request per v1alpha1 hook (hooks/v1alpha1/samples.json at the top level), shaped like the requests
// Cluster API v1.14 sends. Used by `runtime-sdk conformance`, the docs and tests; sampleRequest() returns a fresh copy.
import type { HookDefinition, RequestOf } from '../define.js'
import data from '../../../../hooks/v1alpha1/samples.json' with { type: 'json' }
import { API_VERSION } from './constants.js'
import type { HookTypes } from './types.generated.js'

/** The sample request of every v1alpha1 hook, by hook name (typed as the hook's request: tsc checks the data). */
export const sampleRequests: { readonly [N in keyof HookTypes]: HookTypes[N]['request'] } = data.requests

/** A fresh copy of the sample request of a hook: typed when given the hook definition, by name for any string. */
export function sampleRequest<H extends HookDefinition> (hook: H): RequestOf<H>
export function sampleRequest (hook: string): Record<string, unknown> | undefined
export function sampleRequest (hook: string | HookDefinition): unknown {
  const name = typeof hook === 'string' ? hook : hook.hook
  const sample = (sampleRequests as Record<string, object>)[name]
  if (sample === undefined && typeof hook !== 'string') throw new Error(`no sample request for hook ${name}: samples exist for the hooks of ${API_VERSION}`)
  return sample === undefined ? undefined : structuredClone(sample)
}
