// The parse tree of a template (text/template/parse/node.go) and how each node prints itself: Go's exec quotes a
// node's String() in its error messages (`at <.a.b>`), so these must print exactly as Go's do.
import { quote } from '../go/strconv.js'

/** A plain-text node. */
interface TextNode { type: 'text', pos: number, text: string }
/** A sequence of nodes. */
export interface ListNode { type: 'list', pos: number, nodes: Node[] }
/** A pipeline with optional variable declarations. */
export interface PipeNode { type: 'pipe', pos: number, line: number, isAssign: boolean, decl: VariableNode[], cmds: CommandNode[] }
/** A non-control action, e.g. `{{.x}}`. */
interface ActionNode { type: 'action', pos: number, line: number, pipe: PipeNode }
/** A command of a pipeline: a function or field and its arguments. */
export interface CommandNode { type: 'command', pos: number, args: Node[] }
/** A function name. */
export interface IdentifierNode { type: 'identifier', pos: number, ident: string }
/** `$x.a.b`: the variable and the fields after it. */
export interface VariableNode { type: 'variable', pos: number, ident: string[] }
/** `.` */
interface DotNode { type: 'dot', pos: number }
/** `nil` */
interface NilNode { type: 'nil', pos: number }
/** `.a.b` */
export interface FieldNode { type: 'field', pos: number, ident: string[] }
/** `(pipe).a.b` or `fn.a` */
export interface ChainNode { type: 'chain', pos: number, node: Node, field: string[] }
/** `true` or `false`. */
interface BoolNode { type: 'bool', pos: number, value: boolean }
/** A numeric constant with the interpretations Go's parser gives it. */
export interface NumberNode {
  type: 'number'
  pos: number
  isInt: boolean
  isUint: boolean
  isFloat: boolean
  isComplex: boolean
  int64: bigint
  uint64: bigint
  float64: number
  text: string
}
/** A quoted or raw string constant. */
interface StringNode { type: 'string', pos: number, quoted: string, text: string }
/** `{{end}}` (parser only). */
export interface EndNode { type: 'end', pos: number }
/** `{{else}}` (parser only). */
export interface ElseNode { type: 'else', pos: number, line: number }
/** if, range and with. */
export interface BranchNode { type: 'if' | 'range' | 'with', pos: number, line: number, pipe: PipeNode, list: ListNode, elseList: ListNode | null }
/** `{{break}}` or `{{continue}}`. */
interface LoopControlNode { type: 'break' | 'continue', pos: number, line: number }
/** `{{template "name" pipe}}` */
export interface TemplateNode { type: 'template', pos: number, line: number, name: string, pipe: PipeNode | null }

/** Any node. */
export type Node = TextNode | ListNode | PipeNode | ActionNode | CommandNode | IdentifierNode | VariableNode | DotNode | NilNode |
FieldNode | ChainNode | BoolNode | NumberNode | StringNode | EndNode | ElseNode | BranchNode | LoopControlNode | TemplateNode

function pipeString (p: PipeNode): string {
  let s = ''
  if (p.decl.length > 0) {
    s += p.decl.map(nodeString).join(', ')
    s += p.isAssign ? ' = ' : ' := '
  }
  return s + p.cmds.map(nodeString).join(' | ')
}

/** Node.String() as Go prints it. */
export function nodeString (n: Node): string {
  switch (n.type) {
    case 'text': return n.text
    case 'list': return n.nodes.map(nodeString).join('')
    case 'pipe': return pipeString(n)
    case 'action': return '{{' + pipeString(n.pipe) + '}}'
    case 'command': return n.args.map(a => a.type === 'pipe' ? '(' + pipeString(a) + ')' : nodeString(a)).join(' ')
    case 'identifier': return n.ident
    case 'variable': return n.ident.join('.')
    case 'dot': return '.'
    case 'nil': return 'nil'
    case 'field': return n.ident.map(i => '.' + i).join('')
    case 'chain': return (n.node.type === 'pipe' ? '(' + pipeString(n.node) + ')' : nodeString(n.node)) + n.field.map(f => '.' + f).join('')
    case 'bool': return n.value ? 'true' : 'false'
    case 'number': return n.text
    case 'string': return n.quoted
    case 'end': return '{{end}}'
    case 'else': return '{{else}}'
    case 'if': case 'range': case 'with':
      return `{{${n.type} ${pipeString(n.pipe)}}}${nodeString(n.list)}${n.elseList ? '{{else}}' + nodeString(n.elseList) : ''}{{end}}`
    case 'break': return '{{break}}'
    case 'continue': return '{{continue}}'
    case 'template': return `{{template ${quote(n.name)}${n.pipe ? ' ' + pipeString(n.pipe) : ''}}}`
  }
}
