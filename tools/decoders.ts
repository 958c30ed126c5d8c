// Renders src/catalog/decoder/<package>.generated.ts: for the request and response of every Cluster API hook, a
// checker that accepts what Go's encoding/json accepts when it decodes into Cluster API's Go types (the rules are in
// src/catalog/decoder/rules.ts; the Go types come from Cluster API's definitions through go-types.ts), so that
// nothing is compiled at run time. One ESM module per Go package (runtimehooksv1, clusterv1, metav1, corev1; lists
// and maps of Go's predeclared types in builtin), one function per Go struct, list and map type, each written once in
// the module of its package and imported by the others; a field dispatches on its key. runtimehooksv1 exports the
// checker of every hook's request and response by definition name.
import { capiHooks } from '../src/api/hooks/v1alpha1/capi.js'
import { GoTypes, type GoType } from './go-types.js'

/** The directory of the generated decoders, relative to the repository root. */
export const DECODER_DIR = 'src/catalog/decoder'

/** Go packages by the alias Cluster API's code imports them with. */
const PACKAGES: Record<string, string> = {
  'sigs.k8s.io.cluster-api.api.runtime.hooks.v1alpha1': 'runtimehooksv1',
  'sigs.k8s.io.cluster-api.api.core.v1beta2': 'clusterv1',
  'k8s.io.apimachinery.pkg.apis.meta.v1': 'metav1',
  'k8s.io.api.core.v1': 'corev1'
}
/** The module of lists and maps whose elements are Go's predeclared types (string, bool, int32, ...). */
const BUILTIN = 'builtin'
const HOOKS = 'runtimehooksv1'

/** Kinds whose zero value Go writes as null: a null received is that zero value already. */
const KEEPS_NULL = new Set<GoType['kind']>(['time', 'any', 'bytes'])

/** The rules (src/catalog/decoder/rules.ts) a generated module may call, imported when it does. */
const RULES = ['ANSWER', 'MAX_DEPTH', 'RECEIVE', 'anyJSON', 'at', 'atKey', 'bool', 'bytes', 'enumStr', 'fillMissing', 'int32', 'int64', 'intOrString', 'mismatch', 'nullField', 'patchContent', 'str', 'time', 'tooDeep', 'unknownField']

/** What Go prints for a type in its errors. */
function goTypeName (type: GoType): string {
  switch (type.kind) {
    case 'string': case 'struct': return type.goName
    // An element that may be null is a pointer (the definitions' convention).
    case 'list': return `[]${type.elemNullable && type.elem.kind === 'struct' ? '*' : ''}${goTypeName(type.elem)}`
    case 'map': return `map[string]${goTypeName(type.elem)}`
    case 'bytes': return '[]uint8'
    default: return type.kind
  }
}

/** JavaScript for the JSON Go's encoder writes for the zero value of a type (where it cannot be null): "", 0, {...}. */
function zeroOf (type: GoType): string {
  switch (type.kind) {
    case 'string': return "''"
    case 'bool': return 'false'
    case 'int32': case 'int64': case 'intOrString': return '0'
    case 'time': case 'any': case 'bytes': return 'null'
    case 'list': return '[]'
    case 'map': return '{}'
    case 'struct': {
      const fields = [...type.fields].filter(([, f]) => f.required).map(([key, f]) => `${JSON.stringify(key)}: ${f.nullable ? 'null' : zeroOf(f.type)}`)
      return fields.length > 0 ? `{ ${fields.join(', ')} }` : '{}'
    }
  }
}

/** A type's identity: structs by definition, lists and maps by what they hold. */
function signature (type: GoType): string {
  switch (type.kind) {
    case 'struct': return type.def
    case 'list': case 'map': return `${type.kind}(${signature(type.elem)}${type.elemNullable ? ' or null' : ''})`
    case 'string': return `${type.goName}${type.values ? `(${type.values.join('|')})` : ''}`
    default: return type.kind
  }
}

/** The Go package (its alias) a struct, list or map type belongs to: a collection's is its innermost element's. */
function packageOf (type: GoType): string {
  if (type.kind === 'list' || type.kind === 'map') return packageOf(type.elem)
  if (type.kind !== 'struct') return BUILTIN
  const name = PACKAGES[type.def.slice(0, type.def.lastIndexOf('.'))]
  if (!name) throw new Error(`${type.def}: add its Go package to PACKAGES in tools/decoders.ts`)
  return name
}

type Collection = GoType & { kind: 'struct' | 'list' | 'map' }

/** Every module being written, and the function names taken across them (each function has one name everywhere). */
class Modules {
  readonly byPackage = new Map<string, Module>()
  readonly #names = new Map<string, { module: Module, name: string }>()
  readonly #used = new Set<string>()

