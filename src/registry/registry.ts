// The registry of extension handlers: every handler of every discovered ExtensionConfig, by registered name.
import { codedError } from '../errors/index.js'
import type { ClientConfig, ExtensionConfig, LabelSelector } from '../api/extension-config/types.js'
import { DEFAULT_HANDLER_TIMEOUT_SECONDS } from '../api/hooks/v1alpha1/constants.js'
import type { FailurePolicy } from '../api/hooks/v1alpha1/types.generated.js'
import { type GroupVersionHook, parseApiVersion } from '../catalog/identity.js'
import { labelSelectorErrors } from './selector.js'

/** One registered handler (Cluster API's ExtensionRegistration). */
export interface ExtensionRegistration {
  /** name is `<handler>.<ExtensionConfig name>`. */
  name: string
  /** handlerName is the short name the extension serves the handler at. */
  handlerName: string
  /** extensionConfigName is the name of the ExtensionConfig the handler was discovered from. */
  extensionConfigName: string
  /** extensionConfigResourceVersion is that ExtensionConfig's metadata.resourceVersion when it was registered ('' if it had none). */
  extensionConfigResourceVersion: string
  /** gvh is the hook version the handler implements. */
  gvh: GroupVersionHook
  /** namespaceSelector undefined matches no namespace; `{}` matches all. */
  namespaceSelector: LabelSelector | undefined
  /** clientConfig says how to reach the extension (the ExtensionConfig's spec.clientConfig). */
  clientConfig: ClientConfig
  /** timeoutSeconds is 10 when the handler did not declare one (or declared 0). */
  timeoutSeconds: number
  /** failurePolicy is Fail (the default) or Ignore: whether a failed call fails the hook or is ignored. */
  failurePolicy: FailurePolicy
  /** settings are the ExtensionConfig's spec.settings, sent with every call to the handler. */
  settings: Record<string, string>
}

/** A registry used before warmUp, a handler it does not have, or an ExtensionConfig whose handlers cannot be registered. */
export class RegistryError extends codedError('ERR_RUNTIME_SDK_REGISTRY') {}

/** `<handler>.<ExtensionConfig name>`. */
export function nameForHandler (handlerName: string, extensionConfigName: string): string {
  return `${handlerName}.${extensionConfigName}`
}

/** The ExtensionConfig name of a registered handler name. */
export function extensionNameFromHandlerName (registeredName: string): string {
  const parts = registeredName.split('.')
  if (parts.length !== 2) throw new RegistryError(`registered handler name ${registeredName} was not in the expected format (\`HANDLER_NAME.EXTENSION_NAME)`)
  return parts[1] as string
}

function clone<T> (value: T): T {
  return value === undefined ? value : structuredClone(value)
}

/** The registrations of one ExtensionConfig; throws (aggregated) when any handler cannot be registered. */
export function registrationsOf (ec: ExtensionConfig): ExtensionRegistration[] {
  const ecName = ec.metadata.name
  const errors: string[] = []
  const selector = ec.spec.namespaceSelector
  if (selector) {
    const selectorErrors = labelSelectorErrors(selector)
    if (selectorErrors.length > 0) throw new RegistryError(`failed to add ExtensionConfig "${ecName}": invalid namespaceSelector: ${join(selectorErrors)}`)
  }
  const registrations: ExtensionRegistration[] = []
  const suffix = `.${ecName}`
  // One copy per ExtensionConfig, shared by its handlers (read only): a thousand ExtensionConfigs of sixteen
  // handlers would otherwise hold sixteen copies of every CA bundle.
  const namespaceSelector = clone(selector)
  const clientConfig = clone(ec.spec.clientConfig)
  const settings = { ...ec.spec.settings }
  for (const handler of ec.status?.handlers ?? []) {
    let gv: { group: string, version: string }
    try {
      gv = parseApiVersion(handler.requestHook.apiVersion)
    } catch (err) {
      errors.push(`failed to parse GroupVersion of handler "${handler.name}": ${(err as Error).message}`)
      continue
    }
    const policy = handler.failurePolicy ?? 'Fail'
    if (policy !== 'Fail' && policy !== 'Ignore' && policy !== '') {
      errors.push(`handler "${handler.name}" has an invalid failurePolicy "${policy}"`)
      continue
    }
    registrations.push({
      name: handler.name,
      handlerName: handler.name.endsWith(suffix) ? handler.name.slice(0, -suffix.length) : handler.name,
      extensionConfigName: ecName,
      extensionConfigResourceVersion: ec.metadata.resourceVersion ?? '',
      gvh: { ...gv, hook: handler.requestHook.hook },
      namespaceSelector,
      clientConfig,
      timeoutSeconds: handler.timeoutSeconds || DEFAULT_HANDLER_TIMEOUT_SECONDS,
      failurePolicy: policy === 'Ignore' ? 'Ignore' : 'Fail',
      settings
    })
  }
  if (errors.length > 0) throw new RegistryError(join(errors))
  return registrations
}

