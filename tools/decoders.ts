// Renders src/catalog/decoders/<group>.generated.cjs: for the request and response of every Cluster API hook, a
// checker that accepts what Go's encoding/json accepts when it decodes into Cluster API's Go types (the rules are in
// src/catalog/decoder/rules.ts; the Go types come from Cluster API's definitions through go-types.ts), so that
// nothing is compiled at run time. One file per group of hooks (see src/catalog/precompiled.ts), one function per Go
// struct, list and map type its hooks carry; a field dispatches on its key.
import { posix } from 'node:path'
import { DECODERS_DIR, precompiledGroups } from '../src/catalog/precompiled.js'
import { GoTypes, type GoType } from './go-types.js'

/** The directory of the generated decoders, relative to the repository root. */
export const DECODERS_PATH = `src/catalog/${DECODERS_DIR}`

/** Kinds whose zero value Go writes as null: a null received is that zero value already. */
const KEEPS_NULL = new Set<GoType['kind']>(['time', 'any', 'bytes'])

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

/** Writes the functions of every struct, list and map type reachable from the hooks, each once. */
class Writer {
  readonly #names = new Map<string, string>()
  readonly #used = new Set<string>()
  readonly #constants = new Map<string, string>()
  readonly #functions: string[] = []

  /** The name of the function checking a struct, list or map type, written on first use. */
  functionOf (type: GoType & { kind: 'struct' | 'list' | 'map' }): string {
    const known = this.#names.get(signature(type))
    if (known) return known
    const base = type.kind === 'struct' ? type.goName.replace('.', '_') : `${type.kind}Of_${goTypeName(type.elem).replace(/[^A-Za-z0-9]+/g, '_')}`
    let name = base
    for (let i = 2; this.#used.has(name); i++) name = `${base}_${i}`
    this.#used.add(name)
    this.#names.set(signature(type), name)
    this.#functions.push(type.kind === 'struct' ? this.#struct(name, type) : this.#collection(name, type))
    return name
  }

  /** A module-level constant, shared by every function that needs the same value. */
  #constant (prefix: string, code: string): string {
    const existing = this.#constants.get(code)
    if (existing) return existing
    const name = `${prefix}_${this.#constants.size}`
    this.#constants.set(code, name)
    return name
  }

