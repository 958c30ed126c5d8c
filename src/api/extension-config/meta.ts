// Schema parts both ExtensionConfig versions share: object metadata, label selectors, conditions (metav1 and
// Cluster API's legacy v1beta1 ones), string maps. Bounds follow Kubernetes where it has them; where it has
// none we choose them (noted per field) so that every string and list is bounded and the CRD's CEL rules
// stay within the API server's cost budget.
import { FAILURE_POLICIES } from '../hooks/v1alpha1/constants.js'
import { Int64, List, Optional, Str, StringEnum, type TProperties, type TSchema } from '../schema/builders.js'
import { Type } from '../../shims/typebox.js'
import {
  keyLengthRule, labelKeyRule, labelKeysRule, labelValueRule, valuesForbiddenRule, valuesRequiredRule
} from './rules.js'
import { withRules } from '../schema/cel-rules.js'

type Doc = { description: string }

/** A string enum, bounded like every other string (CEL cost estimates read maxLength). */
export function Enum<const V extends readonly string[]> (values: V, opts: Doc) {
  return Object.assign(StringEnum(values, opts), { maxLength: Math.max(...values.map(v => v.length)) })
}

/** An object whose unknown fields are errors in validateExtensionConfig (the API server prunes them instead). */
export function Closed<P extends TProperties> (properties: P, opts: Doc & { minProperties?: number }) {
  return Type.Object(properties, { additionalProperties: false, ...opts })
}

/** A list whose items are replaced as a whole by merges (Kubernetes' atomic list type). */
export function AtomicList<T extends TSchema> (items: T, maxItems: number, opts: Doc) {
  return Object.assign(List(items, maxItems, opts), { 'x-kubernetes-list-type': 'atomic' })
}

/** map[string]string with a bound on entries, key length (a rule: CRDs cannot bound keys otherwise) and value length. */
export function StringMap (opts: Doc & { maxProperties: number, maxKeyLength: number, maxValueLength: number }) {
  const { maxProperties, maxKeyLength, maxValueLength, description } = opts
  return withRules(Type.Unsafe<Record<string, string>>({
    type: 'object',
    description,
    maxProperties,
    additionalProperties: Type.String({ maxLength: maxValueLength })
  }), [keyLengthRule(maxKeyLength)])
}

/** Labels maps: keys are qualified names (which bounds them at 317 characters), values label values. */
function LabelMap (opts: Doc & { maxProperties: number }) {
  return withRules(Type.Unsafe<Record<string, string>>({
    type: 'object',
    description: opts.description,
    maxProperties: opts.maxProperties,
    additionalProperties: withRules(Type.String({ maxLength: 63 }), [labelValueRule])
  }), [labelKeysRule])
}

/**
 * metadata as validateExtensionConfig checks it: a name (a DNS-1123 label, see nameRule) and the maps users
 * write; the API server owns everything else. The CRD declares metadata as a bare object, as Kubernetes requires.
 */
export const ObjectMeta = Type.Object({
  name: Str(253, { minLength: 1, description: 'name of the ExtensionConfig, a DNS-1123 label: it becomes the suffix of every handler name.' }),
  labels: Optional(Type.Record(Type.String(), Type.String(), { description: 'labels of the object.' })),
  annotations: Optional(Type.Record(Type.String(), Type.String(), { description: 'annotations of the object, e.g. runtime.cluster.x-k8s.io/inject-ca-from-secret.' }))
}, { additionalProperties: true, description: 'metadata is the standard object metadata.' })

export const LabelSelectorOperator = Enum(['In', 'NotIn', 'Exists', 'DoesNotExist'], {
  description: 'operator is the relationship between the key and the values: In, NotIn, Exists or DoesNotExist.'
})

// Kubernetes does not bound selectors; 64 requirements of up to 256 values are far beyond any real selector.
export const MATCH_EXPRESSIONS_MAX_ITEMS = 64
export const SELECTOR_VALUES_MAX_ITEMS = 256
export const MATCH_LABELS_MAX_PROPERTIES = 64

export const LabelSelectorRequirement = withRules(Closed({
  key: withRules(Str(317, { minLength: 1, description: 'key is the label key the requirement applies to.' }), [labelKeyRule]),
  operator: LabelSelectorOperator,
  values: Optional(AtomicList(withRules(Str(63), [labelValueRule]), SELECTOR_VALUES_MAX_ITEMS, {
    description: 'values are the label values: at least one for In and NotIn, none for Exists and DoesNotExist.'
  }))
}, { description: 'LabelSelectorRequirement is one requirement of a label selector: a key, an operator and values.' }), [valuesRequiredRule, valuesForbiddenRule])

