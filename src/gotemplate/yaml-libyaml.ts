// Where go.yaml.in/yaml/v2 (libyaml) and the `yaml` package part ways on text Cluster API may render: libyaml reads
// only as far as the first document's root node needs (and the one token after it), names anchors more strictly,
// and words its syntax errors differently. These helpers make the `yaml` package's answer Go's.
import { isAlias, isMap, isSeq, type Node as YamlNode, type Document } from 'yaml'

/** A YAML-to-JSON failure; message is sigs.k8s.io/yaml's (`error converting YAML to JSON: ...`). */
export class YamlError extends Error {
  /** detailDiffers is true when Go's wording after `yaml: ` comes from libyaml and may read differently. */
  constructor (message: string, readonly detailDiffers = false) {
    super(message)
  }
}

// The libyaml wording of the syntax errors the `yaml` package reports differently, where the cause is clear.
// go.yaml.in/yaml/v2 prefixes "line N: " from the problem's mark: 1-based for scanner errors, the 0-based line for
// parser errors (and none on the first line); at the end of input libyaml has moved to a new line.
export function libyamlMessage (message: string, line: number, text: string): string {
  const lines = text.split('\n').length - 1
  const eofLine = lines + (text.endsWith('\n') ? 0 : 1)
  const parserAt = (l: number): string => l > 0 ? `line ${l}: ` : ''
  const previous = text.split('\n').slice(0, Math.max(0, line - 1)).reverse().find(l => l.trim() !== '') ?? ''
  const scannerAt = (l: number): string => l > 1 ? `line ${l}: ` : ''
  if (message.startsWith('Nested mappings are not allowed in compact mappings')) return `${scannerAt(line)}mapping values are not allowed in this context`
  if (message.startsWith('Implicit keys need to be on a single line')) return `line ${line + 1}: mapping values are not allowed in this context`
  if (message.startsWith('Implicit map keys need to be followed by map values')) return `line ${line + 1}: could not find expected ':'`
  if (message.startsWith('Plain value cannot start with directive indicator character')) return `${scannerAt(line)}found character that cannot start any token`
  if (message.startsWith('Block scalar header includes extra characters')) return `${scannerAt(line)}did not find expected comment or line break`
  if (message.startsWith('Unexpected seq-item-ind') || message.startsWith('Unexpected block-seq-ind')) return `${scannerAt(line)}block sequence entries are not allowed in this context`
  if (message.startsWith('Tabs are not allowed as indentation')) return line > 1 ? `line ${line}: found a tab character that violates indentation` : 'found character that cannot start any token'
  // At the end of input, right after an opening bracket, a comma or a colon libyaml wants a node; after an item, more.
  const wantsNode = /[[{,:]\s*$/.test(text)
  if (/^Flow sequence .*end with a \]/.test(message)) return `${parserAt(eofLine)}did not find expected ${wantsNode ? 'node content' : '\',\' or \']\''}`
  if (/^Flow map .*end with a \}/.test(message)) return `${parserAt(eofLine)}did not find expected ${wantsNode ? 'node content' : '\',\' or \'}\''}`
  if (message.startsWith('Missing , or : between flow sequence items')) return `${parserAt(line - 1)}did not find expected ',' or ']'`
  if (message.startsWith('Missing , or : between flow map items')) return `${parserAt(line - 1)}did not find expected ',' or '}'`
  if (message.startsWith('Plain value cannot start with flow indicator character')) return `${parserAt(line - 1)}did not find expected node content`
  if (message.startsWith('Missing closing "quote') || message.startsWith('Missing closing \'quote')) return `${lines > 0 ? `line ${lines + 1}: ` : ''}found unexpected end of stream`
  if (message.startsWith('Unexpected scalar at node end') || message.startsWith('All mapping items must start at the same column')) {
    return `${parserAt(line - 1)}did not find expected ${/^\s*- /.test(previous) ? '\'-\' indicator' : 'key'}`
  }
  return message.split('\n')[0] as string
}

/**
 * Where libyaml stops reading the first document: after its root node it only scans the next token. So text after a
 * closed flow collection, a quoted scalar, or an indented block collection followed by a line in the first column
 * is never parsed (the `yaml` package reports errors there that Go never sees).
 */
export function rootEnd (doc: Document, text: string): { root: YamlNode | null, limit: number } {
  const root = doc.contents as YamlNode | null
  // A closed flow collection glued to what follows ("[]a: b") is the whole root for libyaml, not a map's key.
  if (isMap(root) && root.items.length > 0) {
    const key = root.items[0]?.key as (YamlNode & { flow?: boolean, range?: [number, number, number] }) | null
    const r = key?.range
    const empty = isMap(key) || isSeq(key) ? key.items.length === 0 : false
    if (key !== null && key.flow === true && empty && r !== undefined && r[0] === root.range?.[0] && /[\]}]/.test(text[r[1] - 1] ?? '') && !/^[ \t]*:/.test(text.slice(r[1]))) {
      return { root: key, limit: r[1] }
    }
  }
  return { root, limit: rootLimit(doc, text) }
}

