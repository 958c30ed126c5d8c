// sigs.k8s.io/yaml v1.6.0's Unmarshal into a JSON value, as Cluster API reads a rendered template: the first YAML
// document decoded by go.yaml.in/yaml/v2 (YAML 1.1 scalars: yes/no/on/off, ~, 0x/0o/0 octal, 1_000, .inf,
// timestamps kept as strings, merge keys applied in order), converted to JSON the way sigs.k8s.io/yaml does (keys
// as strings, float keys printed as float32, NaN and ±Inf refused by encoding/json). The YAML text is parsed with
// the `yaml` package, so a syntax error's wording can differ from libyaml's (the outcome, an error, is the same).
// Go's bounds hold, with its messages: nesting (yaml-depth.ts) and aliases (an alias bomb is refused as `document
// contains excessive aliasing` once aliases make most of it). go-yaml has no bound on a document's size as such: the
// share aliases may take shrinks as the document grows.
import { Composer, type CST, type Document, isAlias, isMap, isScalar, isSeq, Lexer, LineCounter, type Node as YamlNode, Parser } from 'yaml'
import { spend } from '../budget/index.js'
import { GO_YAML_MAX_DEPTH, YAML_MAX_NESTING, yamlNesting } from './yaml-depth.js'
import { checkAnchors, libyamlMessage, nextToken, rootEnd, YamlError } from './yaml-libyaml.js'
import { sprintf } from './printf.js'
import { formatFloat, parseFloat, parseInt, parseUint } from '../go/strconv.js'
import { GoInt, GoMap, GoSlice, type GoValue, Unsupported } from './values.js'

export { YamlError } from './yaml-libyaml.js'

