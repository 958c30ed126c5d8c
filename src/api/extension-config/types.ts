// The ExtensionConfig (runtime.cluster.x-k8s.io/v1beta2) as TypeScript types: the schemas in v1beta2.ts and meta.ts
// written out field by field, so that each field carries its documentation (test/api/extension-config/types.test.ts
// checks that they stay the schemas' types). The runtime client and registry also handle objects that never passed
// validation (built in code, read from files, written by other controllers), so a few fields are widened to what they
// check at run time: selector operators, failure policies and observed conditions.
import type { ObjectMeta } from '../kube-object.js'

/** ServiceReference refers to the Kubernetes Service of an extension running in the cluster. */
export type ServiceReference = {
  /** namespace of the Service, a DNS-1123 label. */
  namespace: string
  /** name of the Service, a DNS-1035 label. */
  name: string
  /** path is a URL path put in front of every hook path, e.g. /runtime-sdk. */
  path?: string
  /** port of the Service serving the extension, 1 to 65535; 443 when not set. */
  port?: number
}

/** ClientConfig says how to reach an extension: exactly one of url and service, and optionally a CA bundle. */
export type ClientConfig = {
  /**
   * url is the location of an extension outside the cluster, https://host[:port][/path]; the path prefixes every hook
   * path. User info, query parameters and fragments are not allowed. Exactly one of url and service is set.
   */
  url?: string
  /** service is the Kubernetes Service of an extension in the cluster. Exactly one of url and service is set. */
  service?: ServiceReference
  /** caBundle is the PEM CA bundle (base64 encoded) that verifies the extension's serving certificate; the system roots are used when not set. */
  caBundle?: string
}

/** The relationship between a label selector requirement's key and values. */
export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'

/** One requirement of a label selector: a key, an operator and values. */
export type LabelSelectorRequirement = {
  /** key is the label key the requirement applies to. */
  key: string
  /** operator is checked when a selector is used; an unknown one matches nothing (editors still suggest the known ones). */
  operator: LabelSelectorOperator | (string & {})
  /** values are the label values: at least one for In and NotIn, none for Exists and DoesNotExist. */
  values?: string[]
}

/** A Kubernetes label selector: `{}` matches everything, every given requirement must hold. */
export type LabelSelector = {
  /** matchLabels requires each label to have the given value; an entry is a requirement with operator In and one value. */
  matchLabels?: Record<string, string>
  /** matchExpressions are requirements that must all hold. */
  matchExpressions?: LabelSelectorRequirement[]
}

/** A handler registered from a Discovery response, named `<handler>.<ExtensionConfig name>`. */
export type ExtensionHandlerStatus = {
  /** name of the handler as registered: `<handler name>.<ExtensionConfig name>`. */
  name: string
  /** requestHook is the versioned hook the handler serves. */
  requestHook: {
    /** apiVersion is the group and version of the hook, e.g. hooks.runtime.cluster.x-k8s.io/v1alpha1. */
    apiVersion: string
    /** hook is the name of the hook, e.g. BeforeClusterCreate. */
    hook: string
  }
  /** timeoutSeconds bounds each call to the handler; 10 when not set. */
  timeoutSeconds?: number
  /** failurePolicy is Fail or Ignore; the registry rejects other values. */
  failurePolicy?: 'Fail' | 'Ignore' | (string & {})
}

/** ExtensionConfigSpec is the desired state of an ExtensionConfig. */
export type ExtensionConfigSpec = {
  /** clientConfig says how to reach the extension. */
  clientConfig: ClientConfig
  /** namespaceSelector selects the namespaces whose objects the hooks are called for; the empty selector {} (the default) matches all namespaces. */
  namespaceSelector?: LabelSelector
  /** settings are key value pairs passed to every call to the extension's handlers; a ClusterClass can override them. */
  settings?: Record<string, string>
}

