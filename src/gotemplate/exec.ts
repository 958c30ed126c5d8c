// Execution of a parsed template (text/template/exec.go): walking the tree, evaluating pipelines, fields, variables
// and calls with Go's rules (missingkey=default, interface slots, typed parameters and their checks, and/or short
// circuits, break/continue) and Go's error messages with their location and node context.
import { spend } from '../budget/index.js'
import { GoTemplateError, unsupportedText } from './errors.js'
import { sprint } from './fmt.js'
import type {
  BranchNode, ChainNode, CommandNode, FieldNode, IdentifierNode, ListNode, Node, NumberNode, PipeNode, TemplateNode,
  VariableNode
} from './nodes.js'
import { nodeString } from './nodes.js'
import { quote } from '../go/strconv.js'
import {
  canBeNil, elemType, GoCallError, type GoFunc, GoInt, GoMap, GoObject, GoSlice, type GoValue, goInt, IFACE, Iface, INVALID, type IntType, isSignedKind, isUnsignedKind, kindOfType, REFLECT_VALUE, type RValue, rtypeOf, slot, sortedKeys, toIface, Unsupported, wrapInt, zeroOf
} from './values.js'
import { byteLength } from '../go/utf8.js'
import type { Tree } from './parse.js'

const MISSING: unique symbol = Symbol('missing')
type Final = RValue | typeof MISSING

const BREAK = Symbol('break')
const CONTINUE = Symbol('continue')

// Go allows 100000 nested {{template}} calls; a JS stack does not, so deeper recursion is refused.
const MAX_TEMPLATE_DEPTH = 1000

/** What the executor needs from the template: its text (for error locations), trees and functions. */
interface ExecContext {
  /** The name given to Parse (ParseName in Go's error locations). */
  readonly parseName: string
  readonly text: string
  readonly trees: ReadonlyMap<string, Tree>
  /** Functions given with the template, looked up before the builtins. */
  readonly funcs: Readonly<Record<string, GoFunc>>
  readonly builtins: Readonly<Record<string, GoFunc>>
  /** The missingkey option: 'default' (no value), 'zero' (the element type's zero) or 'error'. */
  readonly missingKey: MissingKey
}

/** text/template's missingkey option. */
export type MissingKey = 'default' | 'zero' | 'error'

/** Go's isTrue on a concrete value: its truth, and whether it has one. */
function isTrue (v: GoValue | typeof INVALID): boolean {
  if (v === INVALID || v === null) return false
  switch (typeof v) {
    case 'string': return v.length > 0
    case 'boolean': return v
    case 'number': return v !== 0
  }
  if (v instanceof GoInt) return v.v !== 0n
  if (v instanceof GoSlice) return (v.items?.length ?? 0) > 0
  if (v instanceof GoMap) return (v.entries?.size ?? 0) > 0
  return true
}

/** indirectInterface then isTrue (the builtins' truth). */
export function truth (v: RValue): boolean {
  return isTrue(v instanceof Iface ? (v.v ?? INVALID) : v)
}

function assignable (from: string | undefined, to: string): boolean {
  return from === to || to === IFACE
}

/** The location Go's ErrorContext reports for a position: NAME:LINE:COL, COL counting bytes from 0. */
function location (parseName: string, text: string, pos: number): string {
  const before = text.slice(0, pos)
  const nl = before.lastIndexOf('\n')
  let line = 1
  for (let i = 0; i < before.length; i++) if (before.charCodeAt(i) === 10) line++
  const col = byteLength(nl < 0 ? before : before.slice(nl + 1))
  return `${parseName}:${line}:${col}`
}

class State {
  node: Node | null = null
  vars: Array<{ name: string, value: RValue }> = []
  depth = 0
  out = ''

  constructor (private readonly ctx: ExecContext, public tmplName: string) {}

  errorf (msg: string, unsupported = false): never {
    const name = quote(this.tmplName)
    if (this.node === null) throw new GoTemplateError(`template: ${this.tmplName}: ${msg}`, { unsupported })
    throw new GoTemplateError(`template: ${location(this.ctx.parseName, this.ctx.text, this.node.pos)}: executing ${name} at <${nodeString(this.node)}>: ${msg}`, { unsupported })
  }

  at (n: Node): void { this.node = n }