export const LabelSelector = Object.assign(Closed({
  matchLabels: Optional(LabelMap({
    maxProperties: MATCH_LABELS_MAX_PROPERTIES,
    description: 'matchLabels requires each label to have the given value; an entry is a requirement with operator In and one value.'
  })),
  matchExpressions: Optional(AtomicList(LabelSelectorRequirement, MATCH_EXPRESSIONS_MAX_ITEMS, {
    description: 'matchExpressions are requirements that must all hold.'
  }))
}, { description: 'namespaceSelector selects the namespaces whose objects the hooks are called for; the empty selector {} (the default) matches all namespaces.' }),
// Defaulted like Cluster API's webhook does, by the API server and by validateExtensionConfig.
{ 'x-kubernetes-map-type': 'atomic', default: {} })

/** metav1.Condition with the constraints Kubernetes puts on it. */
export const Condition = Type.Object({
  type: Str(316, {
    pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
    description: 'type of the condition in CamelCase or in foo.example.com/CamelCase, e.g. Discovered or Paused.'
  }),
  status: Enum(['True', 'False', 'Unknown'], { description: 'status of the condition: True, False or Unknown.' }),
  observedGeneration: Optional(Int64({ minimum: 0, description: 'observedGeneration is the metadata.generation the condition was set for.' })),
  lastTransitionTime: Type.String({ format: 'date-time', maxLength: 64, description: 'lastTransitionTime is when the status last changed (RFC 3339).' }),
  reason: Str(1024, {
    minLength: 1,
    pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
    description: 'reason is a CamelCase identifier of the cause of the last transition.'
  }),
  message: Str(32768, { description: 'message is a human readable description of the transition; it may be empty.' })
}, { description: 'Condition is one aspect of the current state of the object (metav1.Condition).' })

/** Cluster API's v1beta1 condition, kept in the deprecated status fields. */
export const V1Beta1Condition = Type.Object({
  type: Str(256, { minLength: 1, description: 'type of the condition in CamelCase or in foo.example.com/CamelCase.' }),
  // Cluster API does not restrict status and severity with enums; observed values are kept as written.
  status: Str(16, { minLength: 1, description: 'status of the condition: True, False or Unknown.' }),
  severity: Optional(Str(32, { description: 'severity classifies a False condition: Error, Warning or Info.' })),
  lastTransitionTime: Type.String({ format: 'date-time', maxLength: 64, description: 'lastTransitionTime is when the status last changed (RFC 3339).' }),
  reason: Optional(Str(256, { minLength: 1, description: 'reason is a CamelCase identifier of the cause of the last transition.' })),
  message: Optional(Str(10240, { minLength: 1, description: 'message is a human readable description of the transition.' }))
}, { description: 'V1Beta1Condition is a Cluster API v1beta1 condition (deprecated).' })

/** Kubernetes does not bound metav1 condition lists of other kinds; Cluster API bounds these at 32. */
export const CONDITIONS_MAX_ITEMS = 32

export const Conditions = List(Condition, CONDITIONS_MAX_ITEMS, {
  mapKeys: ['type'],
  description: 'conditions are the observations of the ExtensionConfig\'s state; known types are Discovered and Paused.'
})

/** Legacy conditions are not bounded by Cluster API; the controller writes one (Discovered). */
export const V1Beta1Conditions = List(V1Beta1Condition, CONDITIONS_MAX_ITEMS, {
  description: 'conditions are the v1beta1 (legacy) conditions of the ExtensionConfig.'
})

export const GroupVersionHook = Type.Object({
  apiVersion: Str(512, { minLength: 1, description: 'apiVersion is the group and version of the hook, e.g. hooks.runtime.cluster.x-k8s.io/v1alpha1.' }),
  hook: Str(256, { minLength: 1, description: 'hook is the name of the hook, e.g. BeforeClusterCreate.' })
}, { description: 'requestHook is the versioned hook the handler serves.' })

export const FailurePolicy = Enum(FAILURE_POLICIES, {
  description: 'failurePolicy says how a client treats failed calls to the handler: Fail (the default) or Ignore.'
})

// Settings are free form; Cluster API does not bound them. These bounds keep an object far below etcd's limit.
export const SETTINGS_MAX_PROPERTIES = 128
export const SETTINGS_MAX_KEY_LENGTH = 256
export const SETTINGS_MAX_VALUE_LENGTH = 4096

export const Settings = StringMap({
  maxProperties: SETTINGS_MAX_PROPERTIES,
  maxKeyLength: SETTINGS_MAX_KEY_LENGTH,
  maxValueLength: SETTINGS_MAX_VALUE_LENGTH,
  description: 'settings are key value pairs passed to every call to the extension\'s handlers; a ClusterClass can override them.'
})

/** Type information shared by both versions. */
export function typeMeta (apiVersion: string) {
  return {
    apiVersion: Optional(Str(317, { description: `apiVersion is ${apiVersion}.` })),
    kind: Optional(Str(63, { description: 'kind is ExtensionConfig.' }))
  }
}