  /** The expression checking `v` (neither null nor undefined) of a type, at `depth + 1`. */
  #check (type: GoType): string {
    switch (type.kind) {
      case 'string':
        if (type.values) return `enumStr(v, '${type.goName}', ${this.#constant('VALUES', `new Set(${JSON.stringify(type.values)})`)}, mode)`
        return type.goName === 'string' ? 'str(v)' : `str(v, '${type.goName}')`
      case 'bool': case 'int32': case 'time': case 'intOrString': case 'bytes': return `${type.kind}(v)`
      case 'int64': return 'int64(v, mode)'
      case 'any': return 'anyJSON(v, mode, depth + 1)'
      default: return `${this.functionOf(type)}(v, mode, depth + 1)`
    }
  }

  #struct (name: string, type: GoType & { kind: 'struct' }): string {
    const folded = this.#constant('FIELDS', `new Map(${JSON.stringify([...type.fields.keys()].map(k => [k.toUpperCase(), k]))})`)
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
    const nullsName = nulls.length > 0 ? this.#constant('NULLS', `new Map([${nulls.join(', ')}])`) : undefined
    const required = [...type.fields].filter(([, f]) => f.required)
      .map(([key, f]) => `${JSON.stringify(key)}, ${f.nullable ? this.#constant('ZERO', '() => null') : this.#zero(f.type)}`)
    const requiredName = required.length > 0 ? this.#constant('REQUIRED', `[${required.join(', ')}]`) : undefined
    return [
      `/** ${type.def} */`,
      `function ${name} (value, mode, depth) {`,
      `  if (typeof value !== 'object' || Array.isArray(value)) return mismatch(value, '${type.goName}')`,
      '  if (depth > MAX_DEPTH) return tooDeep(value)',
      '  let first',
      '  for (const key in value) {',
      '    const v = value[key]',
      ...(nullsName
        ? ['    if (v === null || v === undefined) {', `      if (v === null && mode === RECEIVE) nullField(value, key, ${nullsName})`, '      continue', '    }']
        : ['    if (v === null || v === undefined) continue']),
      '    let p',
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
      ...(requiredName ? [`  if (mode === RECEIVE && first === undefined) fillMissing(value, ${requiredName})`] : []),
      patch ? '  return first ?? (mode === ANSWER ? patchContent(value) : undefined)' : '  return first',
      '}'
    ].join('\n')
  }

  /** A constant function returning a fresh zero value of a type. */
  #zero (type: GoType): string {
    return this.#constant('ZERO', `() => (${zeroOf(type)})`)
  }

  #collection (name: string, type: GoType & { kind: 'list' | 'map' }): string {
    const list = type.kind === 'list'
    // An element or value received as null becomes the zero value Go reads, unless it may be null.
    const zero = type.elemNullable || KEEPS_NULL.has(type.elem.kind) ? undefined : this.#zero(type.elem)
    return [
      `function ${name} (value, mode, depth) {`,
      list
        ? `  if (!Array.isArray(value)) return mismatch(value, '${goTypeName(type)}')`
        : `  if (typeof value !== 'object' || Array.isArray(value)) return mismatch(value, '${goTypeName(type)}')`,
      '  if (depth > MAX_DEPTH) return tooDeep(value)',
      '  let first',
      list ? '  for (let key = 0; key < value.length; key++) {' : '  for (const key in value) {',
      '    const v = value[key]',
      ...(zero
        ? ['    if (v === null || v === undefined) {', `      if (v === null && mode === RECEIVE) value[key] = ${zero}()`, '      continue', '    }']
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

  /** The file: CommonJS exporting a function of the rules that returns the root checkers by definition name. */
  render (hooks: string[], roots: Record<string, string>): string {
    const names = ['ANSWER', 'MAX_DEPTH', 'RECEIVE', 'anyJSON', 'at', 'atKey', 'bool', 'bytes', 'enumStr', 'fillMissing', 'int32', 'int64', 'intOrString', 'mismatch', 'nullField', 'patchContent', 'str', 'time', 'tooDeep', 'unknownField']
    const indent = (text: string) => text.split('\n').map(line => line ? `  ${line}` : line).join('\n')
    return [
      `// Generated by \`npm run generate\` (tools/decoders.ts) from Cluster API's definitions of ${hooks.join(', ')}; do not edit.`,
      '/* eslint-disable */',
      "'use strict'",
      'module.exports = function decoders (rules) {',
      `  const { ${names.join(', ')} } = rules`,
      ...[...this.#constants].map(([code, name]) => `  const ${name} = ${code}`),
      '',
      ...this.#functions.flatMap(f => [indent(f), '']),
      '  return {',
      Object.entries(roots).map(([definition, fn]) => `    ${JSON.stringify(definition)}: ${fn}`).join(',\n'),
      '  }',
      '}',
      ''
    ].join('\n')
  }
}

/** Path (relative to the repository root) -> content of every group's generated decoders. */
export function renderDecoders (): Record<string, string> {
  const model = new GoTypes()
  const files: Record<string, string> = {}
  for (const [file, hooks] of precompiledGroups()) {
    const writer = new Writer()
    const roots: Record<string, string> = {}
    for (const hook of hooks) {
      for (const definition of [hook.request, hook.response]) {
        const type = model.definition(definition)
        if (type.kind !== 'struct') throw new Error(`${definition} is not a struct`)
        roots[definition] = writer.functionOf(type)
      }
    }
    files[posix.join('src/catalog', file)] = writer.render(hooks.map(h => h.hook), roots)
  }
  return files
}
