// sprig's semver and semverCompare over Masterminds/semver v3.4.0: NewVersion's coercing parser ("v1.2" is 1.2.0),
// the constraint language (comparison operators, ~, ^, wildcards, hyphen ranges, "||" and ","), prerelease rules,
// and the *semver.Version a template can call methods on ({{ (semver "1.2.3").Minor }}).
import { quote } from '../../go/strconv.js'
import { fn, GoCallError, type GoFunc, GoInt, GoObject } from '../values.js'

const MAX_U64 = (1n << 64n) - 1n

/** A *semver.Version (or, from IncMajor and friends, a semver.Version value). */
class SemverVersion extends GoObject {
  readonly kind: string
  readonly type: string
  constructor (readonly major: bigint, readonly minor: bigint, readonly patch: bigint, readonly pre: string,
    readonly metadata: string, readonly original: string, readonly pointer = true) {
    super()
    this.kind = pointer ? 'ptr' : 'struct'
    this.type = pointer ? '*semver.Version' : 'semver.Version'
  }

  toString (): string {
    return `${this.major}.${this.minor}.${this.patch}${this.pre !== '' ? '-' + this.pre : ''}${this.metadata !== '' ? '+' + this.metadata : ''}`
  }

  toJSON (): string { return JSON.stringify(this.toString()) }

  private next (major: bigint, minor: bigint, patch: bigint, pre: string, metadata: string): SemverVersion {
    const v = new SemverVersion(major, minor, patch, pre, metadata, '', false)
    const prefix = this.original.startsWith('v') ? 'v' : ''
    return new SemverVersion(major, minor, patch, pre, metadata, prefix + v.toString(), false)
  }

  override methods (): Record<string, GoFunc> {
    const u64 = (v: bigint): GoInt => new GoInt('uint64', v)
    const other = '*semver.Version'
    const value: Record<string, GoFunc> = {
      Major: fn([], 'uint64', () => u64(this.major)),
      Minor: fn([], 'uint64', () => u64(this.minor)),
      Patch: fn([], 'uint64', () => u64(this.patch)),
      Prerelease: fn([], 'string', () => this.pre),
      Metadata: fn([], 'string', () => this.metadata),
      String: fn([], 'string', () => this.toString()),
      IncMajor: fn([], 'semver.Version', () => this.next(this.major + 1n, 0n, 0n, '', '')),
      IncMinor: fn([], 'semver.Version', () => this.next(this.major, this.minor + 1n, 0n, '', '')),
      IncPatch: fn([], 'semver.Version', () => this.pre !== '' ? this.next(this.major, this.minor, this.patch, '', '') : this.next(this.major, this.minor, this.patch + 1n, '', ''))
    }
    if (!this.pointer) return value
    return {
      ...value,
      Original: fn([], 'string', () => this.original),
      Compare: fn([other], 'int', (o: SemverVersion) => new GoInt('int', BigInt(compare(this, o)))),
      LessThan: fn([other], 'bool', (o: SemverVersion) => compare(this, o) < 0),
      LessThanEqual: fn([other], 'bool', (o: SemverVersion) => compare(this, o) <= 0),
      GreaterThan: fn([other], 'bool', (o: SemverVersion) => compare(this, o) > 0),
      GreaterThanEqual: fn([other], 'bool', (o: SemverVersion) => compare(this, o) >= 0),
      Equal: fn([other], 'bool', (o: SemverVersion) => o === this || compare(this, o) === 0)
    }
  }
}

const LOOSE = /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/

function parseSegment (s: string): bigint {
  const v = BigInt(s)
  if (v > MAX_U64) throw new GoCallError(`error parsing version segment: strconv.ParseUint: parsing ${quote(s)}: value out of range`)
  return v
}

function validatePrerelease (p: string): void {
  for (const part of p.split('.')) {
    if (part === '') throw new GoCallError('invalid prerelease string')
    if (/^[0-9]+$/.test(part) && part.length > 1 && part[0] === '0') throw new GoCallError('version segment starts with 0')
  }
}

