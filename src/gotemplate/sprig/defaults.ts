// sprig's defaults, JSON, reflection and flow functions (defaults.go, reflect.go, fail), the deterministic duration
// functions of date.go, and the functions this engine refuses: the ones whose result is random or depends on the
// clock (Go gives a different answer each run) and the date parsing that needs Go's time layouts and zones.
import { sprintf } from '../printf.js'
import {
  fn, GoCallError, type GoFunc, GoInt, type GoValue, IFACE, Iface, kindOf, type RValue, Unsupported
} from '../values.js'
import { parseInt } from '../../go/strconv.js'
import { deepEqual, empty } from './reflect.js'
import { JsonError } from '../../go/json.js'
import { DurationError, durationString, parseDuration } from '../../go/time.js'
import { marshal, unmarshal } from './json.js'

function toJson (v: GoValue, escapeHTML: boolean, indent?: string): string {
  return marshal(v, escapeHTML, indent)
}

function quiet (f: () => string): string {
  try {
    return f()
  } catch (err) {
    if (err instanceof JsonError) return ''
    throw err
  }
}

function must (f: () => string): string {
  try {
    return f()
  } catch (err) {
    if (err instanceof JsonError) throw new GoCallError(err.message)
    throw err
  }
}

function duration (sec: GoValue): string {
  let n = 0n
  if (typeof sec === 'string') {
    const r = /^[+-]?[0-9]+$/.test(sec) ? parseInt(sec) : undefined
    n = r?.ok === true ? r.v : 0n
  } else if (sec instanceof GoInt && sec.type === 'int64') n = sec.v
  return durationString(BigInt.asIntN(64, n * 1_000_000_000n))
}

/** time.ParseDuration's value, or 0 where Go returns an error (sprig ignores it). */
function parseDurationOrZero (s: string): bigint {
  try {
    return parseDuration(s)
  } catch (err) {
    if (err instanceof DurationError) return 0n
    throw err
  }
}

function durationRound (v: GoValue): string {
  let d = 0n
  if (typeof v === 'string') d = parseDurationOrZero(v)
  else if (v instanceof GoInt && v.type === 'int64') d = v.v
  const u = d < 0n ? -d : d
  const hour = 3_600_000_000_000n
  const steps: Array<[bigint, string]> = [[hour * 24n * 365n, 'y'], [hour * 24n * 30n, 'mo'], [hour * 24n, 'd'], [hour, 'h'], [60_000_000_000n, 'm'], [1_000_000_000n, 's']]
  for (const [size, unit] of steps) if (u > size) return (u / size).toString() + unit
  return '0s'
}

function refuse (name: string, why: string, params: string[], result: string, variadic = false): GoFunc {
  return fn(params, result, () => { throw new Unsupported(`${name}: ${why}`) }, { variadic })
}

const RANDOM = 'its result is random in Go, so no single answer is Go\'s'
const CLOCK = 'its result depends on the clock'
const TIME = 'Go\'s time layouts and the time.Time values they make are not implemented'
const TIME_T = 'time.Time'

