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
  'sigs.k8s.io.cluster-api.api.controlplane.kubeadm.v1beta2': 'KubeadmControlPlane',
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

/**
 * Descriptions of the definitions Cluster API's schemas leave without one: controller-gen drops the doc comment of a
 * type that is not a struct, and some of these Go types have none. Written from their Go sources (doc comments,
 * constants, marshalling), so that every generated type is documented.
 */
const DESCRIPTIONS: Record<string, string> = {
  'k8s.io.api.core.v1.ConditionStatus': 'ConditionStatus is the status of a condition: True, False or Unknown.',
  'k8s.io.apimachinery.pkg.apis.meta.v1.ConditionStatus': 'ConditionStatus is the status of a condition: True, False or Unknown.',
  'k8s.io.api.core.v1.NodeConditionType': 'NodeConditionType is the type of a Node condition, e.g. Ready, MemoryPressure, DiskPressure, PIDPressure or NetworkUnavailable.',
  'k8s.io.api.core.v1.TaintEffect': 'TaintEffect is what a taint does to Pods that do not tolerate it: NoSchedule, PreferNoSchedule or NoExecute.',
  'k8s.io.api.core.v1.HostPathType': 'HostPathType is the check made on a hostPath volume\'s path: "" (none), DirectoryOrCreate, Directory, FileOrCreate, File, Socket, CharDevice or BlockDevice.',
  'k8s.io.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': 'JSON represents any valid JSON value (apiextensions/v1 JSON).',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time': 'Time is a timestamp as metav1.Time writes it: RFC 3339 in UTC, to the second, e.g. 2024-05-01T12:00:00Z.',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Duration': 'Duration is a duration as Go\'s time.Duration writes it, e.g. 1m30s (metav1.Duration).',
  'k8s.io.apimachinery.pkg.runtime.RawExtension': 'RawExtension is a JSON object embedded as is (runtime.RawExtension), typically a Kubernetes object.',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'IntOrString holds an int32 or a string (intstr.IntOrString), e.g. a port number or a port name.',
  'k8s.io.apimachinery.pkg.api.resource.Quantity': 'Quantity is a fixed-point number with an optional suffix (resource.Quantity), e.g. 500m, 1.5Gi or 2.',
  'sigs.k8s.io.cluster-api.api.bootstrap.kubeadm.v1beta2.BootstrapTokenString': 'BootstrapTokenString is a kubeadm bootstrap token of the format abcdef.abcdef0123456789; it should be short-lived.'
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
  /** skip names definitions rendered elsewhere (imported instead). */
  skip?: ReadonlySet<string>
}

function renderDefinitions (definitions: Readonly<Record<string, Schema>>, options: RenderOptions, names = typeNames(definitions)): string[] {
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
    // A field's own enum narrows the type it refers to (a Go string type whose field carries an Enum marker).
    if (enumValues) type = enumValues.map(literal).join(' | ')
    else if (ref) type = refName(ref)
    else if (allOf?.length === 1) type = typeOf(allOf[0] as Schema)
    else if (s['x-kubernetes-int-or-string']) type = 'number | string'
    else if (anyOf) type = anyOf.map(typeOf).join(' | ')
    else type = primitive(s, typeOf)
    return options.nullable && s['nullable'] === true ? `${type} | null` : type
  }
  // A property Cluster API leaves undescribed (a bare reference) is described by the type it refers to.
  const describe = (prop: string, s: Schema): unknown => {
    if (s['description']) return s['description']
    const ref = s['$ref'] as string | undefined
    const target = ref && (definitions[ref.replace('#/definitions/', '')]?.['description'] ?? DESCRIPTIONS[ref.replace('#/definitions/', '')])
    return typeof target === 'string' ? `${prop}: ${target}` : undefined
  }
  const out: string[] = []
  for (const [name, schema] of Object.entries(definitions).filter(([name]) => !options.skip?.has(name)).sort(([a], [b]) => names.get(a)!.localeCompare(names.get(b)!))) {
    const ts = names.get(name)!
    const description = schema['description'] ?? DESCRIPTIONS[name]
    if (!description) throw new Error(`${name} has no description: add one to DESCRIPTIONS`)
    out.push(...doc(description, ''))
    const properties = schema['properties'] as Record<string, Schema> | undefined
    if (!properties) {
      out.push(`export type ${ts} = ${typeOf(schema)}`, '')
      continue
    }
    const fixed = options.fixed?.[name] ?? {}
    const required = new Set([...(options.required(schema) as string[] | undefined ?? []), ...Object.keys(fixed)])
    out.push(`export interface ${ts} {`)
    for (const [prop, propSchema] of Object.entries(properties)) {
      const description = describe(prop, propSchema)
      if (!description) throw new Error(`${name}.${prop} has no description`)
      out.push(...doc(description, '  '))
      const type = fixed[prop] ?? PROPERTY_TYPES[name]?.[prop] ?? typeOf(propSchema)
      out.push(`  ${/^[A-Za-z_$][\w$]*$/.test(prop) ? prop : literal(prop)}${required.has(prop) ? '' : '?'}: ${type}`)
    }
    out.push('}', '')
  }
  return out
}