function rootLimit (doc: Document, text: string): number {
  const contents = doc.contents as { flow?: boolean, type?: string, range?: [number, number, number] } | null
  const [start, end] = contents?.range ?? [0, Infinity]
  if (contents === null || end === undefined) return Infinity
  if (contents.flow === true) return /[\]}]/.test(text[end - 1] ?? '') ? end : Infinity
  if (contents.type === 'QUOTE_DOUBLE' || contents.type === 'QUOTE_SINGLE') return end - 1 > start && text[end - 1] === text[start] ? end : Infinity
  if (isMap(contents) || isSeq(contents)) {
    const lineStart = text.lastIndexOf('\n', start - 1) + 1
    const indent = start - lineStart
    if (indent > 0 && /^[ ]+$/.test(text.slice(lineStart, start))) {
      // The first later line indented less than the root collection ends it.
      let at = text.indexOf('\n', start)
      while (at >= 0) {
        const line = /^[ ]*/.exec(text.slice(at + 1)) as RegExpExecArray
        const rest = text[at + 1 + line[0].length]
        if (rest !== undefined && rest !== '\n' && rest !== '#' && rest !== '\r' && line[0].length < indent) return at + 1 + line[0].length
        at = text.indexOf('\n', at + 1)
      }
    }
  }
  return Infinity
}

/** The one token libyaml scans after a flow or quoted root on the same line: some cannot start there. */
export function nextToken (text: string, at: number): void {
  if (!Number.isFinite(at)) return
  let p = at
  // A quoted scalar or flow collection there could be a simple key, so libyaml scans the token after it too.
  for (let guard = 0; guard < 16; guard++) {
    while (text[p] === ' ') p++
    const c = text[p]
    if (c === '"' || c === '\'') {
      const close = c === '"' ? /^"(?:[^"\\]|\\.)*"/.exec(text.slice(p)) : /^'(?:[^']|'')*'/.exec(text.slice(p))
      if (close === null) return
      p += close[0].length
      continue
    }
    if (c === '[' || c === '{') {
      const end = balanced(text, p)
      if (end < 0) return
      p = end
      continue
    }
    break
  }
  const m = /^(?:(-|\?)(?:[ \t\r\n]|$)|([@`%]))/.exec(text.slice(p))
  if (m === null) return
  const line = text.slice(0, at).split('\n').length
  const where = line > 1 ? `line ${line}: ` : ''
  const what = m[1] === '-' ? 'block sequence entries are not allowed in this context' : m[1] === '?' ? 'mapping keys are not allowed in this context' : 'found character that cannot start any token'
  throw new YamlError(`error converting YAML to JSON: yaml: ${where}${what}`, true)
}

/** The end of the flow collection opening at `at` (quotes respected), or -1 when it does not close on its line. */
function balanced (text: string, at: number): number {
  let depth = 0
  for (let i = at; i < text.length && text[i] !== '\n'; i++) {
    const c = text[i]
    if (c === '"' || c === '\'') {
      const close = text.indexOf(c, i + 1)
      if (close < 0) return -1
      i = close
    } else if (c === '[' || c === '{') depth++
    else if (c === ']' || c === '}') {
      depth--
      if (depth === 0) return i + 1
    }
  }
  return -1
}

/** libyaml's anchor and alias names are letters, digits, '-' and '_' (the yaml package allows more). */
export function checkAnchors (doc: Document, text: string, limit: number): void {
  visit(doc.contents as YamlNode | null, n => {
    const name = isAlias(n) ? n.source : (n as { anchor?: string }).anchor
    const at = (n as { range?: [number, number, number] }).range?.[0] ?? 0
    if (name === undefined || /^[0-9A-Za-z_-]+$/.test(name) || at >= limit) return
    const line = text.slice(0, at).split('\n').length
    throw new YamlError(`yaml: ${line > 1 ? `line ${line}: ` : ''}did not find expected alphabetic or numeric character`, true)
  })
}

function visit (n: YamlNode | null | undefined, f: (n: YamlNode) => void): void {
  if (n === null || n === undefined) return
  f(n)
  if (isMap(n)) for (const p of n.items) { visit(p.key as YamlNode, f); visit(p.value as YamlNode, f) }
  if (isSeq(n)) for (const x of n.items) visit(x as YamlNode, f)
}

const utf8Width = (lead: number): number => lead < 0x80 ? 1 : (lead & 0xe0) === 0xc0 ? 2 : (lead & 0xf0) === 0xe0 ? 3 : (lead & 0xf8) === 0xf0 ? 4 : 0

/** The characters libyaml's reader accepts: tab, line breaks, printable ASCII, NEL and the printable planes. */
const readable = (c: number): boolean => c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c <= 0x7e) || c === 0x85 ||
  (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff)

/**
 * What libyaml's reader refuses in UTF-8 bytes, as go.yaml.in/yaml/v2 words it (`yaml: invalid leading UTF-8 octet`,
 * `yaml: control characters are not allowed`, ...), or undefined. It reads a byte sequence at a time and stops at
 * the first problem.
 */
export function readerProblem (bytes: Uint8Array): string | undefined {
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i] as number
    const width = utf8Width(lead)
    if (width === 0) return 'yaml: invalid leading UTF-8 octet'
    if (i + width > bytes.length) return 'yaml: incomplete UTF-8 octet sequence'
    let value = width === 1 ? lead : lead & (0xff >> (width + 1))
    for (let k = 1; k < width; k++) {
      const octet = bytes[i + k] as number
      if ((octet & 0xc0) !== 0x80) return 'yaml: invalid trailing UTF-8 octet'
      value = (value << 6) + (octet & 0x3f)
    }
    if ((width === 2 && value < 0x80) || (width === 3 && value < 0x800) || (width === 4 && value < 0x10000)) return 'yaml: invalid length of a UTF-8 sequence'
    if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) return 'yaml: invalid Unicode character'
    if (!readable(value)) return 'yaml: control characters are not allowed'
    i += width
  }
  return undefined
}
