// Renders the TypeScript types of hooks.runtime.cluster.x-k8s.io/v1alpha1 from Cluster API's own definitions
// (src/api/hooks/v1alpha1/capi.ts: definitions.json, dumped by tools/capi-schemas, completed): one named type per definition, every field typed
// as Cluster API v1.14 defines it. A property is required exactly when Go's encoding always sends it.
// renderTemplateTypes renders the template kinds of hooks/v1alpha1/templates.json the same way for src/topology,
// required where the API requires a field (templates reach an extension as the API server stores them).

type Schema = Record<string, unknown>
export interface CapiDefinitions {
  definitions: Readonly<Record<string, Schema>>
  hooks: ReadonlyArray<{ hook: string, request: string, response: string }>
}

/** Packages whose types lose their bare name when two packages define the same one (metav1 keeps it). */
const PACKAGE_PREFIXES: Record<string, string> = {
  'sigs.k8s.io.cluster-api.api.core.v1beta2': 'Core',
  'sigs.k8s.io.cluster-api.api.runtime.hooks.v1alpha1': 'Hooks',
  'k8s.io.api.core.v1': 'CoreV1',
  'sigs.k8s.io.cluster-api.api.bootstrap.kubeadm.v1beta2': 'Kubeadm',
  'sigs.k8s.io.cluster-api.test.infrastructure.docker.api.v1beta2': 'Dev'
}
/** Names that would shadow a global. */
const RENAMED: Record<string, string> = { 'k8s.io.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': 'JSONValue' }
const WINNER = 'k8s.io.apimachinery.pkg.apis.meta.v1'

const CORE = 'sigs.k8s.io.cluster-api.api.core.v1beta2'
/** Cluster API's variable schemas are recursive in Go; its CRDs (and so the definitions) leave them schemaless. */
const PROPERTY_TYPES: Record<string, Record<string, string>> = {
  [`${CORE}.JSONSchemaProps`]: {
    properties: '{ [key: string]: JSONSchemaProps }',
    additionalProperties: 'JSONSchemaProps',
    items: 'JSONSchemaProps',
    allOf: 'JSONSchemaProps[]',
    anyOf: 'JSONSchemaProps[]',
    oneOf: 'JSONSchemaProps[]',
    not: 'JSONSchemaProps'
  }
}

const packageOf = (name: string) => name.slice(0, name.lastIndexOf('.'))
const goName = (name: string) => name.slice(name.lastIndexOf('.') + 1)

/** The TypeScript name of every definition: the Go type name, made unique by a package prefix. */
export function typeNames (definitions: Readonly<Record<string, Schema>>): Map<string, string> {
  const byShort = new Map<string, string[]>()
  for (const name of Object.keys(definitions)) byShort.set(goName(name), [...byShort.get(goName(name)) ?? [], name])
  const names = new Map<string, string>()
  for (const [short, full] of byShort) {
    for (const name of full) {
      const renamed = RENAMED[name]
      if (renamed) { names.set(name, renamed); continue }
      if (full.length === 1 || packageOf(name) === WINNER) { names.set(name, short); continue }
      const prefix = PACKAGE_PREFIXES[packageOf(name)]
      if (!prefix) throw new Error(`${short} is defined by ${full.join(' and ')}: add a prefix for ${packageOf(name)} to PACKAGE_PREFIXES`)
      names.set(name, prefix + short)
    }
  }
  const taken = new Map<string, string>()
  for (const [name, ts] of names) {
    const other = taken.get(ts)
    if (other) throw new Error(`${name} and ${other} would both be named ${ts}`)
    taken.set(ts, name)
  }
  return names
}

/** How one set of definitions is rendered. */
interface RenderOptions {
  /** required lists the properties of a definition that are never absent. */
  required: (schema: Schema) => unknown
  /** nullable honours the definitions' `nullable` (Go's encoding); templates read from the API server hold no null. */
  nullable: boolean
  /** properties typed by hand, by definition name and property; they are required. */
  fixed?: Record<string, Record<string, string>>
}