const TAG = 'tag:yaml.org,2002:'
const RESOLVED: Record<string, { tag: string, value: unknown }> = {}
for (const [value, tag, words] of [
  [true, 'bool', ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']],
  [false, 'bool', ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']],
  [null, 'null', ['', '~', 'null', 'Null', 'NULL']],
  [NaN, 'float', ['.nan', '.NaN', '.NAN']],
  [Infinity, 'float', ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']],
  [-Infinity, 'float', ['-.inf', '-.Inf', '-.INF']],
  ['<<', 'merge', ['<<']]
] as const) for (const w of words) RESOLVED[w] = { tag: TAG + tag, value }

// What libyaml's reader accepts: tab, line breaks, printable ASCII, NEL and the printable planes.
const NOT_PRINTABLE = /[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u

const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/

/** A decoded YAML value before JSON conversion: ints keep their Go kind (int vs uint64), floats are numbers. */
type YValue = null | boolean | string | number | { int: bigint, uint?: boolean } | YValue[] | YMap
/** A map's entries by key identity (see keyId), in the order they were last set. */
interface YMap { entries: Map<string, [YValue, YValue]> }

// go.yaml.in/yaml/v2's alias budget: once more than 100 of more than 1,000 decode steps come from aliases, aliases
// may make at most 99% of them, falling to 10% as the document grows from 400,000 to 4,000,000 steps.
const ALIAS_RATIO_LOW = 400_000
const ALIAS_RATIO_HIGH = 4_000_000

function allowedAliasRatio (decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_LOW) return 0.99
  if (decodeCount >= ALIAS_RATIO_HIGH) return 0.10
  return 0.99 - 0.89 * ((decodeCount - ALIAS_RATIO_LOW) / (ALIAS_RATIO_HIGH - ALIAS_RATIO_LOW))
}

function hint (c: string | undefined): string {
  if (c === undefined) return 'N'
  if (c === '+' || c === '-') return 'S'
  if (c >= '0' && c <= '9') return 'D'
  if ('yYnNtTfFoO~'.includes(c)) return 'M'
  if (c === '.') return '.'
  return ''
}

function shortTag (tag: string): string { return tag.startsWith(TAG) ? '!!' + tag.slice(TAG.length) : tag }

/** go.yaml.in/yaml/v2's resolve: a scalar's tag and value. */
function resolve (tag: string, text: string): { tag: string, value: YValue } {
  if (tag !== '' && ![TAG + 'str', TAG + 'bool', TAG + 'int', TAG + 'float', TAG + 'null', TAG + 'timestamp'].includes(tag)) return { tag, value: text }
  if (tag === TAG + 'timestamp') throw new Unsupported('a !!timestamp tag in the rendered YAML')
  let out: { tag: string, value: YValue } = { tag: TAG + 'str', value: text }
  const h = hint(text[0])
  if (h !== '' && tag !== TAG + 'str') {
    const known = RESOLVED[text]
    if (known !== undefined) out = { tag: known.tag, value: known.value as YValue }
    else if (h === '.') {
      const f = parseFloat(text)
      if (f.ok) out = { tag: TAG + 'float', value: f.v }
    } else if (h === 'D' || h === 'S') {
      const plain = text.replaceAll('_', '')
      const i = parseInt(plain)
      const u = parseUint(plain)
      if (i.ok) out = { tag: TAG + 'int', value: { int: i.v } }
      else if (u.ok) out = { tag: TAG + 'int', value: { int: u.v, uint: true } }
      else if (YAML_FLOAT.test(plain) && parseFloat(plain).ok) out = { tag: TAG + 'float', value: parseFloat(plain).v }
      else if (plain.startsWith('0b')) {
        const b = /^[01]+$/.test(plain.slice(2)) ? BigInt('0b' + plain.slice(2)) : undefined
        if (b !== undefined) out = b < (1n << 63n) ? { tag: TAG + 'int', value: { int: b } } : b < (1n << 64n) ? { tag: TAG + 'int', value: { int: b, uint: true } } : out
      } else if (plain.startsWith('-0b') && /^[01]+$/.test(plain.slice(3))) {
        const b = -BigInt('0b' + plain.slice(3))
        if (b >= -(1n << 63n)) out = { tag: TAG + 'int', value: { int: b } }
      }
    }
  }
  if (tag === '' || tag === out.tag || tag === TAG + 'str') return out
  if (tag === TAG + 'float' && out.tag === TAG + 'int') return { tag, value: Number((out.value as { int: bigint }).int) }
  throw new YamlError(`yaml: cannot decode ${shortTag(out.tag)} \`${text}\` as a ${shortTag(tag)}`)
}

const MERGE_WANTS_MAP = 'yaml: map merge requires map or sequence of maps as the value'

/** go.yaml.in/yaml/v2's decoder into interface{}: one counted step per node it unmarshals, aliases expanded. */
class Decoder {
  private readonly active = new Set<YamlNode>()
  private decodeCount = 0
  private aliasCount = 0
  private aliasDepth = 0
  constructor (private readonly doc: Document, private readonly text: string) {}

  /** The document's value (the document node is a step of its own). */
  document (root: YamlNode | null): YValue {
    this.step()
    return this.value(root)
  }

  /** A decode step: refused when aliases make too much of the document (Go's rule and message). */
  private step (): void {
    spend()
    this.decodeCount++
    if (this.aliasDepth > 0) this.aliasCount++
    if (this.aliasCount > 100 && this.decodeCount > 1000 && this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)) {
      throw new YamlError('yaml: document contains excessive aliasing')
    }
  }

  /** The value of an alias's anchor, decoded inside the alias (counted as aliased). */
  private aliased<T> (n: YamlNode, decode: (target: YamlNode) => T): T {
    const target = this.deref(n)
    if (this.active.has(target)) throw new YamlError(`yaml: anchor '${(n as { source: string }).source}' value contains itself`)
    this.active.add(target)
    this.aliasDepth++
    try {
      return decode(target)
    } finally {
      this.aliasDepth--
      this.active.delete(target)
    }
  }

  value (n: YamlNode | null): YValue {
    this.step()
    if (n === null || n === undefined) return null
    if (isAlias(n)) return this.aliased(n, target => this.value(target))
    if (isScalar(n)) return this.scalar(n)
    if (isSeq(n)) return n.items.map(x => this.value(x as YamlNode))
    if (isMap(n)) {
      const m: YMap = { entries: new Map() }
      this.mapInto(n, m)
      return m
    }
    return null
  }

  private scalar (n: YamlNode & { value: unknown, tag?: string, type?: string, range?: [number, number, number] | null }): YValue {
    const text = String(n.value)
    const tag = n.tag ?? ''
    if (tag === TAG + 'binary') {
      const bytes = Buffer.from(text.replace(/\s/g, ''), 'base64')
      return new TextDecoder().decode(bytes)
    }
    // A block scalar running to the end of input without a final line break has none in libyaml.
    const blockAtEnd = (n.type === 'BLOCK_LITERAL' || n.type === 'BLOCK_FOLDED') && n.range?.[1] === this.text.length && !/[\r\n]$/.test(this.text)
    if (blockAtEnd && text.endsWith('\n') && tag === '') return text.slice(0, -1)
    if (tag === '' && n.type !== 'PLAIN') return text
    return resolve(tag, text).value
  }

  private set (m: YMap, k: YValue, v: YValue): void {
    if (Array.isArray(k) || (k !== null && typeof k === 'object' && 'entries' in k)) {
      throw new YamlError(`yaml: invalid map key: ${sprintf('%#v', [toGo(k)])}`)
    }
    // A key set again moves to the end, with its new value.
    const id = keyId(k)
    m.entries.delete(id)
    m.entries.set(id, [k, v])
  }

  private mapInto (n: YamlNode, m: YMap): void {
    if (!isMap(n)) throw new YamlError(MERGE_WANTS_MAP)
    for (const pair of n.items) {
      const key = pair.key as YamlNode | null
      if (isScalar(key) && key.value === '<<' && (key.tag === undefined || key.tag === TAG + 'merge') && key.type === 'PLAIN') {
        this.merge(pair.value as YamlNode, m)
        continue
      }
      this.set(m, this.value(key), this.value(pair.value as YamlNode | null))
    }
  }

  private deref (n: YamlNode): YamlNode {
    if (!isAlias(n)) return n
    const target = n.resolve(this.doc)
    if (target === undefined) throw new YamlError(`yaml: unknown anchor '${n.source}' referenced`)
    return target
  }

  /** A merge key's value: a map, an alias of one, or a sequence of those (earlier ones win). */
  private merge (n: YamlNode, m: YMap): void {
    if (!isSeq(n)) {
      this.mergeOne(n, m)
      return
    }
    for (let i = n.items.length - 1; i >= 0; i--) {
      const item = n.items[i] as YamlNode
      if (!isMap(this.deref(item))) throw new YamlError(MERGE_WANTS_MAP)
      this.mergeOne(item, m)
    }
  }

  private mergeOne (n: YamlNode, m: YMap): void {
    if (!isMap(this.deref(n))) throw new YamlError(MERGE_WANTS_MAP)
    this.step()
    if (!isAlias(n)) this.mapInto(n, m)
    else {
      this.aliased(n, target => {
        this.step()
        this.mapInto(target, m)
      })
    }
  }
}

/** A map key's identity: ints by value and kind, NaN equal to NaN, the rest by value. */
function keyId (k: YValue): string {
  if (k !== null && typeof k === 'object' && 'int' in k) return `i${k.uint === true ? 'u' : ''}:${k.int}`
  if (typeof k === 'number') return `f:${Number.isNaN(k) ? 'NaN' : k}`
  return `${typeof k}:${String(k)}`
}

function toGo (v: YValue): GoValue {
  if (v === null || typeof v !== 'object') return v
  if (Array.isArray(v)) return new GoSlice('[]interface {}', v.map(toGo))
  if ('int' in v) return new GoInt(v.uint === true ? 'uint64' : 'int', v.int)
  return new GoMap('map[interface {}]interface {}', new Map([...v.entries.values()].map(([k, x]) => [String(k), toGo(x)])))
}

/** strconv.FormatFloat(f, 'g', -1, 32): the shortest digits that read back as the same float32, printed as 'g'. */
function formatFloat32 (f: number): string {
  const x = Math.fround(f)
  if (!Number.isFinite(x)) return formatFloat(x, 'g', -1)
  for (let p = 1; p < 9; p++) {
    const s = Number(x.toPrecision(p))
    if (Math.fround(s) === x) return formatFloat(s, 'g', -1)
  }
  return formatFloat(Number(x.toPrecision(9)), 'g', -1)
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** The JSON value sigs.k8s.io/yaml makes of a decoded YAML value (json.Marshal's refusals included). */
function toJSON (v: YValue): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new YamlError(`json: unsupported value: ${formatFloat(v, 'g', -1)}`)
    return v
  }
  if (Array.isArray(v)) return v.map(toJSON)
  if ('int' in v) {
    if (v.int > MAX_SAFE || v.int < -MAX_SAFE) throw new Unsupported(`the integer ${v.int} in the rendered YAML (beyond JS's exact integers)`)
    return Number(v.int)
  }
  const out: Record<string, unknown> = {}
  for (const [k, x] of v.entries.values()) {
    let key: string
    if (typeof k === 'string') key = k
    else if (typeof k === 'boolean') key = k ? 'true' : 'false'
    else if (typeof k === 'number') key = formatFloat32(k).replace('+Inf', '.inf').replace('-Inf', '-.inf').replace('NaN', '.nan')
    else if (k !== null && typeof k === 'object' && 'int' in k && k.uint !== true) key = k.int.toString()
    else {
      const type = k === null ? '%!s(<nil>)' : 'uint64'
      const show = (y: YValue): string => y === null ? '<nil>' : sprintf('%#v', [toGo(y)])
      throw new YamlError(`unsupported map key of type: ${type}, key: ${show(k)}, value: ${show(x)}`)
    }
    Object.defineProperty(out, key, { value: toJSON(x), enumerable: true, writable: true, configurable: true })
  }
  return out
}

/**
 * The yaml package's parseAllDocuments (errors placed as its prettyErrors places them: linePos, and the message's
 * first line ending `at line L, column C`), one budget step per token: a large document takes seconds to parse.
 */
function parseAllDocuments (text: string): Document[] {
  const lines = new LineCounter()
  const parser = new Parser(lines.addNewLine)
  lines.addNewLine(0)
  function * tokens (): Generator<CST.Token> {
    for (const lexeme of new Lexer().lex(text)) {
      spend()
      yield * parser.next(lexeme)
    }
    yield * parser.end()
  }
  const docs = Array.from(new Composer({ version: '1.1', schema: 'failsafe', uniqueKeys: false, merge: false }).compose(tokens()))
  for (const error of docs.flatMap(d => d.errors)) {
    if (error.pos[0] === -1) continue
    error.linePos = [lines.linePos(error.pos[0]), lines.linePos(error.pos[1])]
    error.message += ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}`
  }
  return docs
}

/** Go's depth limits (of its YAML scanner, then of encoding/json), and this engine's own, before the text is parsed. */
function refuseNesting (text: string): void {
  const nesting = yamlNesting(text)
  if (nesting.goRefusal !== undefined) throw new YamlError(`error converting YAML to JSON: ${nesting.goRefusal}`)
  if (nesting.jsonRefusal !== undefined) throw new YamlError(`error unmarshaling JSON: while decoding JSON: ${nesting.jsonRefusal}`)
  if (nesting.deepest > YAML_MAX_NESTING) throw new Unsupported(`rendered YAML nested ${nesting.deepest} levels deep (read up to ${YAML_MAX_NESTING}; Go reads up to ${GO_YAML_MAX_DEPTH})`)
}

/**
 * yaml.Unmarshal(text, &apiextensionsv1.JSON{}) then the JSON value: null for an empty document. Throws YamlError
 * with sigs.k8s.io/yaml's message, or Unsupported for what a JS value cannot hold exactly (integers beyond 2^53).
 */
export function yamlToJSON (text: string): unknown {
  // A budget step per KB: a large text is copied and scanned several times before it is parsed.
  spend(1 + (text.length >> 10))
  // The common rendered value is one plain word (true, 3, v1.31.2, a-name): resolved without parsing.
  const word = /^[ \t]*([A-Za-z0-9_+/][A-Za-z0-9_.+/=-]*)[ \t]*\n*$/.exec(text)
  if (word !== null) {
    try {
      return toJSON(resolve('', word[1] as string).value)
    } catch (e) {
      if (e instanceof YamlError) throw new YamlError(`error converting YAML to JSON: ${e.message}`)
      throw e
    }
  }
  // libyaml's reader refuses characters YAML does not allow anywhere in the stream.
  if (NOT_PRINTABLE.test(text)) throw new YamlError('error converting YAML to JSON: yaml: control characters are not allowed')
  // libyaml scans a '%' in the first column, where a token starts, as a directive.
  const directive = /^(?:[ \t]*(?:#.*)?\r?\n)*%([0-9A-Za-z_-]*)/.exec(text)
  if (directive !== null && directive[1] !== 'YAML' && directive[1] !== 'TAG') {
    const index = directive[0].split('\n').length - 1
    const where = index > 0 ? `line ${index + 1}: ` : ''
    throw new YamlError(`error converting YAML to JSON: yaml: ${where}${directive[1] === '' ? 'could not find expected directive name' : 'found unknown directive name'}`, true)
  }
  // Under a block collection in the first column, a '%' starting a line starts a token: a directive.
  const blockRoot = /^(?:[ \t]*(?:#.*)?\r?\n)*(?:- |[^\s#%][^\n]*?:(?:[ \t]|$))/m.exec(text)
  const later = blockRoot !== null && blockRoot.index === 0 ? /\n%([0-9A-Za-z_-]*)(.?)/.exec(text) : null
  if (later !== null) {
    const line = text.slice(0, later.index + 1).split('\n').length
    const why = later[1] === '' ? 'could not find expected directive name' : !/^[ \t\r\n]?$/.test(later[2] as string) ? 'found unexpected non-alphabetical character' : later[1] !== 'YAML' && later[1] !== 'TAG' ? 'found unknown directive name' : undefined
    if (why !== undefined) throw new YamlError(`error converting YAML to JSON: yaml: line ${line}: ${why}`, true)
  }
  // A document end marker before any document: libyaml looks for the node it ends.
  if (/^(?:[ \t]*(?:#.*)?\r?\n)*\.\.\.(?:[ \t\r\n]|$)/.test(text)) throw new YamlError('error converting YAML to JSON: yaml: did not find expected node content', true)
  refuseNesting(text)
  const doc = parseAllDocuments(text)[0]
  if (doc === undefined) return null
  const { root, limit } = rootEnd(doc, text)
  // After a flow or quoted root the next token is on the same line (block indicators cannot start there).
  if (!/\n\s*$/.test(text.slice(0, Number.isFinite(limit) ? limit : 0))) nextToken(text, limit)
  const err = doc.errors.find(e => e.pos[0] < limit)
  if (err !== undefined) {
    const line = err.linePos?.[0].line ?? 1
    throw new YamlError(`error converting YAML to JSON: yaml: ${libyamlMessage(err.message, line, text)}`, true)
  }
  try {
    checkAnchors(doc, text, limit)
    return toJSON(new Decoder(doc, text).document(root))
  } catch (e) {
    if (e instanceof YamlError) throw new YamlError(`error converting YAML to JSON: ${e.message}`, e.detailDiffers)
    throw e
  }
}
