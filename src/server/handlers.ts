// Checking an extension's handlers up front, so that it never announces handlers Cluster API rejects.
import type { Catalog, CatalogHook } from '../catalog/catalog.js'
import { defaultHandler, handlerErrors, type AnnouncedHandler } from '../catalog/handlers.js'
import type { ExtensionHandler } from './types.js'
import { ExtensionHandlerError } from './errors.js'

/** A checked handler with everything the server needs to route and announce it. */
interface ResolvedHandler {
  handler: ExtensionHandler
  hook: CatalogHook
  name: string
  announced: AnnouncedHandler
}

/**
 * Resolves and checks every handler: names are unique DNS-1123 labels across the whole extension (Cluster API
 * rejects the whole Discovery response otherwise), timeouts 0..30, policies Fail or Ignore, hooks in the catalog,
 * and nobody registers Discovery, which the server answers itself. All problems are reported in one error.
 */
export function resolveHandlers (catalog: Catalog, handlers: readonly ExtensionHandler[]): ResolvedHandler[] {
  if (!Array.isArray(handlers)) throw new ExtensionHandlerError('handlers must be an array of extension handlers')
  const errors: string[] = []
  const seen = new Set<string>()
  const resolved: ResolvedHandler[] = []
  for (const [i, declared] of handlers.entries()) {
    const name = typeof declared?.name === 'string' ? declared.name : ''
    const label = name ? `handler ${JSON.stringify(name)}` : `handler #${i}`
    const before = errors.length
    if (typeof declared?.name !== 'string') errors.push(`${label}: name must be a string`)
    if (typeof declared?.handler !== 'function') errors.push(`${label}: handler must be a function`)
    const hookName = (declared?.hook as { hook?: unknown } | undefined)?.hook
    const hook = catalog.of(declared?.hook)
    if (!hook) {
      errors.push(`${label}: hook ${typeof hookName === 'string' ? hookName : '<missing>'} is not a hook definition of catalog "${catalog.name}" (add its group version to the catalog)`)
    } else if (hook.definition.meta.singleton) {
      errors.push(`${label}: ${hook.gvh.hook} is answered by the server from the registered handlers; do not register a handler for it`)
    }
    if (seen.has(name)) errors.push(`${label}: duplicate name; handler names must be unique across the extension, whatever their hook`)
    seen.add(name)
    if (typeof declared?.name === 'string' && hook) {
      const announced: AnnouncedHandler = {
        name,
        requestHook: { apiVersion: hook.apiVersion, hook: hook.gvh.hook },
        ...(declared.timeoutSeconds !== undefined ? { timeoutSeconds: declared.timeoutSeconds } : {}),
        ...(declared.failurePolicy !== undefined ? { failurePolicy: declared.failurePolicy } : {})
      }
      const problems = handlerErrors(catalog, defaultHandler(announced))
      errors.push(...problems.map(p => `${label}: ${p}`))
      if (errors.length === before) resolved.push({ handler: declared, hook, name, announced })
    }
  }
  if (errors.length > 0) throw new ExtensionHandlerError(`invalid extension handlers:\n  ${errors.join('\n  ')}`)
  return resolved
}