  /** The name of the function checking a type, written once in its package's module and imported by `from`. */
  functionOf (type: Collection, from: Module): string {
    let known = this.#names.get(signature(type))
    if (!known) {
      const pkg = packageOf(type)
      let module = this.byPackage.get(pkg)
      if (!module) this.byPackage.set(pkg, module = new Module(pkg, this))
      const base = type.kind === 'struct' ? type.goName.replace('.', '_') : `${type.kind}Of_${goTypeName(type.elem).replace(/[^A-Za-z0-9]+/g, '_')}`
      let name = base
      for (let i = 2; this.#used.has(name); i++) name = `${base}_${i}`
      this.#used.add(name)
      known = { module, name }
      this.#names.set(signature(type), known)
      module.write(name, type)
    }
    if (known.module !== from) {
      known.module.exported.add(known.name)
      from.imports(known.module.pkg, known.name)
    }
    return known.name
  }
}

/** One generated module: the functions of one Go package's types. */
class Module {
  readonly exported = new Set<string>()
  readonly #imports = new Map<string, Set<string>>()
  readonly #constants = new Map<string, { name: string, type: string }>()
  readonly #functions: Array<{ name: string, text: string }> = []

  constructor (readonly pkg: string, readonly modules: Modules) {}

  imports (pkg: string, name: string): void {
    this.#imports.set(pkg, (this.#imports.get(pkg) ?? new Set()).add(name))
  }

  write (name: string, type: Collection): void {
    // Registered before its body is built, so that the module's order is the order of first use.
    const entry = { name, text: '' }
    this.#functions.push(entry)
    entry.text = type.kind === 'struct' ? this.#struct(name, type) : this.#collection(name, type)
  }

  /** A module-level constant, shared by every function that needs the same value. */
  #constant (prefix: string, type: string, code: string): string {
    const existing = this.#constants.get(code)
    if (existing) return existing.name
    const name = `${prefix}_${this.#constants.size}`
    this.#constants.set(code, { name, type })
    return name
  }

