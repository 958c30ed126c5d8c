// The parts of an ExtensionConfig (runtime.cluster.x-k8s.io/v1beta2) that the runtime client and registry use.

/** ServiceReference points at a Kubernetes Service serving the extension. */
export interface ServiceReference {
  namespace: string
  name: string
  /** path is a prefix for every hook path. */
  path?: string
  /** port defaults to 443. */
  port?: number
}

/** ClientConfig says how to reach an extension: exactly one of url and service, optionally a CA bundle. */
export interface ClientConfig {
  url?: string
  service?: ServiceReference
  /** caBundle is a base64 encoded (standard, padded) PEM CA bundle; the system roots are used when not set. */
  caBundle?: string
}

export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'

export interface LabelSelectorRequirement {
  key: string
  operator: LabelSelectorOperator | string
  values?: string[]
}

/** A Kubernetes label selector: `{}` matches everything, every given requirement must hold. */
export interface LabelSelector {
  matchLabels?: Record<string, string>
  matchExpressions?: LabelSelectorRequirement[]
}

/** A handler registered from a Discovery response, named `<handler>.<ExtensionConfig name>`. */
export interface ExtensionHandlerStatus {
  name: string
  requestHook: { apiVersion: string, hook: string }
  timeoutSeconds?: number
  failurePolicy?: 'Fail' | 'Ignore' | string
}

export interface ExtensionConfigSpec {
  clientConfig: ClientConfig
  namespaceSelector?: LabelSelector
  settings?: Record<string, string>
}

export interface ExtensionConfigStatus {
  handlers?: ExtensionHandlerStatus[]
  conditions?: unknown[]
  [key: string]: unknown
}

export interface ExtensionConfig {
  apiVersion?: string
  kind?: string
  metadata: {
    name: string
    resourceVersion?: string
    generation?: number
    labels?: Record<string, string>
    annotations?: Record<string, string>
    [key: string]: unknown
  }
  spec: ExtensionConfigSpec
  status?: ExtensionConfigStatus
}