  private varValue (name: string): RValue {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]?.name === name) return (this.vars[i] as { value: RValue }).value
    this.errorf(`undefined variable: ${name}`)
  }

  private setVar (name: string, value: RValue): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i] as { name: string, value: RValue }
      if (v.name === name) { v.value = value; return }
    }
    this.errorf(`undefined variable: ${name}`)
  }

  walk (dot: RValue, node: Node): void {
    spend()
    this.at(node)
    switch (node.type) {
      case 'action': {
        const val = this.evalPipeline(dot, node.pipe)
        if (node.pipe.decl.length === 0) this.printValue(node, val)
        return
      }
      case 'break': throw BREAK
      case 'continue': throw CONTINUE
      case 'if': case 'with': this.walkIfOrWith(node, dot); return
      case 'list': for (const n of node.nodes) this.walk(dot, n); return
      case 'range': this.walkRange(dot, node); return
      case 'template': this.walkTemplate(dot, node); return
      case 'text': this.out += node.text; return
    }
    this.errorf(`unknown node: ${nodeString(node)}`)
  }

  private walkIfOrWith (node: BranchNode, dot: RValue): void {
    const mark = this.vars.length
    try {
      const val = this.evalPipeline(dot, node.pipe)
      if (truth(val)) this.walk(node.type === 'with' ? val : dot, node.list)
      else if (node.elseList !== null) this.walk(dot, node.elseList)
    } finally {
      this.vars.length = mark
    }
  }

  private walkRange (dot: RValue, r: BranchNode): void {
    this.at(r)
    const outer = this.vars.length
    try {
      const piped = this.evalPipeline(dot, r.pipe)
      const val = piped instanceof Iface ? (piped.v ?? piped) : piped
      const mark = this.vars.length
      const decl = r.pipe.decl
      const oneIteration = (index: RValue, elem: RValue): void => {
        if (decl.length > 0) {
          if (r.pipe.isAssign) this.setVar((decl[0] as VariableNode).ident[0] as string, decl.length > 1 ? index : elem)
          else (this.vars[this.vars.length - 1] as { value: RValue }).value = elem
        }
        if (decl.length > 1) {
          if (r.pipe.isAssign) this.setVar((decl[1] as VariableNode).ident[0] as string, elem)
          else (this.vars[this.vars.length - 2] as { value: RValue }).value = index
        }
        try {
          this.walk(elem, r.list)
        } catch (e) {
          if (e !== CONTINUE) throw e
        } finally {
          this.vars.length = mark
        }
      }
      if (this.iterate(val, decl.length, oneIteration)) return
      if (r.elseList !== null) this.walk(dot, r.elseList)
    } catch (e) {
      if (e !== BREAK) throw e
    } finally {
      this.vars.length = outer
    }
  }

  /** Runs the iterations; false when there were none (the else branch runs). */
  private iterate (val: RValue, decls: number, one: (index: RValue, elem: RValue) => void): boolean {
    if (val === INVALID || val instanceof Iface) return false
    if (val instanceof GoInt) {
      if (decls > 1) this.errorf(`can't use ${sprint([val])} to iterate over more than one variable`)
      const n = isSignedKind(val.type) ? val.v : val.v
      if (n <= 0n) return false
      for (let i = 0n; i < n; i++) one(INVALID, new GoInt(val.type, i))
      return true
    }
    if (val instanceof GoSlice) {
      const items = val.items ?? []
      if (items.length === 0) return false
      const elem = elemType(val.type)
      for (let i = 0; i < items.length; i++) one(goInt(i), slot(elem, items[i] as GoValue))
      return true
    }
    if (val instanceof GoMap) {
      const entries = val.entries
      if (entries === null || entries.size === 0) return false
      const elem = elemType(val.type)
      for (const k of sortedKeys(entries)) one(k, slot(elem, entries.get(k) as GoValue))
      return true
    }
    if (val instanceof GoObject) this.errorf(unsupportedText(`range over a ${val.type}`), true)
    this.errorf(`range can't iterate over ${sprint([val])}`)
  }

  private walkTemplate (dot: RValue, t: TemplateNode): void {
    this.at(t)
    const tree = this.ctx.trees.get(t.name)
    if (tree === undefined) this.errorf(`template ${quote(t.name)} not defined`)
    if (this.depth >= MAX_TEMPLATE_DEPTH) this.errorf(unsupportedText(`{{template}} calls nested deeper than ${MAX_TEMPLATE_DEPTH}`), true)
    const value = this.evalPipeline(dot, t.pipe)
    const saved = { vars: this.vars, name: this.tmplName }
    this.vars = [{ name: '$', value }]
    this.tmplName = t.name
    this.depth++
    try {
      this.walk(value, tree.root)
    } finally {
      this.vars = saved.vars
      this.tmplName = saved.name
      this.depth--
      this.node = t
    }
  }

  evalPipeline (dot: RValue, pipe: PipeNode | null): RValue {
    if (pipe === null) return INVALID
    this.at(pipe)
    let value: Final = MISSING
    for (const cmd of pipe.cmds) {
      value = this.evalCommand(dot, cmd, value)
      if (value instanceof Iface) value = value.v === null ? INVALID : value.v
    }
    const result = value as RValue
    for (const v of pipe.decl) {
      const name = v.ident[0] as string
      if (pipe.isAssign) this.setVar(name, result)
      else this.vars.push({ name, value: result })
    }
    return result
  }

  private notAFunction (args: readonly Node[], final: Final): void {
    if (args.length > 1 || final !== MISSING) this.errorf(`can't give argument to non-function ${nodeString(args[0] as Node)}`)
  }

  private evalCommand (dot: RValue, cmd: CommandNode, final: Final): RValue {
    spend()
    const first = cmd.args[0] as Node
    switch (first.type) {
      case 'field': return this.evalFieldNode(dot, first, cmd.args, final)
      case 'chain': return this.evalChainNode(dot, first, cmd.args, final)
      case 'identifier': return this.evalFunction(dot, first, cmd, cmd.args, final)
      case 'pipe':
        this.notAFunction(cmd.args, final)
        return this.evalPipeline(dot, first)
      case 'variable': return this.evalVariableNode(dot, first, cmd.args, final)
    }
    this.at(first)
    this.notAFunction(cmd.args, final)
    switch (first.type) {
      case 'bool': return first.value
      case 'dot': return dot
      case 'nil': this.errorf('nil is not a command')
      // eslint-disable-next-line no-fallthrough
      case 'number': return this.idealConstant(first)
      case 'string': return first.text
    }
    this.errorf(`can't evaluate command ${quote(nodeString(first))}`)
  }

  private idealConstant (c: NumberNode): RValue {
    this.at(c)
    if (c.isComplex) this.errorf(unsupportedText('complex numbers'), true)
    const hexInt = c.text.length > 2 && c.text[0] === '0' && (c.text[1] === 'x' || c.text[1] === 'X') && !/[pP]/.test(c.text)
    if (c.isFloat && !hexInt && c.text[0] !== '\'' && /[.eEpP]/.test(c.text)) return c.float64
    if (c.isInt) return goInt(c.int64)
    if (c.isUint) this.errorf(`${c.text} overflows int`)
    return INVALID
  }

  private evalFieldNode (dot: RValue, field: FieldNode, args: readonly Node[] | null, final: Final): RValue {
    this.at(field)
    return this.evalFieldChain(dot, dot, field, field.ident, args, final)
  }

  private evalChainNode (dot: RValue, chain: ChainNode, args: readonly Node[] | null, final: Final): RValue {
    this.at(chain)
    if (chain.field.length === 0) this.errorf('internal error: no fields in evalChainNode')
    if (chain.node.type === 'nil') this.errorf(`indirection through explicit nil in ${nodeString(chain)}`)
    const pipe = this.evalArg(dot, null, chain.node)
    return this.evalFieldChain(dot, pipe, chain, chain.field, args, final)
  }

  private evalVariableNode (dot: RValue, variable: VariableNode, args: readonly Node[] | null, final: Final): RValue {
    this.at(variable)
    const value = this.varValue(variable.ident[0] as string)
    if (variable.ident.length === 1) {
      this.notAFunction(args ?? [], final)
      return value
    }
    return this.evalFieldChain(dot, value, variable, variable.ident.slice(1), args, final)
  }

  private evalFieldChain (dot: RValue, receiver: RValue, node: Node, ident: readonly string[], args: readonly Node[] | null, final: Final): RValue {
    const n = ident.length
    for (let i = 0; i < n - 1; i++) receiver = this.evalField(dot, ident[i] as string, node, null, MISSING, receiver)
    return this.evalField(dot, ident[n - 1] as string, node, args, final, receiver)
  }

  private evalFunction (dot: RValue, node: IdentifierNode, cmd: Node, args: readonly Node[] | null, final: Final): RValue {
    this.at(node)
    const name = node.ident
    const own = Object.hasOwn(this.ctx.funcs, name) ? this.ctx.funcs[name] : undefined
    const builtin = own === undefined && Object.hasOwn(this.ctx.builtins, name) ? this.ctx.builtins[name] : undefined
    const f = own ?? builtin
    if (f === undefined) this.errorf(`${quote(name)} is not a defined function`)
    return this.evalCall(dot, f, builtin !== undefined, cmd, name, args, final)
  }

  private evalField (dot: RValue, fieldName: string, node: Node, args: readonly Node[] | null, final: Final, receiver: RValue): RValue {
    if (receiver === INVALID) {
      if (this.ctx.missingKey === 'error') this.errorf(`nil data; no entry for key ${quote(fieldName)}`)
      return INVALID
    }
    const typ = rtypeOf(receiver) as string
    if (receiver instanceof Iface && receiver.v === null) this.errorf(`nil pointer evaluating ${typ}.${fieldName}`)
    const value = receiver instanceof Iface ? receiver.v as GoValue : receiver
    if (value instanceof GoObject) {
      const method = value.methods()[fieldName]
      if (method !== undefined) return this.evalCall(dot, method, false, node, fieldName, args, final)
    }
    const hasArgs = (args !== null && args.length > 1) || final !== MISSING
    if (value instanceof GoMap) {
      if (hasArgs) this.errorf(`${fieldName} is not a method but has arguments`)
      const got = value.entries?.get(fieldName)
      const elem = elemType(value.type)
      if (got !== undefined) return slot(elem, got)
      if (this.ctx.missingKey === 'zero') return elem === IFACE ? new Iface(null) : zeroOf(elem)
      if (this.ctx.missingKey === 'error') this.errorf(`map has no entry for key ${quote(fieldName)}`)
      return INVALID
    }
    this.errorf(`can't evaluate field ${fieldName} in type ${typ}`)
  }

  private evalCall (dot: RValue, f: GoFunc, isBuiltin: boolean, node: Node, name: string, allArgs: readonly Node[] | null, final: Final): RValue {
    const args = allArgs === null ? [] : allArgs.slice(1)
    const nin = f.params.length
    const numIn = args.length + (final !== MISSING ? 1 : 0)
    let numFixed = args.length
    if (f.variadic) {
      numFixed = nin - 1
      if (numIn < numFixed) this.errorf(`wrong number of args for ${name}: want at least ${nin - 1} got ${args.length}`)
    } else if (numIn !== nin) this.errorf(`wrong number of args for ${name}: want ${nin} got ${numIn}`)

    if (isBuiltin && (name === 'and' || name === 'or')) {
      let v: RValue = INVALID
      for (const arg of args) {
        v = this.evalArg(dot, REFLECT_VALUE, arg)
        if (truth(v) === (name === 'or')) return v
      }
      if (final !== MISSING) v = this.validateType(final, REFLECT_VALUE)
      return v
    }

    const argv: RValue[] = []
    let i = 0
    for (; i < numFixed && i < args.length; i++) argv.push(this.evalArg(dot, f.params[i] as string, args[i] as Node))
    if (f.variadic) {
      const elem = f.params[nin - 1] as string
      for (; i < args.length; i++) argv.push(this.evalArg(dot, elem, args[i] as Node))
    }
    if (final !== MISSING) {
      const t = f.variadic && numIn - 1 < numFixed ? f.params[numIn - 1] as string : f.params[nin - 1] as string
      argv.push(this.validateType(final, t))
    }
    if (isBuiltin && name === 'call') argv.unshift(args.length === 0 ? '<reflect.Value>' : nodeString(args[0] as Node))

    const params = argv.map((v, k) => {
      const t = isBuiltin && name === 'call' ? (k === 0 ? 'string' : REFLECT_VALUE) : (k < nin - 1 || !f.variadic ? f.params[k] : f.params[nin - 1]) as string
      if (t === REFLECT_VALUE) return v
      if (t === IFACE) return toIface(v)
      return v instanceof Iface ? v.v : v
    })
    let result: RValue
    try {
      result = f.impl(...params)
    } catch (err) {
      if (err instanceof GoCallError) {
        this.at(node)
        this.errorf(`error calling ${name}: ${err.message}`)
      }
      if (err instanceof Unsupported) {
        this.at(node)
        this.errorf(`error calling ${name}: ${unsupportedText(err.message)}`, true)
      }
      throw err
    }
    if (f.result === IFACE) return result instanceof Iface || result === INVALID ? result : new Iface(result)
    return result
  }

  private validateType (value: RValue, typ: string | null): RValue {
    if (value === INVALID) {
      if (typ === null) return INVALID
      if (typ === REFLECT_VALUE) return INVALID
      if (typ === IFACE) return new Iface(null)
      if (canBeNil(typ)) return zeroOf(typ)
      this.errorf(`invalid value; expected ${typ}`)
    }
    if (typ === null || typ === REFLECT_VALUE) return value
    let t = rtypeOf(value)
    if (!assignable(t, typ)) {
      if (value instanceof Iface && value.v !== null) {
        value = value.v
        t = rtypeOf(value)
        if (assignable(t, typ)) return value
      }
      this.errorf(`wrong type for value; expected ${typ}; got ${t as string}`)
    }
    return value
  }

  private evalArg (dot: RValue, typ: string | null, n: Node): RValue {
    this.at(n)
    switch (n.type) {
      case 'dot': return this.validateType(dot, typ)
      case 'nil':
        if (typ !== null && canBeNil(typ)) return typ === IFACE ? new Iface(null) : typ === REFLECT_VALUE ? INVALID : zeroOf(typ)
        this.errorf(`cannot assign nil to ${typ ?? '<nil>'}`)
      // eslint-disable-next-line no-fallthrough
      case 'field': return this.validateType(this.evalFieldNode(dot, n, [n], MISSING), typ)
      case 'variable': return this.validateType(this.evalVariableNode(dot, n, null, MISSING), typ)
      case 'pipe': return this.validateType(this.evalPipeline(dot, n), typ)
      case 'identifier': return this.validateType(this.evalFunction(dot, n, n, null, MISSING), typ)
      case 'chain': return this.validateType(this.evalChainNode(dot, n, null, MISSING), typ)
    }
    const t = typ as string
    const kind = kindOfType(t)
    if (kind === 'bool') {
      if (n.type === 'bool') return n.value
      this.errorf(`expected bool; found ${nodeString(n)}`)
    }
    if (kind === 'float64' || kind === 'float32') {
      if (n.type === 'number' && n.isFloat) return n.float64
      this.errorf(`expected float; found ${nodeString(n)}`)
    }
    if (isSignedKind(kind)) {
      if (n.type === 'number' && n.isInt) return new GoInt(kind as IntType, wrapInt(n.int64, kind as IntType))
      this.errorf(`expected integer; found ${nodeString(n)}`)
    }
    if (isUnsignedKind(kind)) {
      if (n.type === 'number' && n.isUint) return new GoInt(kind as IntType, wrapInt(n.uint64, kind as IntType))
      this.errorf(`expected unsigned integer; found ${nodeString(n)}`)
    }
    if (t === IFACE || t === REFLECT_VALUE) return this.evalEmptyInterface(dot, n)
    if (kind === 'string') {
      if (n.type === 'string') return n.text
      this.errorf(`expected string; found ${nodeString(n)}`)
    }
    this.errorf(`can't handle ${nodeString(n)} for arg of type ${t}`)
  }

  private evalEmptyInterface (dot: RValue, n: Node): RValue {
    this.at(n)
    switch (n.type) {
      case 'bool': return n.value
      case 'dot': return dot
      case 'field': return this.evalFieldNode(dot, n, null, MISSING)
      case 'identifier': return this.evalFunction(dot, n, n, null, MISSING)
      case 'nil': this.errorf('evalEmptyInterface: nil (can\'t happen)')
      // eslint-disable-next-line no-fallthrough
      case 'number': return this.idealConstant(n)
      case 'string': return n.text
      case 'variable': return this.evalVariableNode(dot, n, null, MISSING)
      case 'pipe': return this.evalPipeline(dot, n)
    }
    this.errorf(`can't handle assignment of ${nodeString(n)} to empty interface argument`)
  }

  private printValue (n: Node, v: RValue): void {
    this.at(n)
    if (v === INVALID) { this.out += '<no value>'; return }
    const value = v instanceof Iface ? v.v : v
    if (typeof value === 'string') { this.out += value; return }
    try {
      this.out += sprint([value])
    } catch (err) {
      if (err instanceof Unsupported) this.errorf(unsupportedText(err.message), true)
      throw err
    }
  }
}

/** Executes the tree named `name` over `data`; returns the output or throws GoTemplateError. */
export function execute (ctx: ExecContext, name: string, data: GoValue): string {
  const tree = ctx.trees.get(name)
  const s = new State(ctx, name)
  if (tree === undefined) return s.errorf(`${quote(name)} is an incomplete or empty template`)
  s.vars = [{ name: '$', value: data ?? INVALID }]
  try {
    s.walk(data ?? INVALID, tree.root as ListNode)
  } catch (err) {
    if (err === BREAK || err === CONTINUE) throw new Error('break or continue outside range')
    if (err instanceof RangeError && /call stack/.test(err.message)) s.errorf(unsupportedText('a template nested too deeply for the JS stack'), true)
    throw err
  }
  return s.out
}
