// Rules for extension handlers shared by servers (checked at registration) and clients (checked on discovery).
import { DEFAULT_HANDLER_TIMEOUT_SECONDS, FAILURE_POLICIES, MAX_HANDLER_TIMEOUT_SECONDS } from '../api/hooks/v1alpha1/constants.js'
import { DNS1123_LABEL_MESSAGE, DNS1123_LABEL_PATTERN } from '../api/extension-config/rules.js'
import type { FailurePolicy } from '../api/hooks/v1alpha1/types.generated.js'
import type { Catalog } from './catalog.js'
import { parseApiVersion } from './identity.js'

/** Request and response bodies larger than this are refused on both sides (Cluster API v1.14). */
export const MAX_BODY_BYTES = 20 * 1024 * 1024

/** A handler as an extension announces it in its Discovery response. */
export interface AnnouncedHandler {
  /** name of the handler, a DNS-1123 label unique within the extension. */
  name: string
  /** requestHook is the hook version the handler implements. */
  requestHook: {
    /** apiVersion is the hook's group and version, e.g. hooks.runtime.cluster.x-k8s.io/v1alpha1. */
    apiVersion: string
    /** hook is the hook's name, e.g. BeforeClusterCreate. */
    hook: string
  }
  /** timeoutSeconds bounds each call, 0 to 30; 10 when not set. */
  timeoutSeconds?: number
  /** failurePolicy is Fail (when not set) or Ignore: whether a failed call fails the hook or is ignored. */
  failurePolicy?: string
}

/** A handler after defaulting: timeout and failure policy always set. */
export interface Handler {
  /** name of the handler, a DNS-1123 label unique within the extension. */
  name: string
  /** requestHook is the hook version the handler implements. */
  requestHook: {
    /** apiVersion is the hook's group and version, e.g. hooks.runtime.cluster.x-k8s.io/v1alpha1. */
    apiVersion: string
    /** hook is the hook's name, e.g. BeforeClusterCreate. */
    hook: string
  }
  /** timeoutSeconds bounds each call, 0 to 30 (10 when the extension did not say). */
  timeoutSeconds: number
  /** failurePolicy is Fail (when the extension did not say) or Ignore. */
  failurePolicy: FailurePolicy
}

const DNS1123_LABEL = new RegExp(DNS1123_LABEL_PATTERN)

/** The problems with a DNS-1123 label, worded like Kubernetes' validation (empty when valid). */
export function dns1123LabelErrors (value: string): string[] {
  const errors: string[] = []
  if (value.length > 63) errors.push('must be no more than 63 characters')
  if (!DNS1123_LABEL.test(value)) {
    errors.push(DNS1123_LABEL_MESSAGE)
  }
  return errors
}

/** Applies Discovery defaults: timeout 10 seconds, failure policy Fail. */
export function defaultHandler (handler: AnnouncedHandler): AnnouncedHandler & { timeoutSeconds: number, failurePolicy: string } {
  return {
    ...handler,
    timeoutSeconds: handler.timeoutSeconds ?? DEFAULT_HANDLER_TIMEOUT_SECONDS,
    failurePolicy: handler.failurePolicy ?? 'Fail'
  }
}

/** Every problem with one (defaulted) handler, in the words Cluster API's discovery uses. */
export function handlerErrors (catalog: Catalog, handler: AnnouncedHandler & { timeoutSeconds: number, failurePolicy: string }): string[] {
  const { name, timeoutSeconds, failurePolicy, requestHook } = handler
  const errors: string[] = []
  const nameErrors = dns1123LabelErrors(name)
  if (nameErrors.length > 0) errors.push(`handler name ${name} is not valid: [${nameErrors.join(', ')}]`)
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 0 || timeoutSeconds > MAX_HANDLER_TIMEOUT_SECONDS) {
    errors.push(`handler ${name} timeoutSeconds ${timeoutSeconds} must be between 0 and ${MAX_HANDLER_TIMEOUT_SECONDS}`)
  }
  if (!FAILURE_POLICIES.includes(failurePolicy as FailurePolicy)) errors.push(`handler ${name} failurePolicy ${failurePolicy} must equal "Ignore" or "Fail"`)
  let gv: { group: string, version: string } | undefined
  try {
    gv = parseApiVersion(requestHook.apiVersion)
  } catch (err) {
    errors.push(`handler ${name} requestHook APIVersion ${requestHook.apiVersion} is not valid: ${(err as Error).message}`)
  }
  if (gv && !catalog.has({ ...gv, hook: requestHook.hook })) {
    errors.push(`handler ${name} requestHook ${requestHook.apiVersion}/${requestHook.hook} is not in the Runtime SDK catalog`)
  }
  return errors
}

/**
 * Defaults and validates the handlers of a Discovery response like Cluster API does: names unique DNS-1123
 * labels, timeouts 0..30, policies Fail or Ignore, hooks known to the catalog. Errors are aggregated.
 */
export function validateDiscoveredHandlers (catalog: Catalog, announced: readonly AnnouncedHandler[]): { handlers: Handler[] } | { error: string } {
  const errors: string[] = []
  const seen = new Set<string>()
  const handlers = announced.map(defaultHandler)
  for (const handler of handlers) {
    if (seen.has(handler.name)) errors.push(`duplicate name for handler ${handler.name} found`)
    seen.add(handler.name)
    errors.push(...handlerErrors(catalog, handler))
  }
  if (errors.length === 1) return { error: `failed to validate discovery response: ${errors[0]}` }
  if (errors.length > 1) return { error: `failed to validate discovery response: [${errors.join(', ')}]` }
  return { handlers: handlers as Handler[] }
}
