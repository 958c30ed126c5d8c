// A seeded generator of random Go templates for the corpus and the interop test: text, actions, pipelines, nested
// if/else/with/range with break and continue, variable declarations and assignments, trim markers, constants of
// every literal syntax and calls of the builtins and sprig's deterministic functions with fitting and misfitting
// arguments, over the "types" variable set. Sizes stay small (no huge repeat counts or ranges), so Go and the
// engine answer quickly; merge and mergeOverwrite are left out, since merging a map into itself makes a cycle that
// crashes Go's printer (a fatal stack overflow, not an error).
import { mulberry32 } from '../harness/seeded-random.js'

/** A random case: the template and how to run it. */
export interface RandomCase { template: string, vars: string, mode: 'render' | 'value' | 'enabled' }

const FIELDS = [
  '.s', '.empty', '.n', '.neg', '.zero', '.f', '.big', '.huge', '.tiny', '.t', '.f0', '.nil', '.list', '.strs', '.nums', '.emptyList', '.map',
  '.emptyMap', '.nested', '.nested.a', '.nested.a.b.c', '.nested.a.b.l', '.nested.a.b.n', '.missing', '.missing.x', '.unicode', '.html', '.num',
  '.ver', '.pre', '.map.a', '.csv', '.json', '.camel', '.path', '.yamlish', '.float', '.list.x', '$', '.', '$.s', '.builtin.cluster.name',
  '.builtin.controlPlane.replicas', '.builtin.machineDeployment.version'
]

const CONSTS = [
  '1', '0', '-3', '2', '3', '2.5', '1e6', '0x1F', '017', '1_000', '\'a\'', '"str"', '""', '`raw`', 'true', 'false', 'nil', '"1.2.3"', '"a,b"',
  '"HeLLo wOrld"', '"é😀"', '"<&>"', '"0"', '" pad "', '"v1.28.0"', '">=1.27.0"', '"[a-z]+"', '"%v-%d"', '"%s"', '-0.5', '1e-7', '100000.0'
]

const SMALL = ['0', '1', '2', '3', '-1']

// Functions with their argument counts; `small` ones take small integer constants where a count is expected.
const FUNCS: Array<[string, number, number]> = [
  ['len', 1, 1], ['index', 2, 3], ['print', 0, 3], ['println', 1, 2], ['eq', 2, 3], ['ne', 2, 2], ['lt', 2, 2], ['le', 2, 2], ['gt', 2, 2], ['ge', 2, 2],
  ['and', 1, 3], ['or', 1, 3], ['not', 1, 1], ['html', 1, 2], ['js', 1, 1], ['urlquery', 1, 2], ['upper', 1, 1], ['lower', 1, 1], ['title', 1, 1],
  ['trim', 1, 1], ['quote', 1, 2], ['squote', 1, 2], ['cat', 1, 3], ['default', 2, 2], ['empty', 1, 1], ['coalesce', 1, 3], ['ternary', 3, 3],
  ['toJson', 1, 1], ['toPrettyJson', 1, 1], ['toString', 1, 1], ['first', 1, 1], ['last', 1, 1], ['rest', 1, 1], ['initial', 1, 1], ['reverse', 1, 1],
  ['uniq', 1, 1], ['compact', 1, 1], ['has', 2, 2], ['without', 2, 3], ['list', 0, 3], ['dict', 0, 4], ['get', 2, 2], ['hasKey', 2, 2], ['pick', 2, 3],
  ['omit', 2, 3], ['add', 1, 3], ['sub', 2, 2], ['mul', 1, 3], ['div', 2, 2], ['mod', 2, 2], ['add1', 1, 1], ['int', 1, 1], ['int64', 1, 1],
  ['float64', 1, 1], ['max', 1, 3], ['min', 1, 3], ['maxf', 1, 2], ['minf', 1, 2], ['floor', 1, 1], ['ceil', 1, 1], ['addf', 1, 3], ['subf', 2, 2],
  ['mulf', 1, 2], ['divf', 2, 2], ['atoi', 1, 1], ['contains', 2, 2], ['hasPrefix', 2, 2], ['hasSuffix', 2, 2], ['splitList', 2, 2], ['split', 2, 2],
  ['join', 2, 2], ['sortAlpha', 1, 1], ['kindOf', 1, 1], ['typeOf', 1, 1], ['semverCompare', 2, 2], ['regexMatch', 2, 2], ['regexFind', 2, 2],
  ['regexReplaceAll', 3, 3], ['b64enc', 1, 1], ['sha256sum', 1, 1], ['snakecase', 1, 1], ['kebabcase', 1, 1], ['camelcase', 1, 1], ['toStrings', 1, 1],
  ['plural', 3, 3], ['nospace', 1, 1], ['initials', 1, 1], ['swapcase', 1, 1], ['fromJson', 1, 1], ['concat', 1, 2], ['replace', 3, 3], ['trimAll', 2, 2],
  ['trimPrefix', 2, 2], ['base', 1, 1], ['ext', 1, 1], ['clean', 1, 1], ['deepEqual', 2, 2], ['typeIs', 2, 2], ['printf', 1, 3], ['all', 1, 2],
  ['any', 1, 2], ['toRawJson', 1, 1], ['b32enc', 1, 1], ['adler32sum', 1, 1], ['duration', 1, 1], ['uniq', 1, 1], ['chunk', 2, 2], ['slice', 1, 3],
  ['dig', 3, 4], ['deepCopy', 1, 1], ['pluck', 2, 2], ['squote', 1, 1]
]
const SMALL_FUNCS: Array<[string, number]> = [
  ['repeat', 2], ['trunc', 2], ['abbrev', 2], ['substr', 3], ['indent', 2], ['nindent', 2], ['until', 1], ['seq', 2], ['round', 2], ['wrap', 2],
  ['untilStep', 3], ['splitn', 3], ['regexFindAll', 3], ['regexSplit', 3]
]
const SMALL_COUNT: Record<string, number> = { repeat: 0, trunc: 0, abbrev: 0, substr: 1, indent: 0, nindent: 0, until: 0, seq: 1, round: 1, wrap: 0, untilStep: 2, splitn: 1, regexFindAll: 2, regexSplit: 2 }

