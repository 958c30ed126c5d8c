// ExtensionConfigs as the registry holds them after discovery, for tests and benchmarks that skip discovery.
import type { ExtensionConfig } from '../../src/api/extension-config/types.js'

export interface HandlerSpec {
  name: string
  hook: string
  apiVersion?: string
  timeoutSeconds?: number
  failurePolicy?: 'Fail' | 'Ignore'
}

/** An ExtensionConfig as registered after discovery: handlers already named `<handler>.<ec>`. */
export function extensionConfig (name: string, url: string, caBundle: string | undefined, handlers: HandlerSpec[], extra: Partial<ExtensionConfig['spec']> = {}): ExtensionConfig {
  return {
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name, resourceVersion: '1' },
    spec: { clientConfig: { url, ...(caBundle ? { caBundle } : {}) }, namespaceSelector: {}, ...extra },
    status: {
      handlers: handlers.map(h => ({
        name: `${h.name}.${name}`,
        requestHook: { apiVersion: h.apiVersion ?? 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: h.hook },
        ...(h.timeoutSeconds !== undefined ? { timeoutSeconds: h.timeoutSeconds } : {}),
        failurePolicy: h.failurePolicy ?? 'Fail'
      }))
    }
  }
}
