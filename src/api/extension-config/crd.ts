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

/** A column `kubectl get` prints for a custom resource (apiextensions.k8s.io/v1 CustomResourceColumnDefinition). */
export interface CustomResourceColumn {
  /** name is the column's header. */
  name: string
  /** type is the OpenAPI type of the column's values, e.g. string or date. */
  type: string
  /** jsonPath is the JSON path, evaluated against each object, that gives the column's value. */
  jsonPath: string
  /** description is a human readable description of the column. */
  description: string
  /** priority greater than 0 leaves the column out of the standard view (it shows with `-o wide`). */
  priority?: number
}

/** One version of a custom resource (apiextensions.k8s.io/v1 CustomResourceDefinitionVersion). */
export interface CustomResourceDefinitionVersion {
  /** name is the version, served at `/apis/<group>/<version>/...`. */
  name: string
  /** served says whether the version is served through the REST API. */
  served: boolean
  /** storage says whether objects are stored in this version; exactly one version has it. */
  storage: boolean
  /** deprecated makes the API server warn every client of this version. */
  deprecated?: boolean
  /** schema validates, prunes and defaults objects of this version. */
  schema: {
    /** openAPIV3Schema is the version's structural OpenAPI v3 schema. */
    openAPIV3Schema: Record<string, unknown>
  }
  /** subresources of the version: the status subresource, so that status is written apart from the spec. */
  subresources: {
    /** status enables the /status subresource. */
    status: Record<string, never>
  }
  /** additionalPrinterColumns are the columns `kubectl get` prints. */
  additionalPrinterColumns: CustomResourceColumn[]
}

/** The CustomResourceDefinition (apiextensions.k8s.io/v1) that installs the ExtensionConfig API: the fields extensionConfigCRD sets. */
export interface CustomResourceDefinition {
  /** apiVersion is apiextensions.k8s.io/v1. */
  apiVersion: 'apiextensions.k8s.io/v1'
  /** kind is CustomResourceDefinition. */
  kind: 'CustomResourceDefinition'
  /** metadata names the CRD `<plural>.<group>`, with its labels and annotations. */
  metadata: {
    /** name is `<plural>.<group>`: extensionconfigs.runtime.cluster.x-k8s.io. */
    name: string
    /** labels of the CRD: app.kubernetes.io/part-of is runtime-sdk. */
    labels: Record<string, string>
    /** annotations of the CRD: cert-manager.io/inject-ca-from names the Certificate whose CA cert-manager puts into the conversion webhook's caBundle. */
    annotations: Record<string, string>
  }
  /** spec describes the resource. */
  spec: {
    /** group is the API group, runtime.cluster.x-k8s.io. */
    group: string
    /** names are the resource's kind and resource names. */
    names: {
      /** kind is ExtensionConfig. */
      kind: string
      /** listKind is ExtensionConfigList. */
      listKind: string
      /** plural is the resource name in REST paths, extensionconfigs. */
      plural: string
      /** singular is extensionconfig. */
      singular: string
      /** shortNames are the short names kubectl accepts, ext. */
      shortNames: string[]
      /** categories are the groups of resources it belongs to, cluster-api. */
      categories: string[]
    }
    /** scope is Cluster: ExtensionConfigs are not namespaced. */
    scope: 'Cluster' | 'Namespaced'
    /** conversion says how the API server converts objects between the versions. */
    conversion: {
      /** strategy is Webhook: the API server calls the conversion webhook. */
      strategy: 'None' | 'Webhook'
      /** webhook is how the API server reaches the conversion webhook. */
      webhook: {
        /** conversionReviewVersions are the ConversionReview versions the webhook accepts, v1. */
        conversionReviewVersions: string[]
        /** clientConfig is where the webhook is served. */
        clientConfig: {
          /** service is the Service of the webhook: its namespace, name, path and port. */
          service: {
            /** namespace of the Service. */
            namespace: string
            /** name of the Service. */
            name: string
            /** path the webhook is served at. */
            path: string
            /** port of the Service. */
            port: number
          }
        }
      }
    }
    /** versions are v1alpha1 (served, deprecated) and v1beta2 (served, stored). */
    versions: CustomResourceDefinitionVersion[]
  }
}

const ageColumn: CustomResourceColumn = {
  name: 'Age',
  type: 'date',
  jsonPath: '.metadata.creationTimestamp',
  description: 'Time duration since creation of ExtensionConfig'
}

const conditionColumn = (type: string, priority?: number): CustomResourceColumn => ({
  name: type,
  type: 'string',
  jsonPath: `.status.conditions[?(@.type=="${type}")].status`,
  description: `Status of the ${type} condition`,
  ...(priority !== undefined ? { priority } : {})
})

/**
 * The CustomResourceDefinition of ExtensionConfig, as deploy/crd/bases holds it: both versions with their structural
 * schemas and CEL rules, the status subresource, conversion by the controller's webhook. Each call builds a new object.
 */
export function extensionConfigCRD (): CustomResourceDefinition {
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