/** semver.NewVersion. */
function newVersion (v: string): SemverVersion {
  const m = LOOSE.exec(v)
  if (m === null) throw new GoCallError('invalid semantic version')
  const major = parseSegment(m[1] as string)
  const minor = m[2] !== undefined ? parseSegment(m[2].slice(1)) : 0n
  const patch = m[3] !== undefined ? parseSegment(m[3].slice(1)) : 0n
  const pre = m[5] ?? ''
  if (pre !== '') validatePrerelease(pre)
  return new SemverVersion(major, minor, patch, pre, m[8] ?? '', v)
}

function comparePart (s: string, o: string): number {
  if (s === o) return 0
  if (s === '') return -1
  if (o === '') return 1
  const sn = /^[0-9]+$/.test(s) && BigInt(s) <= MAX_U64
  const on = /^[0-9]+$/.test(o) && BigInt(o) <= MAX_U64
  if (!sn && !on) return s > o ? 1 : -1
  if (!on) return -1
  if (!sn) return 1
  return BigInt(s) > BigInt(o) ? 1 : -1
}

function comparePrerelease (a: string, b: string): number {
  const x = a.split('.')
  const y = b.split('.')
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = comparePart(x[i] ?? '', y[i] ?? '')
    if (d !== 0) return d
  }
  return 0
}

/** Version.Compare. */
function compare (v: SemverVersion, o: SemverVersion): number {
  for (const [a, b] of [[v.major, o.major], [v.minor, o.minor], [v.patch, o.patch]] as const) {
    if (a !== b) return a < b ? -1 : 1
  }
  if (v.pre === '' && o.pre === '') return 0
  if (v.pre === '') return 1
  if (o.pre === '') return -1
  return comparePrerelease(v.pre, o.pre)
}

// The constraint grammar, as the package's regular expressions state it (\s is RE2's ASCII whitespace).
const WS = '[\\t\\n\\f\\r ]'
const CV = 'v?([0-9|xX*]+)(\\.[0-9|xX*]+)?(\\.[0-9|xX*]+)?(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?'
const OPS = '=||!=|>|<|>=|=>|<=|=<|~|~>|\\^'
const CONSTRAINT = new RegExp(`^${WS}*(${OPS})${WS}*(${CV})${WS}*$`)
const RANGE = new RegExp(`${WS}*(${CV})${WS}+-${WS}+(${CV})${WS}*`, 'g')
const FIND = new RegExp(`(${OPS})${WS}*(${CV})`, 'g')
const VALID = new RegExp(`^(${WS}*(${OPS})${WS}*(${CV})${WS}*)((?:${WS}+|,${WS}*)(${OPS})${WS}*(${CV})${WS}*)*$`)

interface Constraint { op: string, orig: string, con: SemverVersion, dirty: boolean, minorDirty: boolean, patchDirty: boolean }

const isX = (s: string): boolean => s === 'x' || s === '*' || s === 'X'

/** Go's FindAll semantics for a global regexp: successive non-overlapping matches, no empty match right after one. */
function findAll (re: RegExp, s: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = []
  let pos = 0
  let prevEnd = -1
  while (pos <= s.length) {
    re.lastIndex = pos
    const m = re.exec(s)
    if (m === null) break
    const end = m.index + m[0].length
    let accept = true
    if (end === pos) {
      if (m.index === prevEnd) accept = false
      pos += pos < s.length ? (s.codePointAt(pos) as number) > 0xffff ? 2 : 1 : 1
    } else pos = end
    prevEnd = end
    if (accept) out.push(m)
  }
  return out
}