class Gen {
  private vars: string[] = []
  constructor (private readonly rnd: () => number) {}

  private pick<T> (xs: readonly T[]): T { return xs[Math.floor(this.rnd() * xs.length)] as T }
  private chance (p: number): boolean { return this.rnd() < p }

  private operand (depth: number): string {
    const r = this.rnd()
    if (r < 0.4) return this.pick(FIELDS)
    if (r < 0.65) return this.pick(CONSTS)
    if (r < 0.75 && this.vars.length > 0) return this.pick(this.vars) + (this.chance(0.2) ? '.a' : '')
    if (depth > 0) return '(' + this.pipeline(depth - 1) + ')'
    return this.pick(FIELDS)
  }

  private call (depth: number, piped: boolean): string {
    // Counts come from small constants only, never from a pipe (a huge count exhausts Go's memory).
    if (!piped && this.chance(0.15)) {
      const [name, n] = this.pick(SMALL_FUNCS)
      const smallAt = SMALL_COUNT[name] ?? 0
      const args = Array.from({ length: n }, (_, i) => i === smallAt ? this.pick(SMALL) : this.operand(depth))
      return [name, ...args].join(' ')
    }
    const [name, min, max] = this.pick(FUNCS)
    let n = min + Math.floor(this.rnd() * (max - min + 1))
    if (piped) n = Math.max(0, n - 1)
    const args = Array.from({ length: n }, (_, i) => name === 'printf' && i === 0 ? this.pick(['"%v"', '"%d"', '"%s|%v"', '"%05.1f"', '"%q"', '"%x"', '"%T"', '"%v %v"']) : this.operand(depth))
    return [name, ...args].join(' ')
  }

  pipeline (depth: number): string {
    const parts: string[] = []
    const r = this.rnd()
    if (r < 0.3) parts.push(this.operand(depth))
    else parts.push(this.call(depth, false))
    const stages = this.chance(0.35) ? 1 + Math.floor(this.rnd() * 2) : 0
    for (let i = 0; i < stages; i++) parts.push(this.call(depth, true))
    return parts.join(' | ')
  }

  private open (): string { return this.chance(0.15) ? '{{- ' : '{{ ' }
  private close (): string { return this.chance(0.15) ? ' -}}' : ' }}' }

  body (depth: number, inRange: boolean): string {
    let out = ''
    const pieces = 1 + Math.floor(this.rnd() * 3)
    for (let i = 0; i < pieces; i++) out += this.piece(depth, inRange)
    return out
  }

  private piece (depth: number, inRange: boolean): string {
    const r = this.rnd()
    const text = this.pick(['', ' ', 'x', '\n', ' - ', 'a: ', '\n  ', ','])
    if (r < 0.45 || depth <= 0) return text + this.open() + this.pipeline(2) + this.close()
    if (r < 0.55) {
      const name = `$v${this.vars.length}`
      this.vars.push(name)
      return text + `{{ ${name} := ${this.pipeline(1)} }}`
    }
    if (r < 0.6 && this.vars.length > 0) return text + `{{ ${this.pick(this.vars)} = ${this.pipeline(1)} }}`
    if (r < 0.65 && inRange) return text + this.pick(['{{ break }}', '{{ continue }}'])
    const mark = this.vars.length
    let out: string
    if (r < 0.78) {
      out = `{{ if ${this.pipeline(1)} }}${this.body(depth - 1, inRange)}`
      if (this.chance(0.3)) out += `{{ else if ${this.pipeline(1)} }}${this.body(depth - 1, inRange)}`
      if (this.chance(0.5)) out += `{{ else }}${this.body(depth - 1, inRange)}`
      out += '{{ end }}'
    } else if (r < 0.87) {
      out = `{{ with ${this.pipeline(1)} }}${this.body(depth - 1, inRange)}`
      if (this.chance(0.4)) out += `{{ else }}${this.body(depth - 1, inRange)}`
      out += '{{ end }}'
    } else {
      const over = this.pick(['.list', '.strs', '.nums', '.map', '.emptyList', '.nested.a.b.l', '.missing', '.s', '3', '0', '(list 1 2)', '(dict "x" 1 "y" 2)', '.n', '.nested'])
      const decl = this.pick(['', '$i, $e := ', '$e := '])
      if (decl !== '') this.vars.push('$i', '$e')
      out = `{{ range ${decl}${over} }}${this.body(depth - 1, true)}`
      if (this.chance(0.3)) out += `{{ else }}${this.body(depth - 1, inRange)}`
      out += '{{ end }}'
    }
    this.vars.length = mark
    return text + out
  }
}

/** `count` random cases from `seed`: mostly render mode, some value and enabled. */
export function randomCases (seed: number, count: number): RandomCase[] {
  const rnd = mulberry32(seed)
  const out: RandomCase[] = []
  for (let i = 0; i < count; i++) {
    const g = new Gen(rnd)
    const template = g.body(2, false)
    const r = rnd()
    out.push({ template, vars: 'types', mode: r < 0.8 ? 'render' : r < 0.93 ? 'value' : 'enabled' })
  }
  return out
}
