// ExtensionConfig runtime.cluster.x-k8s.io/v1beta2: the hub and storage version
// (api/runtime/v1beta2/extensionconfig_types.go in Cluster API).
import { Int32, List, Optional, Str, type Static } from '../schema/builders.js'
import { Type } from '../../shims/typebox.js'
import { V1BETA2_API_VERSION } from './constants.js'
import {
  nameRule, notUrlAndServiceRule, serviceNameRule, serviceNamespaceRule, servicePathSlashRule, servicePathValidRule,
  servicePortRule, urlHttpsRule, urlNoFragmentRule, urlNoQueryRule, urlNoUserInfoRule, urlOrServiceRule, urlValidRule
} from './rules.js'
import {
  Closed, Conditions, FailurePolicy, GroupVersionHook, LabelSelector, ObjectMeta, Settings, typeMeta, V1Beta1Conditions
} from './meta.js'
import { withRules } from '../schema/cel-rules.js'

export const DEFAULT_SERVICE_PORT = 443

export const ServiceReference = Closed({
  namespace: withRules(Str(63, { minLength: 1, description: 'namespace of the Service, a DNS-1123 label.' }), [serviceNamespaceRule]),
  name: withRules(Str(63, { minLength: 1, description: 'name of the Service, a DNS-1035 label.' }), [serviceNameRule]),
  path: Optional(withRules(Str(512, {
    minLength: 1,
    description: 'path is a URL path put in front of every hook path, e.g. /runtime-sdk.'
  }), [servicePathValidRule, servicePathSlashRule])),
  port: Optional(withRules(Int32({ default: DEFAULT_SERVICE_PORT, description: 'port of the Service serving the extension, 1 to 65535; 443 when not set.' }), [servicePortRule]))
}, { description: 'service refers to the Kubernetes Service of an extension running in the cluster.' })

/** The ClientConfig's fields; v1alpha1 has the same ones without the minProperties bound. */
export const clientConfigProperties = {
  url: Optional(withRules(Str(512, {
    minLength: 1,
    description: 'url is the location of an extension outside the cluster, https://host[:port][/path]; the path prefixes every hook path. ' +
      'User info, query parameters and fragments are not allowed. Exactly one of url and service is set.'
  }), [urlValidRule, urlHttpsRule, urlNoUserInfoRule, urlNoQueryRule, urlNoFragmentRule])),
  service: Optional(ServiceReference),
  caBundle: Optional(Type.String({
    format: 'byte',
    minLength: 1,
    maxLength: 51200,
    description: 'caBundle is the PEM CA bundle (base64 encoded) that verifies the extension\'s serving certificate; the system roots are used when not set.'
  }))
}

export const ClientConfig = withRules(Closed(clientConfigProperties, {
  minProperties: 1,
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
  timeoutSeconds: Optional(Int32({ minimum: 1, description: 'timeoutSeconds bounds each call to the handler; 10 when not set.' })),
  failurePolicy: Optional(FailurePolicy)
}, { description: 'ExtensionHandler is a handler the extension announced in its Discovery response.' })

export const HANDLERS_MAX_ITEMS = 512

export const ExtensionConfigStatus = Type.Object({
  conditions: Optional(Conditions),
  handlers: Optional(List(ExtensionHandler, HANDLERS_MAX_ITEMS, {
    mapKeys: ['name'],
    description: 'handlers are the handlers discovered from the extension.'
  })),
  deprecated: Optional(Type.Object({
    v1beta1: Optional(Type.Object({
      conditions: Optional(V1Beta1Conditions)
    }, { description: 'v1beta1 holds the status fields of Cluster API v1beta1 (deprecated).' }))
  }, { description: 'deprecated holds status fields that will be removed in a future version.' }))
}, { minProperties: 1, description: 'status is the observed state of the ExtensionConfig, written by its controller.' })

export const ExtensionConfig = withRules(Closed({
  ...typeMeta(V1BETA2_API_VERSION),
  metadata: ObjectMeta,
  spec: ExtensionConfigSpec,
  status: Optional(ExtensionConfigStatus)
}, { description: 'ExtensionConfig registers a Runtime Extension: how to reach it and which namespaces its hooks apply to.' }), [nameRule])

export type V1Beta2ServiceReference = Static<typeof ServiceReference>
export type V1Beta2ClientConfig = Static<typeof ClientConfig>
export type V1Beta2ExtensionConfigSpec = Static<typeof ExtensionConfigSpec>
export type V1Beta2ExtensionHandler = Static<typeof ExtensionHandler>
export type V1Beta2ExtensionConfigStatus = Static<typeof ExtensionConfigStatus>
export type V1Beta2ExtensionConfig = Static<typeof ExtensionConfig>