function parseConstraint (c: string): Constraint {
  const m = CONSTRAINT.exec(c)
  if (m === null) throw new GoCallError(`improper constraint: ${c}`)
  const [, op, orig, m3 = '', m4 = '', m5 = '', , m7 = ''] = m as unknown as string[]
  let ver = orig as string
  let dirty = false
  let minorDirty = false
  let patchDirty = false
  const pre = m7 !== '' ? '-' + (m as unknown as string[])[7] : ''
  const suffix = pre
  if (isX(m3) || m3 === '') { ver = `0.0.0${suffix}`; dirty = true } else if (isX(m4.replace(/^\./, '')) || m4 === '') {
    minorDirty = true
    dirty = true
    ver = `${m3}.0.0${suffix}`
  } else if (isX(m5.replace(/^\./, '')) || m5 === '') {
    dirty = true
    patchDirty = true
    ver = `${m3}${m4}.0${suffix}`
  }
  let con: SemverVersion
  try {
    con = newVersion(ver)
  } catch {
    throw new GoCallError('constraint parser error')
  }
  return { op: op as string, orig: orig as string, con, dirty, minorDirty, patchDirty }
}

function check (v: SemverVersion, c: Constraint, includePre: boolean): boolean {
  if (v.pre !== '' && !includePre) return false
  const cmp = compare(v, c.con)
  switch (c.op) {
    case '': case '=':
      return c.dirty ? tilde(v, c, cmp) : cmp === 0
    case '!=':
      if (c.dirty) {
        if (c.con.major !== v.major) return true
        if (c.con.minor !== v.minor && !c.minorDirty) return true
        if (c.minorDirty) return false
        if (c.con.patch !== v.patch && !c.patchDirty) return true
        if (c.patchDirty) return (v.pre !== '' || c.con.pre !== '') && comparePrerelease(v.pre, c.con.pre) !== 0
      }
      return cmp !== 0
    case '>':
      if (!c.dirty) return cmp === 1
      if (v.major !== c.con.major) return v.major > c.con.major
      if (c.minorDirty) return false
      if (c.patchDirty) return v.minor > c.con.minor
      return cmp === 1
    case '<': return cmp < 0
    case '>=': case '=>': return cmp >= 0
    case '<=': case '=<':
      if (!c.dirty) return cmp <= 0
      if (v.major > c.con.major) return false
      return !(v.major === c.con.major && v.minor > c.con.minor && !c.minorDirty)
    case '~': case '~>': return tilde(v, c, cmp)
    default: return caret(v, c, cmp)
  }
}

function tilde (v: SemverVersion, c: Constraint, cmp: number): boolean {
  if (cmp < 0) return false
  if (c.con.major === 0n && c.con.minor === 0n && c.con.patch === 0n && !c.minorDirty && !c.patchDirty) return true
  if (v.major !== c.con.major) return false
  return !(v.minor !== c.con.minor && !c.minorDirty)
}

function caret (v: SemverVersion, c: Constraint, cmp: number): boolean {
  if (cmp < 0) return false
  if (c.con.major > 0n || c.minorDirty) return v.major === c.con.major
  if (v.major > 0n) return false
  if (c.con.minor > 0n || c.patchDirty) return v.minor === c.con.minor
  if (v.minor > 0n) return false
  return c.con.patch === v.patch
}

/** semver.NewConstraint(c).Check(v) as sprig's semverCompare runs it. */
function semverCompare (constraint: string, version: string): boolean {
  let rewritten = constraint
  for (const m of findAll(RANGE, constraint)) rewritten = rewritten.replace(m[0], `>= ${m[1] as string}, <= ${m[11] as string} `)
  const groups = rewritten.split('||').map(part => {
    if (!VALID.test(part)) throw new GoCallError(`improper constraint: ${part}`)
    const found = findAll(FIND, part).map(m => m[0])
    const cs = (found.length === 0 ? [part] : found).map(parseConstraint)
    return { cs, pre: cs.some(c => c.con.pre !== '') }
  })
  const v = newVersion(version)
  return groups.some(g => g.cs.every(c => check(v, c, g.pre)))
}

/** sprig's semver and semverCompare. */
export const SEMVER: Record<string, GoFunc> = {
  semver: fn(['string'], '*semver.Version', newVersion, { returnsError: true }),
  semverCompare: fn(['string', 'string'], 'bool', semverCompare, { returnsError: true })
}