/** metav1.Condition, as the controller writes it: one aspect of the current state of the object. */
export type Condition = {
  /** type of the condition in CamelCase or in foo.example.com/CamelCase, e.g. Discovered or Paused. */
  type: string
  /** status of the condition: True, False or Unknown. */
  status: 'True' | 'False' | 'Unknown'
  /** observedGeneration is the metadata.generation the condition was set for. */
  observedGeneration?: number
  /** lastTransitionTime is when the status last changed (RFC 3339). */
  lastTransitionTime: string
  /** reason is a CamelCase identifier of the cause of the last transition. */
  reason: string
  /** message is a human readable description of the transition; it may be empty. */
  message: string
}

/** Cluster API's legacy v1beta1 condition (status.deprecated.v1beta1.conditions). */
export type V1Beta1Condition = {
  /** type of the condition in CamelCase or in foo.example.com/CamelCase. */
  type: string
  /** status of the condition: True, False or Unknown. */
  status: string
  /** severity classifies a False condition: Error, Warning or Info. */
  severity?: string
  /** lastTransitionTime is when the status last changed (RFC 3339). */
  lastTransitionTime: string
  /** reason is a CamelCase identifier of the cause of the last transition. */
  reason?: string
  /** message is a human readable description of the transition. */
  message?: string
}

/** A condition as read back: other writers (and hand-written files) may leave fields out. */
export type ObservedCondition = Partial<Condition> & {
  /** type of the condition, the one field every condition has. */
  type: string
}
/** A legacy v1beta1 condition as read back: other writers (and hand-written files) may leave fields out. */
export type ObservedV1Beta1Condition = Partial<V1Beta1Condition> & {
  /** type of the condition, the one field every condition has. */
  type: string
}

/** The status the controller writes. */
export type ExtensionConfigStatus = {
  /** conditions are the observations of the ExtensionConfig's state; known types are Discovered and Paused. */
  conditions?: Condition[]
  /** handlers are the handlers discovered from the extension. */
  handlers?: ExtensionHandlerStatus[]
  /** deprecated holds status fields that will be removed in a future version. */
  deprecated?: {
    /** v1beta1 holds the status fields of Cluster API v1beta1 (deprecated). */
    v1beta1?: {
      /** conditions are the v1beta1 (legacy) conditions of the ExtensionConfig. */
      conditions?: V1Beta1Condition[]
    }
  }
}

/** A status as read: what ExtensionConfigStatus allows, partial conditions, and fields we do not know. */
export type ObservedExtensionConfigStatus = {
  /** conditions are the observations of the ExtensionConfig's state; known types are Discovered and Paused. */
  conditions?: ObservedCondition[]
  /** handlers are the handlers discovered from the extension. */
  handlers?: ExtensionHandlerStatus[]
  /** deprecated holds status fields that will be removed in a future version. */
  deprecated?: {
    /** v1beta1 holds the status fields of Cluster API v1beta1 (deprecated). */
    v1beta1?: {
      /** conditions are the v1beta1 (legacy) conditions of the ExtensionConfig. */
      conditions?: ObservedV1Beta1Condition[]
    }
  }
  /** Fields of other writers are kept as read. */
  [key: string]: unknown
}

export type { ObjectMeta }

/** An ExtensionConfig (runtime.cluster.x-k8s.io/v1beta2): registers a Runtime Extension, how to reach it and which namespaces its hooks apply to. */
export type ExtensionConfig = {
  /** apiVersion is runtime.cluster.x-k8s.io/v1beta2. */
  apiVersion?: string
  /** kind is ExtensionConfig. */
  kind?: string
  /** metadata is the standard object metadata; name becomes the suffix of every handler name. */
  metadata: ObjectMeta & {
    /** name of the ExtensionConfig, a DNS-1123 label. */
    name: string
  }
  /** spec is the desired state of the ExtensionConfig. */
  spec: ExtensionConfigSpec
  /** status is the observed state of the ExtensionConfig, written by its controller. */
  status?: ObservedExtensionConfigStatus
}
