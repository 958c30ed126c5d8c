// The parser of Go's text/template (text/template/parse/parse.go): the same grammar, the same three-item lookahead
// (Go reports a parse error at the line of the last item it lexed, so the lookahead decides the line), the same
// checks (defined functions and variables, break/continue inside range) and the same messages.
import { type Item, itemString, Lexer, T } from './lex.js'
import type {
  BranchNode, CommandNode, ElseNode, EndNode, ListNode, Node, PipeNode, TemplateNode, VariableNode
} from './nodes.js'
import { nodeString } from './nodes.js'
import { newNumber, unquote } from './literals.js'
import { quote } from '../go/strconv.js'
import { Unsupported } from './values.js'

/** A parse error; message is Go's (`template: NAME:LINE: ...`). */
export class ParseError extends Error {}

/** A parsed template body and the name it was defined under. */
export interface Tree { name: string, root: ListNode }

const MAX_STACK_DEPTH = 10000

/** Parses `text` as the template `name`: the trees of the template and of every {{define}} and {{block}} in it. */
export function parse (name: string, text: string, hasFunction: (name: string) => boolean): Map<string, Tree> {
  const treeSet = new Map<string, Tree>()
  const lexer = new Lexer(text)
  lexer.options = { breakOK: !hasFunction('break'), continueOK: !hasFunction('continue') }
  const t = new Parser(name, name, lexer, treeSet, hasFunction)
  t.parse()
  t.add()
  return treeSet
}

// unicode.IsSpace's characters (bytes.TrimSpace): JS's trim() also removes U+FEFF, which Go keeps.
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/

/** True for a tree of only spaces and comments (parse.IsEmptyTree). */
function isEmptyTree (n: Node | null): boolean {
  if (n === null) return true
  switch (n.type) {
    case 'list': return n.nodes.every(isEmptyTree)
    case 'text': return GO_SPACE.test(n.text)
    default: return false
  }
}

class Parser {
  private token: Item[] = []
  private peekCount = 0
  private vars: string[] = ['$']
  private actionLine = 0
  private rangeDepth = 0
  private stackDepth = 0
  root: ListNode | null = null

  constructor (private name: string, private readonly parseName: string, private readonly lex: Lexer,
    private readonly treeSet: Map<string, Tree>, private readonly hasFunction: (name: string) => boolean) {}

  private next (): Item {
    if (this.peekCount > 0) this.peekCount--
    else this.token[0] = this.lex.nextItem()
    return this.token[this.peekCount] as Item
  }

  private backup (): void { this.peekCount++ }

  private backup2 (t1: Item): void {
    this.token[1] = t1
    this.peekCount = 2
  }

  private backup3 (t2: Item, t1: Item): void {
    this.token[1] = t1
    this.token[2] = t2
    this.peekCount = 3
  }

  private peek (): Item {
    if (this.peekCount > 0) return this.token[this.peekCount - 1] as Item
    this.peekCount = 1
    this.token[0] = this.lex.nextItem()
    return this.token[0]
  }

  private nextNonSpace (): Item {
    let token: Item
    do token = this.next(); while (token.typ === T.Space)
    return token
  }

  private peekNonSpace (): Item {
    const token = this.nextNonSpace()
    this.backup()
    return token
  }

  errorf (msg: string): never {
    this.root = null
    throw new ParseError(`template: ${this.parseName}:${this.token[0]?.line ?? 0}: ${msg}`)
  }

  private expect (expected: T, context: string): Item {
    const token = this.nextNonSpace()
    if (token.typ !== expected) this.unexpected(token, context)
    return token
  }

  private expectOneOf (e1: T, e2: T, context: string): Item {
    const token = this.nextNonSpace()
    if (token.typ !== e1 && token.typ !== e2) this.unexpected(token, context)
    return token
  }