/** The defaults, JSON, reflection and flow functions of sprig's hermetic map, and the refused ones. */
export const DEFAULTS: Record<string, GoFunc> = {
  default: fn([IFACE, IFACE], IFACE, (d: GoValue, ...given: GoValue[]): RValue => new Iface(given.length === 0 || empty(given[0] as GoValue) ? d : given[0] as GoValue), { variadic: true }),
  empty: fn([IFACE], 'bool', empty),
  coalesce: fn([IFACE], IFACE, (...vs: GoValue[]) => new Iface(vs.find(v => !empty(v)) ?? null), { variadic: true }),
  all: fn([IFACE], 'bool', (...vs: GoValue[]) => vs.every(v => !empty(v)), { variadic: true }),
  any: fn([IFACE], 'bool', (...vs: GoValue[]) => vs.some(v => !empty(v)), { variadic: true }),
  ternary: fn([IFACE, IFACE, 'bool'], IFACE, (t: GoValue, f: GoValue, c: boolean) => new Iface(c ? t : f)),
  fromJson: fn(['string'], IFACE, (s: string) => new Iface(unmarshal(s).value)),
  mustFromJson: fn(['string'], IFACE, (s: string) => {
    const r = unmarshal(s)
    if (r.error !== undefined) throw new GoCallError(r.error)
    return new Iface(r.value)
  }, { returnsError: true }),
  toJson: fn([IFACE], 'string', (v: GoValue) => quiet(() => toJson(v, true))),
  mustToJson: fn([IFACE], 'string', (v: GoValue) => must(() => toJson(v, true)), { returnsError: true }),
  toPrettyJson: fn([IFACE], 'string', (v: GoValue) => quiet(() => toJson(v, true, '  '))),
  mustToPrettyJson: fn([IFACE], 'string', (v: GoValue) => must(() => toJson(v, true, '  ')), { returnsError: true }),
  toRawJson: fn([IFACE], 'string', (v: GoValue) => must(() => toJson(v, false))),
  mustToRawJson: fn([IFACE], 'string', (v: GoValue) => must(() => toJson(v, false)), { returnsError: true }),
  typeOf: fn([IFACE], 'string', (v: GoValue) => sprintf('%T', [v])),
  typeIs: fn(['string', IFACE], 'bool', (t: string, v: GoValue) => t === sprintf('%T', [v])),
  typeIsLike: fn(['string', IFACE], 'bool', (t: string, v: GoValue) => { const s = sprintf('%T', [v]); return t === s || '*' + t === s }),
  kindOf: fn([IFACE], 'string', kindName),
  kindIs: fn(['string', IFACE], 'bool', (t: string, v: GoValue) => t === kindName(v)),
  deepEqual: fn([IFACE, IFACE], 'bool', deepEqual),
  fail: fn(['string'], 'string', (msg: string) => { throw new GoCallError(msg) }, { returnsError: true }),
  duration: fn([IFACE], 'string', duration),
  durationRound: fn([IFACE], 'string', durationRound),
  ago: refuse('ago', CLOCK, [IFACE], 'string'),
  toDate: refuse('toDate', TIME, ['string', 'string'], TIME_T),
  mustToDate: refuse('mustToDate', TIME, ['string', 'string'], TIME_T),
  unixEpoch: refuse('unixEpoch', TIME, [TIME_T], 'string'),
  mustDateModify: refuse('mustDateModify', TIME, ['string', TIME_T], TIME_T),
  must_date_modify: refuse('must_date_modify', TIME, ['string', TIME_T], TIME_T),
  randInt: refuse('randInt', RANDOM, ['int', 'int'], 'int'),
  shuffle: refuse('shuffle', RANDOM, ['string'], 'string'),
  bcrypt: refuse('bcrypt', RANDOM, ['string'], 'string'),
  htpasswd: refuse('htpasswd', RANDOM, ['string', 'string'], 'string'),
  genPrivateKey: refuse('genPrivateKey', RANDOM, ['string'], 'string'),
  buildCustomCert: refuse('buildCustomCert', 'certificates are not implemented', ['string', 'string'], 'sprig.certificate', false),
  genCA: refuse('genCA', RANDOM, ['string', 'int'], 'sprig.certificate'),
  genCAWithKey: refuse('genCAWithKey', RANDOM, ['string', 'int', 'string'], 'sprig.certificate'),
  genSelfSignedCert: refuse('genSelfSignedCert', RANDOM, ['string', '[]interface {}', '[]interface {}', 'int'], 'sprig.certificate'),
  genSelfSignedCertWithKey: refuse('genSelfSignedCertWithKey', RANDOM, ['string', '[]interface {}', '[]interface {}', 'int', 'string'], 'sprig.certificate'),
  genSignedCert: refuse('genSignedCert', RANDOM, ['string', '[]interface {}', '[]interface {}', 'int', 'sprig.certificate'], 'sprig.certificate'),
  genSignedCertWithKey: refuse('genSignedCertWithKey', RANDOM, ['string', '[]interface {}', '[]interface {}', 'int', 'sprig.certificate', 'string'], 'sprig.certificate'),
  encryptAES: refuse('encryptAES', RANDOM, ['string', 'string'], 'string')
}

/** reflect.ValueOf(v).Kind().String(). */
function kindName (v: GoValue): string {
  return kindOf(v)
}
