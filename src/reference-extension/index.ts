// The reference Runtime Extension: every hooks.runtime.cluster.x-k8s.io/v1alpha1 hook, with simple, documented
// behaviour (see each file). Serve it with `runtime-sdk serve`, or pass its handlers to createExtensionServer.
import type { ExtensionHandler } from '../server/types.js'
import { inPlaceHandlers, type InPlaceOptions } from './in-place.js'
import { lifecycleHandlers } from './lifecycle.js'
import { ResponsesFile } from './responses.js'
import { topologyHandlers } from './topology.js'
import { upgradePlanHandlers } from './upgrade-plan.js'

/** How the reference extension answers. */
export interface ReferenceExtensionOptions extends InPlaceOptions {
  /** responsesFile (YAML or JSON) presets the answers of lifecycle hooks, and a Failure of GeneratePatches; re-read when it changes. */
  responsesFile?: string
}

/**
 * The reference extension's handlers (what `runtime-sdk serve` serves by default): every hook of the catalog, with
 * simple documented behaviour. A start for a version of your own, and a known extension to try the tools on.
 */
export function referenceHandlers (options: ReferenceExtensionOptions = {}): ExtensionHandler[] {
  const responses = options.responsesFile ? new ResponsesFile(options.responsesFile) : undefined
  return [...lifecycleHandlers(responses), ...topologyHandlers(responses), ...inPlaceHandlers(options), ...upgradePlanHandlers()]
}

export { ResponsesFile, parseResponses, type PresetResponse } from './responses.js'
export { ANNOTATION, VARIABLE, VERSION_LABEL } from './topology.js'
export { planUpgrade } from './upgrade-plan.js'
export { kebabName } from './lifecycle.js'
