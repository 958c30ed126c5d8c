// Checking handler registrations up front, so that an extension never announces handlers Cluster API rejects.
import type { Catalog, CatalogHook } from '../catalog/catalog.js'
import { defaultHandler, handlerErrors, type AnnouncedHandler } from '../catalog/handlers.js'
import type { AnyHandlerRegistration } from './types.js'

export class RegistrationError extends Error {
  override name = 'RegistrationError'
}

/** A checked registration with everything the server needs to route and announce it. */
export interface ResolvedHandler {
  registration: AnyHandlerRegistration
  hook: CatalogHook
  /** name is the registered name ('' for the built-in Discovery handler). */
  name: string
  path: string
  announced?: AnnouncedHandler
}

/** Finds the catalog entry of a hook definition: the definition object identifies its group, version and hook. */
export function catalogHookOf (catalog: Catalog, definition: unknown): CatalogHook | undefined {
  const same = catalog.all().find(h => h.definition === definition)
  if (same || typeof definition !== 'object' || definition === null) return same
  // The same definition loaded through another copy of the module (src and dist, two installs): equal schemas.
  const { hook, request, response } = definition as { hook?: unknown, request?: unknown, response?: unknown }
  const candidates = catalog.all().filter(h => h.gvh.hook === hook &&
    JSON.stringify(h.definition.request) === JSON.stringify(request) && JSON.stringify(h.definition.response) === JSON.stringify(response))
  return candidates.length === 1 ? candidates[0] : undefined
}

/**
 * Resolves and checks every registration: names are unique DNS-1123 labels across the whole extension (Cluster API
 * rejects the whole Discovery response otherwise), timeouts 0..30, policies Fail or Ignore, hooks in the catalog,
 * and nobody registers Discovery, which the server answers itself. All problems are reported in one error.
 */
export function resolveHandlers (catalog: Catalog, registrations: readonly AnyHandlerRegistration[]): ResolvedHandler[] {
  if (!Array.isArray(registrations)) throw new RegistrationError('handlers must be an array of handler registrations')
  const errors: string[] = []
  const seen = new Set<string>()
  const resolved: ResolvedHandler[] = []
  for (const [i, registration] of registrations.entries()) {
    const name = typeof registration?.name === 'string' ? registration.name : ''
    const label = name ? `handler ${JSON.stringify(name)}` : `handler #${i}`
    const before = errors.length
    if (typeof registration?.name !== 'string') errors.push(`${label}: name must be a string`)
    if (typeof registration?.handler !== 'function') errors.push(`${label}: handler must be a function`)
    const hookName = (registration?.hook as { hook?: unknown } | undefined)?.hook
    const hook = catalogHookOf(catalog, registration?.hook)
    if (!hook) {
      errors.push(`${label}: hook ${typeof hookName === 'string' ? hookName : '<missing>'} is not a hook definition of catalog "${catalog.name}" (add its group version to the catalog)`)
    } else if (hook.definition.meta.singleton) {
      errors.push(`${label}: ${hook.gvh.hook} is answered by the server from the registered handlers; do not register a handler for it`)
    }
    if (seen.has(name)) errors.push(`${label}: duplicate name; handler names must be unique across the extension, whatever their hook`)
    seen.add(name)
    if (typeof registration?.name === 'string' && hook) {
      const announced: AnnouncedHandler = {
        name,
        requestHook: { apiVersion: hook.apiVersion, hook: hook.gvh.hook },
        ...(registration.timeoutSeconds !== undefined ? { timeoutSeconds: registration.timeoutSeconds } : {}),
        ...(registration.failurePolicy !== undefined ? { failurePolicy: registration.failurePolicy } : {})
      }
      const problems = handlerErrors(catalog, defaultHandler(announced))
      errors.push(...problems.map(p => `${label}: ${p}`))
      if (errors.length === before) resolved.push({ registration, hook, name, path: catalog.path(hook.gvh, name), announced })
    }
  }
  if (errors.length > 0) throw new RegistrationError(`invalid handler registrations:\n  ${errors.join('\n  ')}`)
  return resolved
}
