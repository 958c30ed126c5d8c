// Lifecycle hooks of the reference extension: each answers what the responses file says for its hook,
// by default Success (and retryAfterSeconds 0, i.e. not blocking).
import type { HookDefinition } from '../api/hooks/define.js'
import { schemaProperties } from '../api/schema/builders.js'
import {
  AfterClusterUpgrade, AfterControlPlaneInitialized, AfterControlPlaneUpgrade, AfterWorkersUpgrade, BeforeClusterCreate,
  BeforeClusterDelete, BeforeClusterUpgrade, BeforeControlPlaneUpgrade, BeforeWorkersUpgrade
} from '../api/hooks/v1alpha1/index.js'
import { type ExtensionHandler } from '../server/types.js'
import { presetFor, type ResponsesFile } from './responses.js'

const LIFECYCLE_HOOKS: readonly HookDefinition[] = [
  BeforeClusterCreate, AfterControlPlaneInitialized, BeforeClusterUpgrade, BeforeControlPlaneUpgrade, AfterControlPlaneUpgrade,
  BeforeWorkersUpgrade, AfterWorkersUpgrade, AfterClusterUpgrade, BeforeClusterDelete
]

/** The handler name Cluster API's test extension uses for a hook: BeforeClusterCreate -> before-cluster-create. */
export function kebabName (hook: string): string {
  return hook.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()
}

export function lifecycleHandlers (responses: ResponsesFile | undefined): ExtensionHandler[] {
  return LIFECYCLE_HOOKS.map(hook => {
    const blocking = schemaProperties(hook.response).includes('retryAfterSeconds')
    return {
      hook,
      name: kebabName(hook.hook),
      handler: async (_request: unknown, ctx: { log: { info: (o: object, m: string) => void } }) => {
        const preset = await presetFor(responses, hook.hook)
        const answer = {
          status: preset?.status ?? 'Success',
          ...(preset?.message ? { message: preset.message } : {}),
          ...(blocking ? { retryAfterSeconds: preset?.retryAfterSeconds ?? 0 } : {})
        }
        ctx.log.info({ answer }, `${hook.hook} answered`)
        return answer
      }
    }
  })
}
