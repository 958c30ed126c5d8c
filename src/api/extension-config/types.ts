// The ExtensionConfig (runtime.cluster.x-k8s.io/v1beta2) as TypeScript types, derived from the schemas in
// v1beta2.ts and meta.ts. The runtime client and registry also handle objects that never passed validation
// (built in code, read from files, written by other controllers), so a few fields are widened to what they
// check at run time: selector operators, failure policies and observed conditions.
import type { Static } from '../schema/builders.js'
import type * as meta from './meta.js'
import type * as v1beta2 from './v1beta2.js'
import type { ObjectMeta } from '../kube-object.js'

/** Any string, while editors still suggest the known values. */
type Open<T extends string> = T | (string & {})

export type ServiceReference = v1beta2.V1Beta2ServiceReference
export type ClientConfig = v1beta2.V1Beta2ClientConfig

export type LabelSelectorOperator = Static<typeof meta.LabelSelectorOperator>

export type LabelSelectorRequirement = Omit<Static<typeof meta.LabelSelectorRequirement>, 'operator'> & {
  /** operator is checked when a selector is used; an unknown one matches nothing. */
  operator: Open<LabelSelectorOperator>
}

/** A Kubernetes label selector: `{}` matches everything, every given requirement must hold. */
export type LabelSelector = Omit<Static<typeof meta.LabelSelector>, 'matchExpressions'> & {
  matchExpressions?: LabelSelectorRequirement[]
}

/** A handler registered from a Discovery response, named `<handler>.<ExtensionConfig name>`. */
export type ExtensionHandlerStatus = Omit<v1beta2.V1Beta2ExtensionHandler, 'failurePolicy'> & {
  /** failurePolicy is Fail or Ignore; the registry rejects other values. */
  failurePolicy?: Open<'Fail' | 'Ignore'>
}

export type ExtensionConfigSpec = Omit<v1beta2.V1Beta2ExtensionConfigSpec, 'namespaceSelector'> & {
  namespaceSelector?: LabelSelector
}

/** metav1.Condition, as the controller writes it. */
export type Condition = Static<typeof meta.Condition>
/** Cluster API's legacy v1beta1 condition (status.deprecated.v1beta1.conditions). */
export type V1Beta1Condition = Static<typeof meta.V1Beta1Condition>

/** A condition as read back: other writers (and hand-written files) may leave fields out. */
export type ObservedCondition = Partial<Condition> & { type: string }
export type ObservedV1Beta1Condition = Partial<V1Beta1Condition> & { type: string }

/** The status the controller writes. */
export type ExtensionConfigStatus = {
  conditions?: Condition[]
  handlers?: ExtensionHandlerStatus[]
  deprecated?: { v1beta1?: { conditions?: V1Beta1Condition[] } }
}

/** A status as read: what ExtensionConfigStatus allows, partial conditions, and fields we do not know. */
export type ObservedExtensionConfigStatus = {
  conditions?: ObservedCondition[]
  handlers?: ExtensionHandlerStatus[]
  deprecated?: { v1beta1?: { conditions?: ObservedV1Beta1Condition[] } }
  [key: string]: unknown
}

export type { ObjectMeta }

export type ExtensionConfig = {
  apiVersion?: string
  kind?: string
  metadata: ObjectMeta & { name: string }
  spec: ExtensionConfigSpec
  status?: ObservedExtensionConfigStatus
}
