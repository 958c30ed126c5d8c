export { extensionNameFromHandlerName, type ExtensionRegistration, nameForHandler, registrationsOf, Registry, RegistryError } from './registry.js'
export { isEmptySelector, labelSelectorErrors, type Labels, matchesSelector } from './selector.js'