export function renderCapiTypes ({ definitions, hooks }: CapiDefinitions): string {
  const names = typeNames(definitions)
  const lines = renderDefinitions(definitions, { required: s => s['required'], nullable: true }, names)
  const out = [
    '// Generated by `npm run generate` from hooks/v1alpha1/definitions.json (Cluster API v1.14\'s Go types); do not edit.',
    '// A property is required when Cluster API\'s Go encoding always sends it; `| null` where it can send null.',
    '',
    ...lines
  ]
  out.push('/** The request and response type of every hook, by hook name. */', 'export interface HookTypes {')
  for (const { hook, request, response } of hooks) {
    out.push(
      `  /** The types of ${hook}. */`,
      `  ${hook}: {`,
      `    /** request is the type of ${hook}'s requests. */`,
      `    request: ${names.get(request)!}`,
      `    /** response is the type of ${hook}'s responses. */`,
      `    response: ${names.get(response)!}`,
      '  }'
    )
  }
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
 * A Go type the hooks' definitions (`hooks`) have too is not rendered again: it is imported from the hooks' types,
 * under their name for it, as Go encodes it.
 */
export function renderTemplateTypes ({ definitions, templates }: CapiTemplates, hooks: CapiDefinitions): string {
  const fixed = Object.fromEntries(templates.map(t => [t.definition, { apiVersion: literal(t.apiVersion), kind: literal(t.kind) }]))
  const shared = new Set(Object.keys(definitions).filter(name => name in hooks.definitions))
  // Named over both sets, so that a template type never takes the name of a different hook type; a shared one keeps
  // the hooks' name.
  const hookNames = typeNames(hooks.definitions)
  const both = typeNames({ ...hooks.definitions, ...definitions })
  const names = new Map(Object.keys(definitions).map(name => [name, shared.has(name) ? hookNames.get(name)! : both.get(name)!]))
  const hookTypes = new Map([...hookNames].map(([name, ts]) => [ts, name]))
  for (const [name, ts] of names) {
    const hook = hookTypes.get(ts)
    if (hook !== undefined && hook !== name) throw new Error(`${name} would take the name ${ts} of the hooks' ${hook}: add a prefix for its package to PACKAGE_PREFIXES`)
  }
  const lines = renderDefinitions(definitions, { required: s => s['x-kubebuilder-required'], nullable: false, fixed, skip: shared }, names)
  const imported = [...shared].map(name => names.get(name)!).sort()
  const out = [
    '// Generated by `npm run generate` from hooks/v1alpha1/templates.json (the Go types of Cluster API v1.14\'s own template kinds);',
    '// do not edit. A property is required when the API requires it: templates reach an extension as the API server stores them.',
    '// The Go types the hooks\' objects have too are theirs (imported), as Go encodes them.',
    '// Each template kind is a value named as its type (as a TypeBox schema and its Static type often are).',
    '/**',
    ' * The types of Cluster API v1.14\'s own template kinds (the kubeadm bootstrap and control plane templates, the Dev',
    ' * templates of its test infrastructure provider), each with a template kind of the same name for walkTemplates\' `kinds`.',
    ' *',
    ' * @packageDocumentation',
    ' */',
    '/* eslint-disable @typescript-eslint/no-redeclare */',
    `import type { ${imported.join(', ')} } from '../api/hooks/v1alpha1/types.generated.js'`,
    '// The Go types templates share with the hooks\' objects, one definition for both.',
    `export type { ${imported.join(', ')} }`,
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
  // Go doc links name a package by its import path, [metav1](k8s.io/apimachinery/pkg/apis/meta/v1): link its documentation.
  const linked = description.replace(/\]\(((?:[a-z0-9-]+\.)+[a-z]+\/[^)\s]*)\)/g, '](https://pkg.go.dev/$1)')
  const lines = linked.trim().replaceAll('*/', '*\\/').replaceAll('\t', '  ').split('\n')
  return [`${indent}/**`, ...lines.map(l => `${indent} *${l ? ` ${l}` : ''}`), `${indent} */`]
}