function renderDefinitions (definitions: Readonly<Record<string, Schema>>, options: RenderOptions): { lines: string[], names: Map<string, string> } {
  const names = typeNames(definitions)
  const refName = (ref: string) => {
    const name = names.get(ref.replace('#/definitions/', ''))
    if (!name) throw new Error(`unknown reference ${ref}`)
    return name
  }
  const typeOf = (s: Schema): string => {
    const ref = s['$ref'] as string | undefined
    const allOf = s['allOf'] as Schema[] | undefined
    const anyOf = s['anyOf'] as Schema[] | undefined
    const enumValues = s['enum'] as unknown[] | undefined
    let type: string
    if (ref) type = refName(ref)
    else if (allOf?.length === 1) type = typeOf(allOf[0] as Schema)
    else if (s['x-kubernetes-int-or-string']) type = 'number | string'
    else if (anyOf) type = anyOf.map(typeOf).join(' | ')
    else if (enumValues) type = enumValues.map(literal).join(' | ')
    else type = primitive(s, typeOf)
    return options.nullable && s['nullable'] === true ? `${type} | null` : type
  }
  const out: string[] = []
  for (const [name, schema] of Object.entries(definitions).sort(([a], [b]) => names.get(a)!.localeCompare(names.get(b)!))) {
    const ts = names.get(name)!
    out.push(...doc(schema['description'], ''))
    const properties = schema['properties'] as Record<string, Schema> | undefined
    if (!properties) {
      out.push(`export type ${ts} = ${typeOf(schema)}`, '')
      continue
    }
    const fixed = options.fixed?.[name] ?? {}
    const required = new Set([...(options.required(schema) as string[] | undefined ?? []), ...Object.keys(fixed)])
    out.push(`export interface ${ts} {`)
    for (const [prop, propSchema] of Object.entries(properties)) {
      out.push(...doc(propSchema['description'], '  '))
      const type = fixed[prop] ?? PROPERTY_TYPES[name]?.[prop] ?? typeOf(propSchema)
      out.push(`  ${/^[A-Za-z_$][\w$]*$/.test(prop) ? prop : literal(prop)}${required.has(prop) ? '' : '?'}: ${type}`)
    }
    out.push('}', '')
  }
  return { lines: out, names }
}

export function renderCapiTypes ({ definitions, hooks }: CapiDefinitions): string {
  const { lines, names } = renderDefinitions(definitions, { required: s => s['required'], nullable: true })
  const out = [
    '// Generated by `npm run generate` from hooks/v1alpha1/definitions.json (Cluster API v1.14\'s Go types); do not edit.',
    '// A property is required when Cluster API\'s Go encoding always sends it; `| null` where it can send null.',
    '',
    ...lines
  ]
  out.push('/** The request and response type of every hook, by hook name. */', 'export interface HookTypes {')
  for (const { hook, request, response } of hooks) out.push(`  ${hook}: { request: ${names.get(request)!}, response: ${names.get(response)!} }`)
  out.push('}', '')
  return out.join('\n')
}

/** The template kinds document (hooks/v1alpha1/templates.json). */
export interface CapiTemplates {
  definitions: Readonly<Record<string, Schema>>
  templates: ReadonlyArray<{ apiVersion: string, kind: string, definition: string }>
}

/**
 * The types of the template kinds and a template kind (apiVersion and kind, typed) of each, named as the type:
 * `kinds: [KubeadmControlPlaneTemplate]` hands the walk's function `KubeadmControlPlaneTemplate` objects.
 */
export function renderTemplateTypes ({ definitions, templates }: CapiTemplates): string {
  const fixed = Object.fromEntries(templates.map(t => [t.definition, { apiVersion: literal(t.apiVersion), kind: literal(t.kind) }]))
  const { lines, names } = renderDefinitions(definitions, { required: s => s['x-kubebuilder-required'], nullable: false, fixed })
  const out = [
    '// Generated by `npm run generate` from hooks/v1alpha1/templates.json (the Go types of Cluster API v1.14\'s own template kinds);',
    '// do not edit. A property is required when the API requires it: templates reach an extension as the API server stores them.',
    '// Each template kind is a value named as its type (as a TypeBox schema and its Static type often are).',
    '/* eslint-disable @typescript-eslint/no-redeclare */',
    "import { templateKind, type TemplateKindRef } from './templates.js'",
    '',
    ...lines
  ]
  for (const { apiVersion, kind, definition } of templates) {
    const name = names.get(definition)!
    out.push(`/** The template kind ${kind} ${apiVersion}. */`, `export const ${name}: TemplateKindRef<${name}> = templateKind(${literal(apiVersion)}, ${literal(kind)})`, '')
  }
  out.push('/** Every template kind of this file. */', `export const templateKinds = [${templates.map(t => names.get(t.definition)!).join(', ')}] as const`, '')
  return out.join('\n')
}

function primitive (s: Schema, typeOf: (s: Schema) => string): string {
  switch (s['type']) {
    case 'string': return 'string'
    case 'integer':
    case 'number': return 'number'
    case 'boolean': return 'boolean'
    case 'array': {
      const item = typeOf(s['items'] as Schema)
      return /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`
    }
    case 'object': {
      const values = s['additionalProperties']
      return `{ [key: string]: ${typeof values === 'object' && values !== null ? typeOf(values as Schema) : 'unknown'} }`
    }
    case undefined:
      if (s['x-kubernetes-preserve-unknown-fields'] === true) return 'unknown'
  }
  throw new Error(`cannot type schema ${JSON.stringify(s).slice(0, 200)}`)
}

/** A TypeScript literal in the project's quote style. */
function literal (value: unknown): string {
  return typeof value === 'string' ? `'${JSON.stringify(value).slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'` : JSON.stringify(value)
}

function doc (description: unknown, indent: string): string[] {
  if (typeof description !== 'string' || description.trim() === '') return []
  const lines = description.trim().replaceAll('*/', '*\\/').replaceAll('\t', '  ').split('\n')
  return [`${indent}/**`, ...lines.map(l => `${indent} *${l ? ` ${l}` : ''}`), `${indent} */`]
}
