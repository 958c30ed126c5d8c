// The ExtensionConfig CustomResourceDefinition (apiextensions.k8s.io/v1), built from the version schemas.
// Kubernetes requires structural schemas, so the walk below rewrites our JSON Schema: unknown fields are
// pruned by the API server rather than rejected (no `additionalProperties: false`), metadata only declares
// its name, our own keywords go, and each node's rules become `x-kubernetes-validations`.
import { stringify } from 'yaml'
import { COMPONENT_KEYWORD, type TSchema } from '../schema/builders.js'
import {
  EXTENSION_CONFIG_CATEGORIES, EXTENSION_CONFIG_CRD_NAME, EXTENSION_CONFIG_DEPRECATED_VERSION, EXTENSION_CONFIG_GROUP,
  EXTENSION_CONFIG_KIND, EXTENSION_CONFIG_LIST_KIND, EXTENSION_CONFIG_PLURAL, EXTENSION_CONFIG_SHORT_NAMES,
  EXTENSION_CONFIG_SINGULAR, EXTENSION_CONFIG_STORAGE_VERSION, PART_OF_LABEL, PART_OF_RUNTIME_SDK, WEBHOOK_PATH
} from './constants.js'
import { celValidations, RULES_KEYWORD, rulesOf } from '../schema/cel-rules.js'
import * as v1alpha1 from './v1alpha1.js'
import * as v1beta2 from './v1beta2.js'

/** Where the conversion webhook runs in a default installation (deploy/). */
const WEBHOOK_NAMESPACE = 'runtime-sdk-system'
const WEBHOOK_SERVICE_NAME = 'runtime-sdk-webhook-service'
/** cert-manager Certificate whose CA is injected into the CRD's conversion clientConfig.caBundle. */
const SERVING_CERT = `${WEBHOOK_NAMESPACE}/runtime-sdk-serving-cert`

/** The generated file, relative to the repository root. */
export const CRD_FILE = `deploy/crd/bases/${EXTENSION_CONFIG_GROUP}_${EXTENSION_CONFIG_PLURAL}.yaml`

type JSONSchema = Record<string, unknown>

// Keywords Kubernetes does not accept in a CRD schema, and our own annotations.
const DROPPED = new Set(['$id', '$schema', COMPONENT_KEYWORD, RULES_KEYWORD, 'patternProperties', 'propertyNames'])

/** A structural schema (Kubernetes' rules for CRDs) from one of our schemas; the input is not modified. */
export function structuralSchema (schema: TSchema, root = true): JSONSchema {
  const source = schema as unknown as JSONSchema
  const out: JSONSchema = {}
  for (const [key, value] of Object.entries(source)) {
    if (DROPPED.has(key)) continue
    if (key === 'additionalProperties') {
      // false: the API server prunes unknown fields anyway; true: only on metadata, handled below.
      if (typeof value === 'object' && value !== null) out[key] = structuralSchema(value as TSchema, false)
    } else if (key === 'properties') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, TSchema>).map(([name, property]) =>
        [name, root && name === 'metadata' ? metadataSchema(property) : structuralSchema(property, false)]))
    } else if (key === 'required' && root) {
      // metadata is always there and Kubernetes validates it; the CRD does not list it as required.
      const required = (value as string[]).filter(name => name !== 'metadata')
      if (required.length > 0) out[key] = required
    } else if (key === 'items') {
      out[key] = structuralSchema(value as TSchema, false)
    } else {
      out[key] = structuredClone(value)
    }
  }
  const rules = rulesOf(source)
  if (rules.length > 0) out['x-kubernetes-validations'] = celValidations(rules)
  return out
}

/**
 * Kubernetes owns metadata: a CRD may only declare name and generateName in it, not even a description.
 * Declaring name lets the root rule on metadata.name report its failures at `metadata.name`.
 */
function metadataSchema (objectMeta: TSchema): JSONSchema {
  const name = (objectMeta as unknown as { properties: Record<string, JSONSchema> }).properties['name'] as JSONSchema
  return { type: 'object', properties: { name: { type: 'string', maxLength: name['maxLength'], description: name['description'] } } }
}

const ageColumn = {
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
  description: 'Time duration since creation of ExtensionConfig'
}

const conditionColumn = (type: string, priority?: number) => ({
  name: type,
  type: 'string',
  jsonPath: `.status.conditions[?(@.type=="${type}")].status`,
  description: `Status of the ${type} condition`,
  ...(priority !== undefined ? { priority } : {})
})

/** The CustomResourceDefinition of ExtensionConfig: both versions, status subresource, webhook conversion. */
export function extensionConfigCRD () {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: EXTENSION_CONFIG_CRD_NAME,
      labels: { [PART_OF_LABEL]: PART_OF_RUNTIME_SDK },
      annotations: { 'cert-manager.io/inject-ca-from': SERVING_CERT }
    },
    spec: {
      group: EXTENSION_CONFIG_GROUP,
      names: {
        kind: EXTENSION_CONFIG_KIND,
        listKind: EXTENSION_CONFIG_LIST_KIND,
        plural: EXTENSION_CONFIG_PLURAL,
        singular: EXTENSION_CONFIG_SINGULAR,
        shortNames: [...EXTENSION_CONFIG_SHORT_NAMES],
        categories: [...EXTENSION_CONFIG_CATEGORIES]
      },
      scope: 'Cluster',
      conversion: {
        strategy: 'Webhook',
        webhook: {
          conversionReviewVersions: ['v1'],
          clientConfig: { service: { namespace: WEBHOOK_NAMESPACE, name: WEBHOOK_SERVICE_NAME, path: WEBHOOK_PATH, port: 443 } }
        }
      },
      versions: [
        {
          name: EXTENSION_CONFIG_DEPRECATED_VERSION,
          served: true,
          storage: false,
          deprecated: true,
          schema: { openAPIV3Schema: structuralSchema(v1alpha1.ExtensionConfig) },
          subresources: { status: {} },
          additionalPrinterColumns: [ageColumn]
        },
        {
          name: EXTENSION_CONFIG_STORAGE_VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: structuralSchema(v1beta2.ExtensionConfig) },
          subresources: { status: {} },
          additionalPrinterColumns: [conditionColumn('Paused', 10), conditionColumn('Discovered'), ageColumn]
        }
      ]
    }
  }
}

/** The CRD as the YAML file in deploy/crd/bases. */
export function renderCRD (): string {
  return '# Generated by `npm run generate` from src/api (the ExtensionConfig schemas); do not edit.\n---\n' +
    stringify(extensionConfigCRD(), { lineWidth: 0 })
}
