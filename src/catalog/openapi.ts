// The OpenAPI 3.0 document of a catalog: one POST operation per hook version, request and response
// schemas as named components (the names Cluster API's own document uses).
import { COMPONENT_KEYWORD, COMPONENT_REF_KEYWORD } from '../api/schema/builders.js'
import type { Catalog, CatalogHook } from './catalog.js'
import { createCatalog, HOOKS_GROUP } from './default.js'
import { hookPath } from './identity.js'

type Schema = Record<string, unknown>

/**
 * An OpenAPI 3.0 document of Runtime Hooks, as runtime-sdk publishes it (openapi/runtime-sdk.json) and an extension
 * server serves it at /openapi.json: one POST operation per hook version, its request and response schemas as named
 * components.
 */
export interface OpenAPIDocument {
  /** openapi is the OpenAPI version the document is written in, 3.0.3. */
  openapi: string
  /** info describes the document. */
  info: {
    /** title is Cluster API Runtime Hooks. */
    title: string
    /** description says what the hooks are. */
    description: string
    /** version is the Cluster API release the hooks match, e.g. v1.14. */
    version: string
    /** license is the license of the hooks' definitions, Apache 2.0. */
    license: {
      /** name of the license. */
      name: string
      /** url of the license text. */
      url: string
    }
  }
  /** tags name the groups operations are listed under (Discovery, Lifecycle Hooks, ...), in the order of the hooks. */
  tags: Array<{
    /** name of the group. */
    name: string
  }>
  /** paths maps each hook's path (e.g. /hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery) to its operation. */
  paths: Record<string, {
    /** post is the hook's operation: summary, description, request body and response. */
    post: Record<string, unknown>
  }>
  /** components holds the schemas operations refer to. */
  components: {
    /** schemas are the request and response schemas, by the names Cluster API's own document gives them. */
    schemas: Record<string, Record<string, unknown>>
  }
}

export interface OpenAPIOptions {
  /** version is the document's info.version. */
  version: string
  /** groups limits the document to these hook groups; all groups by default. */
  groups?: string[]
}

const NAME_DESCRIPTION = 'The handler name. Handlers within a single extension must have different names.'
const RESPONSE_DESCRIPTION = 'The call was processed. Its outcome is in the response status and message; ' +
  'errors in handling the request are reported as status Failure, not as HTTP errors.'

export function buildOpenAPIDocument (catalog: Catalog, options: OpenAPIOptions): OpenAPIDocument {
  const components: Record<string, Schema> = {}
  const paths: OpenAPIDocument['paths'] = {}
  const tags = new Set<string>()
  for (const hook of catalog.all()) {
    if (options.groups && !options.groups.includes(hook.gvh.group)) continue
    const { meta } = hook.definition
    meta.tags.forEach(t => tags.add(t))
    const path = hookPath(hook.gvh, meta.singleton ? undefined : '{name}')
    paths[path] = { post: operation(hook, toOpenAPI(hook.definition.request, components), toOpenAPI(hook.definition.response, components)) }
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Cluster API Runtime Hooks',
      description: 'The Runtime Hooks an extension can implement: JSON over HTTPS POST calls from Cluster API (or runtime-sdk\'s client) to a Runtime Extension.',
      version: options.version,
      license: { name: 'Apache 2.0', url: 'http://www.apache.org/licenses/LICENSE-2.0.html' }
    },
    tags: [...tags].map(name => ({ name })),
    paths,
    components: { schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))) }
  }
}

function operation (hook: CatalogHook, request: Schema, response: Schema): Record<string, unknown> {
  const { meta } = hook.definition
  return {
    tags: meta.tags,
    summary: meta.summary,
    description: meta.description,
    operationId: operationId(hook),
    ...(meta.deprecated ? { deprecated: true } : {}),
    ...(meta.singleton ? {} : { parameters: [{ name: 'name', in: 'path', required: true, description: NAME_DESCRIPTION, schema: { type: 'string', maxLength: 63 } }] }),
    requestBody: { required: true, content: { 'application/json': { schema: request } } },
    responses: { 200: { description: RESPONSE_DESCRIPTION, content: { 'application/json': { schema: response } } } }
  }
}

/** Cluster API's scheme: group without `.x-k8s.io`, then version and hook, camel-cased (hooksRuntimeClusterV1alpha1Discovery). */
export function operationId ({ gvh }: CatalogHook): string {
  const words = [...gvh.group.replace(/\.x-k8s\.io$/, '').split(/[.-]/), gvh.version, gvh.hook]
  return words.map((w, i) => i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)).join('')
}

/**
 * Rewrites a JSON Schema as an OpenAPI 3.0 schema: named subschemas become $refs to components,
 * `anyOf [X, null]` becomes `nullable`, and keywords 3.0 lacks (propertyNames) are dropped.
 */
function toOpenAPI (schema: unknown, components: Record<string, Schema>): Schema {
  const source = schema as Schema
  const name = source[COMPONENT_KEYWORD]
  if (typeof name === 'string') {
    const body = convertBody(source, components)
    const existing = components[name]
    if (existing && JSON.stringify(existing) !== JSON.stringify(body)) throw new Error(`two different schemas are named ${name}`)
    components[name] = body
    return { $ref: `#/components/schemas/${name}` }
  }
  return convertBody(source, components)
}

function convertBody (source: Schema, components: Record<string, Schema>): Schema {
  // A reference by name (a schema that contains itself): OpenAPI 3.0 ignores a $ref's siblings, so allOf carries it.
  const ref = source[COMPONENT_REF_KEYWORD]
  if (typeof ref === 'string') {
    const { [COMPONENT_REF_KEYWORD]: _ref, ...rest } = source
    return Object.keys(rest).length > 0 ? { allOf: [{ $ref: `#/components/schemas/${ref}` }], ...rest } : { $ref: `#/components/schemas/${ref}` }
  }
  const anyOf = source['anyOf'] as Schema[] | undefined
  if (anyOf && anyOf.length === 2 && anyOf.some(s => s['type'] === 'null')) {
    const inner = toOpenAPI(anyOf.find(s => s['type'] !== 'null'), components)
    const { anyOf: _, [COMPONENT_KEYWORD]: _name, ...rest } = source
    return '$ref' in inner ? { ...rest, allOf: [inner], nullable: true } : { ...inner, ...rest, nullable: true }
  }
  const out: Schema = {}
  for (const [key, value] of Object.entries(source)) {
    if (key === COMPONENT_KEYWORD || key === 'propertyNames') continue
    if (key === 'properties') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toOpenAPI(v, components)]))
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && typeof value === 'object' && value !== null) {
      out[key] = toOpenAPI(value, components)
    } else if ((key === 'allOf' || key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      out[key] = value.map(v => toOpenAPI(v, components))
    } else {
      out[key] = value
    }
  }
  return out
}

/** The version stamped into the published document: the Cluster API release we are wire-compatible with. */
export const OPENAPI_VERSION = 'v1.14'

/** The published document: every hook of hooks.runtime.cluster.x-k8s.io. */
export function hooksOpenAPIDocument (): OpenAPIDocument {
  return buildOpenAPIDocument(createCatalog(), { version: OPENAPI_VERSION, groups: [HOOKS_GROUP] })
}
