// How deep a YAML text nests, measured before it is parsed. go.yaml.in/yaml/v2's scanner refuses the 10001st nested
// flow collection and the 10001st nested block collection (`exceeded max depth of 10000`); the yaml package parses
// by recursion and runs out of stack far earlier (between 800 and 2,000 levels, depending on how deep the caller's
// stack already is; on a megabyte of '[' the process dies), so the text is measured first, with the yaml package's
// lexer, which is iterative and linear. A block collection opens, as in libyaml, where a '-', '?' or a key's ':' sits
// right of the current indentation; a line that starts left of it closes it.
import { CST, Lexer } from 'yaml'
import { spend } from '../budget/index.js'

/** libyaml's max_flow_level and max_indents. */
export const GO_YAML_MAX_DEPTH = 10000

/** How deep this project reads YAML: the yaml package's parser and the code walking the result recurse (800 is too deep under a test runner). */
export const YAML_MAX_NESTING = 500

/** What the measure found. */
interface YamlNesting {
  /** deepest is the deepest nesting seen (flow and block collections together). */
  deepest: number
  /** goRefusal is go.yaml.in/yaml/v2's message when it refuses the depth (`yaml: line 3: exceeded max depth of 10000`). */
  goRefusal?: string
  /**
   * jsonRefusal is encoding/json's message when the YAML is read but its JSON nests deeper than 10000 (flow and block
   * collections together), which sigs.k8s.io/yaml then refuses (`invalid character '[' exceeded max depth`).
   */
  jsonRefusal?: string
}

const ZERO_WIDTH = new Set(['byte-order-mark', 'doc-mode', 'flow-error-end', 'scalar'])
const SPACING = new Set(['space', 'comment'])

/**
 * The nesting of a YAML text, up to where Go refuses it: of its first document (what sigs.k8s.io/yaml's Unmarshal
 * reads), or of the deepest of its documents (what kubectl reads from a manifest file, one document at a time).
 */
export function yamlNesting (text: string, documents: 'first' | 'all' = 'first'): YamlNesting {
  let line = 1
  let column = 0
  let flow = 0
  let sawContent = false
  let keyColumn = -1
  const indents: number[] = []
  let deepest = 0
  let jsonRefusal: string | undefined
  const refused = (): YamlNesting => ({ deepest, goRefusal: `yaml: ${line > 1 ? `line ${line}: ` : ''}exceeded max depth of ${GO_YAML_MAX_DEPTH}` })
  const indent = (): number => indents.at(-1) ?? -1
  for (const token of new Lexer().lex(text)) {
    spend()
    const type = CST.tokenType(token)
    if (type === 'newline') {
      line++
      column = 0
      keyColumn = -1
      continue
    }
    if (type !== null && ZERO_WIDTH.has(type)) continue
    if (type === 'doc-start' || type === 'doc-end') {
      if (sawContent && documents === 'first') break
      flow = 0
      indents.length = 0
    } else if (type === null || !SPACING.has(type)) {
      sawContent = true
      if (flow === 0) while (indent() > column) indents.pop()
      let opens = -1
      let opener = type === 'flow-seq-start' || type === 'seq-item-ind' ? '[' : '{'
      if (type === 'flow-seq-start' || type === 'flow-map-start') {
        if (flow === 0 && keyColumn < 0) keyColumn = column
        if (++flow > GO_YAML_MAX_DEPTH) return refused()
      } else if (type === 'flow-seq-end' || type === 'flow-map-end') {
        flow = Math.max(0, flow - 1)
      } else if (flow === 0 && (type === 'seq-item-ind' || type === 'explicit-key-ind')) {
        opens = column
        keyColumn = -1
      } else if (flow === 0 && type === 'map-value-ind') {
        opens = keyColumn
        opener = '{'
        keyColumn = -1
      } else if (flow === 0 && keyColumn < 0) keyColumn = column
      if (opens >= 0 && opens > indent()) {
        indents.push(opens)
        if (indents.length > GO_YAML_MAX_DEPTH) return refused()
      }
      if (flow + indents.length > GO_YAML_MAX_DEPTH && jsonRefusal === undefined) jsonRefusal = `invalid character '${opener}' exceeded max depth`
      deepest = Math.max(deepest, flow + indents.length)
    }
    const lastBreak = token.lastIndexOf('\n')
    if (lastBreak < 0) column += token.length
    else {
      line += token.split('\n').length - 1
      column = token.length - lastBreak - 1
    }
  }
  return { deepest, ...(jsonRefusal !== undefined ? { jsonRefusal } : {}) }
}
