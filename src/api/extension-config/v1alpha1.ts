// ExtensionConfig runtime.cluster.x-k8s.io/v1alpha1: served, deprecated, converted to and from v1beta2
// (api/runtime/v1alpha1/extensionconfig_types.go in Cluster API). Same spec fields and rules as v1beta2;
// the status keeps the legacy conditions in `conditions` and the metav1 ones in `v1beta2.conditions`.
import { Int32, List, Optional, Str, type Static } from '../schema/builders.js'
import { Type } from '../../shims/typebox.js'
import { V1ALPHA1_API_VERSION } from './constants.js'
import { nameRule, notUrlAndServiceRule, specRequiredRule, urlOrServiceRule } from './rules.js'
import {
  Closed, Conditions, FailurePolicy, GroupVersionHook, LabelSelector, ObjectMeta, Settings, typeMeta, V1Beta1Conditions
} from './meta.js'
import { withRules } from '../schema/cel-rules.js'
import { clientConfigProperties, HANDLERS_MAX_ITEMS } from './v1beta2.js'

export const ClientConfig = withRules(Closed(clientConfigProperties, {
  description: 'clientConfig says how to reach the extension: exactly one of url and service, and optionally a CA bundle.'
}), [urlOrServiceRule, notUrlAndServiceRule])

export const ExtensionConfigSpec = Closed({
  clientConfig: ClientConfig,
  namespaceSelector: Optional(LabelSelector),
  settings: Optional(Settings)
}, { description: 'spec is the desired state of the ExtensionConfig.' })

export const ExtensionHandler = Type.Object({
  name: Str(512, { minLength: 1, description: 'name of the handler as registered: <handler name>.<ExtensionConfig name>.' }),
  requestHook: GroupVersionHook,
  timeoutSeconds: Optional(Int32({ description: 'timeoutSeconds bounds each call to the handler; 10 when not set.' })),
  failurePolicy: Optional(FailurePolicy)
}, { description: 'ExtensionHandler is a handler the extension announced in its Discovery response.' })

export const ExtensionConfigStatus = Type.Object({
  handlers: Optional(List(ExtensionHandler, HANDLERS_MAX_ITEMS, {
    mapKeys: ['name'],
    description: 'handlers are the handlers discovered from the extension.'
  })),
  conditions: Optional(V1Beta1Conditions),
  v1beta2: Optional(Type.Object({
    conditions: Optional(Conditions)
  }, { description: 'v1beta2 holds the status fields of the v1beta2 version, here the metav1 conditions.' }))
}, { description: 'status is the observed state of the ExtensionConfig, written by its controller.' })

export const ExtensionConfig = withRules(Closed({
  ...typeMeta(V1ALPHA1_API_VERSION),
  metadata: ObjectMeta,
  spec: Optional(ExtensionConfigSpec),
  status: Optional(ExtensionConfigStatus)
}, { description: 'ExtensionConfig registers a Runtime Extension (deprecated version: use v1beta2).' }), [nameRule, specRequiredRule])

export type V1Alpha1ClientConfig = Static<typeof ClientConfig>
export type V1Alpha1ExtensionConfigSpec = Static<typeof ExtensionConfigSpec>
export type V1Alpha1ExtensionHandler = Static<typeof ExtensionHandler>
export type V1Alpha1ExtensionConfigStatus = Static<typeof ExtensionConfigStatus>
export type V1Alpha1ExtensionConfig = Static<typeof ExtensionConfig>
