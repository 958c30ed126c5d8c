// Hook versions that a catalog no longer knows (the handler would stop working) or marks deprecated
// (Runtime SDK proposal: upgrade preflight, Cluster API #6903/#6904).
import type { ExtensionHandlerStatus } from '../api/extension-config/types.js'
import type { Catalog } from '../catalog/catalog.js'
import { parseApiVersion } from '../catalog/identity.js'

interface HookVersionProblem {
  handler: string
  apiVersion: string
  hook: string
  problem: 'unknown' | 'deprecated'
}

export function hookVersionProblems (catalog: Catalog, handlers: readonly ExtensionHandlerStatus[] | undefined): HookVersionProblem[] {
  const problems: HookVersionProblem[] = []
  for (const h of handlers ?? []) {
    const { apiVersion, hook } = h.requestHook
    let known
    try {
      known = catalog.find({ ...parseApiVersion(apiVersion), hook })
    } catch {
      known = undefined
    }
    if (!known) problems.push({ handler: h.name, apiVersion, hook, problem: 'unknown' })
    else if (known.definition.meta.deprecated) problems.push({ handler: h.name, apiVersion, hook, problem: 'deprecated' })
  }
  return problems
}

export function describeProblem (p: HookVersionProblem): string {
  return p.problem === 'unknown'
    ? `handler ${p.handler} uses ${p.apiVersion}/${p.hook}, which is not in the catalog`
    : `handler ${p.handler} uses ${p.apiVersion}/${p.hook}, which is deprecated`
}
