// The registry: the handlers of every ExtensionConfig as discovered, named `<handler>.<ExtensionConfig>`, looked up
// by hook (registry.ts), and label selectors matching namespaces (selector.ts).
export { extensionNameFromHandlerName, type ExtensionRegistration, nameForHandler, registrationsOf, ExtensionRegistry, RegistryError } from './registry.js'
export { isEmptySelector, labelSelectorErrors, type Labels, matchesSelector } from './selector.js'
