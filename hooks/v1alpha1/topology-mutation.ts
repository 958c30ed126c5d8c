// Topology mutation hooks: patches, validation and variables of ClusterClass-based Clusters
// (topologymutation_types.go in Cluster API).
import { defineHook } from '../define.js'
import { ClusterClassVariable } from '../embedded/core-v1beta2.js'
import { AnyJSON, Base64, List, named, Nullable, Optional, RawObject, Str, Type } from '../schema.js'
import { commonResponse, COMPONENT_PREFIX, PatchType, request, response } from './common.js'

const TAGS = ['Topology Mutation Hook']
/** Bound on the templates of one request: a topology has one per ref of the Cluster, control plane and worker class. */
const MAX_ITEMS = 10000

export const Variable = named(`${COMPONENT_PREFIX}.Variable`, Type.Object({
  name: Str(256, { description: 'name of the variable; "builtin" holds the builtin variables.' }),
  value: AnyJSON({ description: 'value of the variable, any JSON.' })
}, { description: 'Variable is a named variable value.' }))

export const HolderReference = named(`${COMPONENT_PREFIX}.HolderReference`, Type.Object({
  apiVersion: Str(317, { description: 'apiVersion of the object holding the template.' }),
  kind: Str(63, { description: 'kind of the object holding the template.' }),
  namespace: Str(63, { description: 'namespace of the object holding the template.' }),
  name: Str(253, { description: 'name of the object holding the template.' }),
  fieldPath: Str(512, { description: 'fieldPath is the path of the field that references the template.' })
}, { description: 'HolderReference points at the object that uses a template.' }))

const variables = (scope: string) => Optional(List(Variable, 1000, { description: `variables are ${scope} variables.` }))

export const GeneratePatchesRequestItem = named(`${COMPONENT_PREFIX}.GeneratePatchesRequestItem`, Type.Object({
  uid: Str(128, { description: 'uid identifies the template; patches in the response refer to it.' }),
  holderReference: HolderReference,
  object: Nullable(RawObject({ description: 'object is the template to patch.' })),
  variables: variables('template-specific')
}, { description: 'GeneratePatchesRequestItem is a template to generate patches for.' }))

export const GeneratePatchesResponseItem = named(`${COMPONENT_PREFIX}.GeneratePatchesResponseItem`, Type.Object({
  uid: Str(128, { description: 'uid of the request template the patch applies to.' }),
  patchType: PatchType,
  patch: Base64(20 * 1024 * 1024, { description: 'patch is the patch document of patchType, base64 encoded.' })
}, { description: 'GeneratePatchesResponseItem is a patch for one template.' }))

export const ValidateTopologyRequestItem = named(`${COMPONENT_PREFIX}.ValidateTopologyRequestItem`, Type.Object({
  holderReference: HolderReference,
  object: Nullable(RawObject({ description: 'object is the patched template.' })),
  variables: variables('template-specific')
}, { description: 'ValidateTopologyRequestItem is a patched template to validate.' }))

export const GeneratePatches = defineHook({
  hook: 'GeneratePatches',
  request: request('GeneratePatches', {
    variables: variables('global'),
    items: Nullable(List(GeneratePatchesRequestItem, MAX_ITEMS, { description: 'items are the templates to patch.' }))
  }, 'GeneratePatchesRequest carries the templates of a Cluster topology and its variables.'),
  response: response('GeneratePatches', commonResponse, {
    items: Optional(List(GeneratePatchesResponseItem, MAX_ITEMS, { description: 'items are the patches, applied in order.' }))
  }, 'GeneratePatchesResponse holds patches for the request templates.'),
  meta: {
    tags: TAGS,
    summary: 'Generates patches for the templates of a Cluster topology',
    description: 'Called while a topology is computed, once for each external patch of the ClusterClass, in order. ' +
      'Each response item patches the request template with the same uid; only spec, labels and annotations of a template are taken.'
  }
})

export const ValidateTopology = defineHook({
  hook: 'ValidateTopology',
  request: request('ValidateTopology', {
    variables: variables('global'),
    items: Nullable(List(ValidateTopologyRequestItem, MAX_ITEMS, { description: 'items are the patched templates.' }))
  }, 'ValidateTopologyRequest carries the patched templates of a Cluster topology.'),
  response: response('ValidateTopology', commonResponse, {}, 'ValidateTopologyResponse accepts (Success) or rejects (Failure) the topology.'),
  meta: {
    tags: TAGS,
    summary: 'Validates a Cluster topology after all patches were applied',
    description: 'Called after GeneratePatches with the fully patched templates. A Failure stops the topology from being applied.'
  }
})

export const DiscoverVariables = defineHook({
  hook: 'DiscoverVariables',
  request: request('DiscoverVariables', {}, 'DiscoverVariablesRequest carries only settings.'),
  response: response('DiscoverVariables', commonResponse, {
    variables: Optional(List(ClusterClassVariable, 1000, { description: 'variables are the variable definitions the extension\'s patches use.' }))
  }, 'DiscoverVariablesResponse defines variables.'),
  meta: {
    tags: TAGS,
    summary: 'Returns the definitions of the variables an extension\'s patches use',
    description: 'Called when a ClusterClass is reconciled, for each external patch; the variables become part of the ClusterClass status. ' +
      'Answers are cached, so they should depend only on the settings.'
  }
})