  private unexpected (token: Item, context: string): never {
    if (token.typ === T.Error) {
      let extra = ''
      if (this.actionLine !== 0 && this.actionLine !== token.line) {
        extra = ` in action started at ${this.parseName}:${this.actionLine}`
        if (token.val.endsWith(' action')) extra = extra.slice(' in action'.length)
      }
      this.errorf(`${itemString(token)}${extra}`)
    }
    this.errorf(`unexpected ${itemString(token)} in ${context}`)
  }

  add (): void {
    const tree = this.treeSet.get(this.name)
    const root = this.root as ListNode
    if (tree === undefined || isEmptyTree(tree.root)) {
      this.treeSet.set(this.name, { name: this.name, root })
      return
    }
    if (!isEmptyTree(root)) this.errorf(`template: multiple definition of template ${quote(this.name)}`)
  }

  parse (): void {
    this.root = { type: 'list', pos: this.peek().pos, nodes: [] }
    while (this.peek().typ !== T.EOF) {
      if (this.peek().typ === T.LeftDelim) {
        const delim = this.next()
        if (this.nextNonSpace().typ === T.Define) {
          const newT = new Parser('definition', this.parseName, this.lex, this.treeSet, this.hasFunction)
          newT.parseDefinition()
          continue
        }
        this.backup2(delim)
      }
      const n = this.textOrAction()
      if (n.type === 'end' || n.type === 'else') this.errorf(`unexpected ${nodeString(n)}`)
      this.root.nodes.push(n)
    }
  }