function join (errors: string[]): string {
  return errors.length === 1 ? errors[0] as string : `[${errors.join(', ')}]`
}

/**
 * In-memory registry of handlers, gated by a warm-up. Unlike Cluster API, replacing an ExtensionConfig is
 * atomic: a failed add keeps its previous handlers.
 */
export class ExtensionRegistry {
  #items = new Map<string, ExtensionRegistration>()
  #ready = false
  #resolveReady!: () => void
  readonly #readyPromise = new Promise<void>(resolve => { this.#resolveReady = resolve })

  /** Registers the handlers of every ExtensionConfig and marks the registry ready; all or nothing. */
  warmUp (list: readonly ExtensionConfig[] | undefined | null): void {
    if (list == null) throw new RegistryError('invalid argument: when calling WarmUp extensionConfigList must not be nil')
    if (this.#ready) throw new RegistryError('invalid operation: WarmUp cannot be called on a registry which has already been warmed up')
    const items = new Map<string, ExtensionRegistration>()
    const errors: string[] = []
    for (const ec of list) {
      try {
        for (const r of registrationsOf(ec)) items.set(r.name, r)
      } catch (err) {
        errors.push((err as Error).message)
      }
    }
    if (errors.length > 0) throw new RegistryError(join(errors))
    this.#items = items
    this.#ready = true
    this.#resolveReady()
  }

  /** Whether warmUp succeeded: until then only warmUp may be called. */
  isReady (): boolean {
    return this.#ready
  }

  /** Resolves once warmUp succeeded. */
  ready (): Promise<void> {
    return this.#readyPromise
  }

  /** Adds or replaces the handlers of an ExtensionConfig atomically. */
  add (ec: ExtensionConfig | undefined | null): void {
    if (ec == null) throw new RegistryError('invalid argument: when calling Add extensionConfig must not be nil')
    if (!this.#ready) throw new RegistryError('invalid operation: Add cannot be called on a registry which has not been warmed up')
    const registrations = registrationsOf(ec)
    this.#removeByExtensionConfig(ec.metadata.name)
    for (const r of registrations) this.#items.set(r.name, r)
  }

  /** Removes every handler of an ExtensionConfig. */
  remove (ec: ExtensionConfig | undefined | null): void {
    if (ec == null) throw new RegistryError('invalid argument: when calling Remove extensionConfig must not be nil')
    if (!this.#ready) throw new RegistryError('invalid operation: Remove cannot be called on a registry which has not been warmed up')
    this.#removeByExtensionConfig(ec.metadata.name)
  }

  /** Every handler of a group and hook, in any version, ordered by name. */
  list ({ group, hook }: { group: string, hook: string }): ExtensionRegistration[] {
    if (!group || !hook) throw new RegistryError('invalid argument: when calling List gh.Group and gh.Hook must not be empty')
    if (!this.#ready) throw new RegistryError('invalid operation: List cannot be called on a registry which has not been warmed up')
    return [...this.#items.values()]
      .filter(r => r.gvh.group === group && r.gvh.hook === hook)
      .sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  }

  /** The handler registered as `name` (`<handler>.<ExtensionConfig name>`); throws RegistryError when there is none. */
  get (name: string): ExtensionRegistration {
    if (!this.#ready) throw new RegistryError('invalid operation: Get cannot be called on a registry not yet ready')
    const r = this.#items.get(name)
    if (!r) throw new RegistryError(`handler with name "${name}" has not been registered`)
    return r
  }

  /** Every registered handler, ordered by name. */
  all (): ExtensionRegistration[] {
    return [...this.#items.values()].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  }

  #removeByExtensionConfig (name: string): void {
    for (const [key, r] of this.#items) if (r.extensionConfigName === name) this.#items.delete(key)
  }
}
