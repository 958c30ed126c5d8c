// Discovery: how an extension lists its handlers (discovery_types.go in Cluster API).
import { defineHook } from '../define.js'
import { Int32, List, named, Optional, Str, Type } from '../schema.js'
import { commonResponse, COMPONENT_PREFIX, FailurePolicy, response, typeMeta } from './common.js'

/** Handlers without a timeout are called with this one (seconds). */
export const DEFAULT_HANDLER_TIMEOUT_SECONDS = 10
/** The longest timeout a handler may declare (seconds). */
export const MAX_HANDLER_TIMEOUT_SECONDS = 30

export const GroupVersionHook = named(`${COMPONENT_PREFIX}.GroupVersionHook`, Type.Object({
  apiVersion: Str(512, { minLength: 1, description: 'apiVersion is the group and version of the hook, e.g. hooks.runtime.cluster.x-k8s.io/v1alpha1.' }),
  hook: Str(256, { minLength: 1, description: 'hook is the name of the hook, e.g. BeforeClusterCreate.' })
}, { description: 'GroupVersionHook identifies a versioned hook.' }))

export const ExtensionHandler = named(`${COMPONENT_PREFIX}.ExtensionHandler`, Type.Object({
  name: Str(63, { minLength: 1, description: 'name of the handler, a DNS-1123 label unique within the extension.' }),
  requestHook: GroupVersionHook,
  timeoutSeconds: Optional(Int32({ minimum: 0, maximum: MAX_HANDLER_TIMEOUT_SECONDS, description: 'timeoutSeconds bounds each call to the handler; 10 when not set.' })),
  failurePolicy: Optional(FailurePolicy)
}, { description: 'ExtensionHandler describes one handler an extension serves.' }))

export const DiscoveryRequest = named(`${COMPONENT_PREFIX}.DiscoveryRequest`, Type.Object({
  ...typeMeta('DiscoveryRequest')
}, { description: 'DiscoveryRequest asks an extension for its handlers. It carries no settings.' }))

export const DiscoveryResponse = response('Discovery', commonResponse, {
  handlers: Optional(List(ExtensionHandler, 512, { mapKeys: ['name'], description: 'handlers are the handlers the extension serves.' }))
}, 'DiscoveryResponse lists the handlers of an extension.')

export const Discovery = defineHook({
  hook: 'Discovery',
  request: DiscoveryRequest,
  response: DiscoveryResponse,
  meta: {
    tags: ['Discovery'],
    singleton: true,
    summary: 'Lists the handlers an extension serves; called whenever its ExtensionConfig is reconciled',
    description: 'The runtime calls Discovery on every reconcile of an ExtensionConfig and registers the handlers it returns ' +
      'as `<handler name>.<ExtensionConfig name>`. Handler names must be DNS-1123 labels, unique within the extension; ' +
      'timeoutSeconds (0 to 30) defaults to 10 and failurePolicy defaults to Fail.\n\n' +
      'Extension servers built with runtime-sdk answer this hook themselves from their registered handlers.'
  }
})