  private parseDefinition (): void {
    const context = 'define clause'
    const name = this.expectOneOf(T.String, T.RawString, context)
    this.name = this.unquoteOrFail(name.val)
    this.expect(T.RightDelim, context)
    const [list, end] = this.itemList()
    this.root = list
    if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`)
    this.add()
  }

  private unquoteOrFail (s: string): string {
    const v = unquote(s)
    if (v === undefined) this.errorf('invalid syntax')
    return v
  }

  private itemList (): [ListNode, Node] {
    const list: ListNode = { type: 'list', pos: this.peekNonSpace().pos, nodes: [] }
    while (this.peekNonSpace().typ !== T.EOF) {
      const n = this.textOrAction()
      if (n.type === 'end' || n.type === 'else') return [list, n]
      list.nodes.push(n)
    }
    this.errorf('unexpected EOF')
  }

  private textOrAction (): Node {
    const token = this.nextNonSpace()
    switch (token.typ) {
      case T.Text: return { type: 'text', pos: token.pos, text: token.val }
      case T.LeftDelim:
        this.actionLine = token.line
        try {
          return this.action()
        } finally {
          this.actionLine = 0
        }
    }
    this.unexpected(token, 'input')
  }

  private action (): Node {
    const token = this.nextNonSpace()
    switch (token.typ) {
      case T.Block: return this.blockControl()
      case T.Break: return this.loopControl('break', token)
      case T.Continue: return this.loopControl('continue', token)
      case T.Else: return this.elseControl()
      case T.End: return this.endControl()
      case T.If: return this.branch('if')
      case T.Range: return this.branch('range')
      case T.Template: return this.templateControl()
      case T.With: return this.branch('with')
    }
    this.backup()
    const t = this.peek()
    return { type: 'action', pos: t.pos, line: t.line, pipe: this.pipeline('command', T.RightDelim) }
  }

  private loopControl (kind: 'break' | 'continue', at: Item): Node {
    const token = this.nextNonSpace()
    if (token.typ !== T.RightDelim) this.unexpected(token, `{{${kind}}}`)
    if (this.rangeDepth === 0) this.errorf(`{{${kind}}} outside {{range}}`)
    return { type: kind, pos: at.pos, line: at.line }
  }

  private pipeline (context: string, end: T): PipeNode {
    const token = this.peekNonSpace()
    const pipe: PipeNode = { type: 'pipe', pos: token.pos, line: token.line, isAssign: false, decl: [], cmds: [] }
    // A declaration; after `$a,` in a range, a second one.
    let more = true
    while (more) {
      more = false
      const v = this.peekNonSpace()
      if (v.typ === T.Variable) {
        this.next()
        const tokenAfterVariable = this.peek()
        const next = this.peekNonSpace()
        if (next.typ === T.Assign || next.typ === T.Declare) {
          pipe.isAssign = next.typ === T.Assign
          this.nextNonSpace()
          pipe.decl.push(newVariable(v.pos, v.val))
          this.vars.push(v.val)
        } else if (next.typ === T.Char && next.val === ',') {
          this.nextNonSpace()
          pipe.decl.push(newVariable(v.pos, v.val))
          this.vars.push(v.val)
          if (context === 'range' && pipe.decl.length < 2) {
            const p = this.peekNonSpace().typ
            if (p !== T.Variable && p !== T.RightDelim && p !== T.RightParen) this.errorf('range can only initialize variables')
            more = true
            continue
          }
          this.errorf(`too many declarations in ${context}`)
        } else if (tokenAfterVariable.typ === T.Space) {
          this.backup3(v, tokenAfterVariable)
        } else {
          this.backup2(v)
        }
      }
      break
    }
    for (;;) {
      const token = this.nextNonSpace()
      switch (token.typ) {
        case end:
          this.checkPipeline(pipe, context)
          return pipe
        case T.Bool: case T.CharConstant: case T.Complex: case T.Dot: case T.Field: case T.Identifier:
        case T.Number: case T.Nil: case T.RawString: case T.String: case T.Variable: case T.LeftParen:
          this.backup()
          pipe.cmds.push(this.command())
          break
        default:
          this.unexpected(token, context)
      }
    }
  }

  private checkPipeline (pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`)
    pipe.cmds.slice(1).forEach((c, i) => {
      const t = (c.args[0] as Node).type
      if (t === 'bool' || t === 'dot' || t === 'nil' || t === 'number' || t === 'string') this.errorf(`non executable command in pipeline stage ${i + 2}`)
    })
  }

  private parseControl (context: 'if' | 'range' | 'with'): Omit<BranchNode, 'type'> {
    const mark = this.vars.length
    try {
      const pipe = this.pipeline(context, T.RightDelim)
      if (context === 'range') this.rangeDepth++
      let [list, next] = this.itemList()
      if (context === 'range') this.rangeDepth--
      let elseList: ListNode | null = null
      if (next.type === 'else') {
        if (context === 'if' && this.peek().typ === T.If) {
          this.next()
          elseList = { type: 'list', pos: next.pos, nodes: [this.branch('if')] }
        } else if (context === 'with' && this.peek().typ === T.With) {
          this.next()
          elseList = { type: 'list', pos: next.pos, nodes: [this.branch('with')] }
        } else {
          [elseList, next] = this.itemList()
          if (next.type !== 'end') this.errorf(`expected end; found ${nodeString(next)}`)
        }
      }
      list = list as ListNode
      return { pos: pipe.pos, line: pipe.line, pipe, list, elseList }
    } finally {
      this.vars.length = mark
    }
  }

  private branch (kind: 'if' | 'range' | 'with'): BranchNode {
    return { type: kind, ...this.parseControl(kind) }
  }

  private endControl (): EndNode {
    return { type: 'end', pos: this.expect(T.RightDelim, 'end').pos }
  }

  private elseControl (): ElseNode {
    const peek = this.peekNonSpace()
    if (peek.typ === T.If || peek.typ === T.With) return { type: 'else', pos: peek.pos, line: peek.line }
    const token = this.expect(T.RightDelim, 'else')
    return { type: 'else', pos: token.pos, line: token.line }
  }

  private blockControl (): TemplateNode {
    const context = 'block clause'
    const token = this.nextNonSpace()
    const name = this.parseTemplateName(token, context)
    const pipe = this.pipeline(context, T.RightDelim)
    const block = new Parser(name, this.parseName, this.lex, this.treeSet, this.hasFunction)
    const [list, end] = block.itemList()
    block.root = list
    if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`)
    block.add()
    return { type: 'template', pos: token.pos, line: token.line, name, pipe }
  }

  private templateControl (): TemplateNode {
    const context = 'template clause'
    const token = this.nextNonSpace()
    const name = this.parseTemplateName(token, context)
    let pipe: PipeNode | null = null
    if (this.nextNonSpace().typ !== T.RightDelim) {
      this.backup()
      pipe = this.pipeline(context, T.RightDelim)
    }
    return { type: 'template', pos: token.pos, line: token.line, name, pipe }
  }

  private parseTemplateName (token: Item, context: string): string {
    if (token.typ === T.String || token.typ === T.RawString) return this.unquoteOrFail(token.val)
    this.unexpected(token, context)
  }

  private command (): CommandNode {
    const cmd: CommandNode = { type: 'command', pos: this.peekNonSpace().pos, args: [] }
    for (;;) {
      this.peekNonSpace()
      const operand = this.operand()
      if (operand !== null) cmd.args.push(operand)
      const token = this.next()
      if (token.typ === T.Space) continue
      if (token.typ === T.RightDelim || token.typ === T.RightParen) this.backup()
      else if (token.typ !== T.Pipe) this.unexpected(token, 'operand')
      break
    }
    if (cmd.args.length === 0) this.errorf('empty command')
    return cmd
  }

  private operand (): Node | null {
    let node = this.term()
    if (node === null) return null
    if (this.peek().typ === T.Field) {
      const pos = this.peek().pos
      const fields: string[] = []
      while (this.peek().typ === T.Field) fields.push(this.next().val.slice(1))
      const chainString = nodeString({ type: 'chain', pos, node, field: fields })
      switch (node.type) {
        case 'field': node = { type: 'field', pos, ident: chainString.slice(1).split('.') }; break
        case 'variable': node = newVariable(pos, chainString); break
        case 'bool': case 'string': case 'number': case 'nil': case 'dot':
          this.errorf(`unexpected . after term ${quote(nodeString(node))}`)
          break
        default: node = { type: 'chain', pos, node, field: fields }
      }
    }
    return node
  }

  private term (): Node | null {
    const token = this.nextNonSpace()
    switch (token.typ) {
      case T.Identifier:
        if (!this.hasFunction(token.val)) this.errorf(`function ${quote(token.val)} not defined`)
        return { type: 'identifier', pos: token.pos, ident: token.val }
      case T.Dot: return { type: 'dot', pos: token.pos }
      case T.Nil: return { type: 'nil', pos: token.pos }
      case T.Variable: return this.useVar(token.pos, token.val)
      case T.Field: return { type: 'field', pos: token.pos, ident: token.val.slice(1).split('.') }
      case T.Bool: return { type: 'bool', pos: token.pos, value: token.val === 'true' }
      case T.CharConstant: case T.Complex: case T.Number:
        try {
          return newNumber(token.pos, token.val, token.typ)
        } catch (err) {
          if (err instanceof Unsupported) throw err
          this.errorf((err as Error).message)
        }
      // eslint-disable-next-line no-fallthrough
      case T.LeftParen:
        if (this.stackDepth >= MAX_STACK_DEPTH) this.errorf('max expression depth exceeded')
        this.stackDepth++
        try {
          return this.pipeline('parenthesized pipeline', T.RightParen)
        } finally {
          this.stackDepth--
        }
      case T.String: case T.RawString:
        return { type: 'string', pos: token.pos, quoted: token.val, text: this.unquoteOrFail(token.val) }
    }
    this.backup()
    return null
  }

  private useVar (pos: number, name: string): VariableNode {
    const v = newVariable(pos, name)
    if (this.vars.includes(v.ident[0] as string)) return v
    this.errorf(`undefined variable ${quote(v.ident[0] as string)}`)
  }
}

function newVariable (pos: number, ident: string): VariableNode {
  return { type: 'variable', pos, ident: ident.split('.') }
}