  /** The expression checking `v` (neither null nor undefined) of a type, at `depth + 1`. */
  #check (type: GoType): string {
    switch (type.kind) {
      case 'string':
        if (type.values) return `enumStr(v, '${type.goName}', ${this.#constant('VALUES', 'ReadonlySet<string>', `new Set(${JSON.stringify(type.values)})`)}, mode)`
        return type.goName === 'string' ? 'str(v)' : `str(v, '${type.goName}')`
      case 'bool': case 'int32': case 'time': case 'intOrString': case 'bytes': return `${type.kind}(v)`
      case 'int64': return 'int64(v, mode)'
      case 'any': return 'anyJSON(v, mode, depth + 1)'
      default: return `${this.modules.functionOf(type, this)}(v, mode, depth + 1)`
    }
  }

  #struct (name: string, type: GoType & { kind: 'struct' }): string {
    const folded = this.#constant('FIELDS', 'ReadonlyMap<string, string>', `new Map(${JSON.stringify([...type.fields.keys()].map(k => [k.toUpperCase(), k]))})`)
    // Cases with the same check share one branch.
    const branches = new Map<string, string[]>()
    for (const [key, field] of type.fields) {
      const check = this.#check(field.type)
      branches.set(check, [...branches.get(check) ?? [], key])
    }
    const cases = [...branches].map(([check, keys]) => `      ${keys.map(k => `case ${JSON.stringify(k)}:`).join(' ')} p = ${check}; break`)
    const patch = type.fields.has('patchType') && type.fields.get('patch')?.type.kind === 'bytes'
    // What a request received keeps of null (see rules.ts: nullField): a zero value, or nothing; nullable fields keep it.
    const nulls = [...type.fields].filter(([, f]) => !f.nullable && !KEEPS_NULL.has(f.type.kind))
      .map(([key, f]) => `[${JSON.stringify(key)}, ${f.required ? this.#zero(f.type) : 'null'}]`)
    const nullsName = nulls.length > 0 ? this.#constant('NULLS', 'ReadonlyMap<string, (() => unknown) | null>', `new Map<string, (() => unknown) | null>([${nulls.join(', ')}])`) : undefined
    const required = [...type.fields].filter(([, f]) => f.required)
      .map(([key, f]) => `${JSON.stringify(key)}, ${f.nullable ? this.#constant('ZERO', '() => unknown', '() => null') : this.#zero(f.type)}`)
    const requiredName = required.length > 0 ? this.#constant('REQUIRED', 'ReadonlyArray<string | (() => unknown)>', `[${required.join(', ')}]`) : undefined
    return [
      `/** ${type.def} */`,
      `function ${name} (value: unknown, mode: Mode, depth: number): Problem | undefined {`,
      `  if (typeof value !== 'object' || Array.isArray(value)) return mismatch(value, '${type.goName}')`,
      '  if (depth > MAX_DEPTH) return tooDeep(value)',
      '  const o = value as Record<string, unknown>',
      '  let first: Problem | undefined',
      '  for (const key in o) {',
      '    const v = o[key]',
      ...(nullsName
        ? ['    if (v === null || v === undefined) {', `      if (v === null && mode === RECEIVE) nullField(o, key, ${nullsName})`, '      continue', '    }']
        : ['    if (v === null || v === undefined) continue']),
      '    let p: Problem | undefined',
      '    switch (key) {',
      ...cases,
      `      default: p = unknownField(key, v, ${folded}, mode, depth + 1)`,
      '    }',
      '    if (p !== undefined) {',
      '      at(p, key)',
      '      if (p.hard) return p',
      '      first ??= p',
      '    }',
      '  }',
      ...(requiredName ? [`  if (mode === RECEIVE && first === undefined) fillMissing(o, ${requiredName})`] : []),
      patch ? '  return first ?? (mode === ANSWER ? patchContent(o) : undefined)' : '  return first',
      '}'
    ].join('\n')
  }

  /** A constant function returning a fresh zero value of a type. */
  #zero (type: GoType): string {
    return this.#constant('ZERO', '() => unknown', `() => (${zeroOf(type)})`)
  }

  #collection (name: string, type: GoType & { kind: 'list' | 'map' }): string {
    const list = type.kind === 'list'
    // An element or value received as null becomes the zero value Go reads, unless it may be null.
    const zero = type.elemNullable || KEEPS_NULL.has(type.elem.kind) ? undefined : this.#zero(type.elem)
    return [
      `function ${name} (value: unknown, mode: Mode, depth: number): Problem | undefined {`,
      list
        ? `  if (!Array.isArray(value)) return mismatch(value, '${goTypeName(type)}')`
        : `  if (typeof value !== 'object' || Array.isArray(value)) return mismatch(value, '${goTypeName(type)}')`,
      '  if (depth > MAX_DEPTH) return tooDeep(value)',
      list ? '  const o: unknown[] = value' : '  const o = value as Record<string, unknown>',
      '  let first: Problem | undefined',
      list ? '  for (let key = 0; key < o.length; key++) {' : '  for (const key in o) {',
      '    const v = o[key]',
      ...(zero
        ? ['    if (v === null || v === undefined) {', `      if (v === null && mode === RECEIVE) o[key] = ${zero}()`, '      continue', '    }']
        : ['    if (v === null || v === undefined) continue']),
      `    const p = ${this.#check(type.elem)}`,
      '    if (p !== undefined) {',
      list ? '      at(p, key)' : '      atKey(p, key)',
      '      if (p.hard) return p',
      '      first ??= p',
      '    }',
      '  }',
      '  return first',
      '}'
    ].join('\n')
  }

  /** The module's text; `roots` (runtimehooksv1 only) are the hooks' requests and responses by definition name. */
  render (roots?: Record<string, string>): string {
    const functions = this.#functions.map(({ name, text }) => this.exported.has(name) ? text.replace(/^function /m, 'export function ') : text)
    const body = functions.join('\n')
    const rules = RULES.filter(name => new RegExp(`\\b${name}\\b`).test(body))
    return [
      `// Generated by \`npm run generate\` (tools/decoders.ts) from Cluster API's definitions: the Go decoders of package ${this.pkg}; do not edit.`,
      '/* eslint-disable */',
      `import { ${[...rules, 'type Mode', 'type Problem', ...(roots ? ['type Checker'] : [])].join(', ')} } from './rules.js'`,
      ...[...this.#imports].sort(([a], [b]) => a.localeCompare(b)).map(([pkg, names]) => `import { ${[...names].sort().join(', ')} } from './${pkg}.generated.js'`),
      '',
      ...[...this.#constants].map(([code, { name, type }]) => `const ${name}: ${type} = ${code}`),
      '',
      ...functions.flatMap(f => [f, '']),
      ...(roots
        ? ['/** The checker of every hook\'s request and response, by definition name. */', 'export const hookCheckers: Readonly<Record<string, Checker>> = {',
            Object.entries(roots).map(([definition, fn]) => `  ${JSON.stringify(definition)}: ${fn}`).join(',\n'), '}', '']
        : [])
    ].join('\n')
  }
}

/** Path (relative to the repository root) -> content of every generated decoder module. */
export function renderDecoders (): Record<string, string> {
  const model = new GoTypes()
  const modules = new Modules()
  const hooks = new Module(HOOKS, modules)
  modules.byPackage.set(HOOKS, hooks)
  const roots: Record<string, string> = {}
  for (const hook of capiHooks) {
    for (const definition of [hook.request, hook.response]) {
      const type = model.definition(definition)
      if (type.kind !== 'struct') throw new Error(`${definition} is not a struct`)
      roots[definition] = modules.functionOf(type, hooks)
    }
  }
  const files: Record<string, string> = {}
  for (const [pkg, module] of modules.byPackage) files[`${DECODER_DIR}/${pkg}.generated.ts`] = module.render(pkg === HOOKS ? roots : undefined)
  return files
}
