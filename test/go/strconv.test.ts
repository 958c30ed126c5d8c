// Go's strconv as src/go/strconv.ts ports it: float formatting (the shortest digits, fixed precision rounded half to
// even on the exact binary value, %e), Quote's escapes, IsPrint and the Go literal syntax of ParseInt/ParseUint/
// ParseFloat. Expected strings are Go's (go1.26).
import t from 'tap'
import { formatFloat, isPrint, parseFloat, parseInt, parseUint, quote } from '../../src/go/strconv.js'

t.test('Quote', async t => {
  t.equal(quote('a"b\\c\n\t\x01\x7f é\u00a0\u2028😀'), '"a\\"b\\\\c\\n\\t\\x01\\x7f é\\u00a0\\u2028😀"')
  t.equal(quote('\x07\b\f\r\v\ud800'), '"\\a\\b\\f\\r\\v\\ufffd"')
  t.equal(quote('\u{e0001}'), '"\\U000e0001"')
  t.equal(quote('a\u0007\u00a0\u{10ffff}\ufeff'), '"a\\a\\u00a0\\U0010ffff\\ufeff"')
})

t.test('IsPrint', async t => {
  t.ok(isPrint(0x20))
  t.ok(isPrint(0xe9))
  t.notOk(isPrint(0x7f))
  t.notOk(isPrint(0xa0), 'no-break space is not printable, as in Go')
  t.notOk(isPrint(0xd800))
  t.notOk(isPrint(0xfeff))
})

t.test('FormatFloat as %v prints a float64', async t => {
  const floats: Array<[number, string]> = [[1e6, '1e+06'], [2000000.25, '2.00000025e+06'], [123456.5, '123456.5'], [0.0001, '0.0001'], [0.00001, '1e-05'],
    [1.5, '1.5'], [1e21, '1e+21'], [100, '100'], [-0.5, '-0.5'], [0, '0'], [-0, '-0'], [NaN, 'NaN'], [Infinity, '+Inf'], [-Infinity, '-Inf'], [12345678901234567000, '1.2345678901234567e+19']]
  for (const [x, want] of floats) t.equal(formatFloat(x, 'g', -1), want, String(x))
})

t.test('FormatFloat with a precision, and f with the shortest digits', async t => {
  t.equal(formatFloat(2.25, 'f', 1), '2.2')
  t.equal(formatFloat(0.5, 'f', 0), '0')
  t.equal(formatFloat(1.5, 'f', 0), '2')
  t.equal(formatFloat(1e21, 'f', 2), '1000000000000000000000.00')
  t.equal(formatFloat(-0.5, 'f', 1), '-0.5')
  t.equal(formatFloat(NaN, 'f', 1), 'NaN')
  t.equal(formatFloat(-Infinity, 'f', 1), '-Inf')
  t.equal(formatFloat(1234.5, 'e', 6), '1.234500e+03')
  t.equal(formatFloat(9.9999999, 'e', 6), '1.000000e+01')
  t.equal(formatFloat(0, 'e', 6), '0.000000e+00')
  t.equal(formatFloat(9223372036.854776, 'f', -1), '9223372036.854776')
  t.equal(formatFloat(1e21, 'f', -1), '1000000000000000000000')
  t.equal(formatFloat(1e-7, 'f', -1), '0.0000001')
  t.equal(formatFloat(0, 'f', -1), '0')
  t.equal(formatFloat(Infinity, 'f', -1), '+Inf')
  t.equal(formatFloat(2.5, 'f', 0), '2')
  t.equal(formatFloat(1.005, 'f', 2), '1.00')
  t.equal(formatFloat(5e-324, 'e', -1), '5e-324')
  t.equal(formatFloat(1.7976931348623157e308, 'g', -1), '1.7976931348623157e+308')
  t.equal(formatFloat(123456, 'g', 3), '1.23e+05')
  t.equal(formatFloat(0.000123, 'G', 2), '0.00012')
  t.equal(formatFloat(99.99, 'e', 1), '1.0e+02')
  t.equal(formatFloat(-0, 'g', -1), '-0')
})

t.test('ParseInt, ParseUint and ParseFloat with Go literal syntax', async t => {
  t.same(parseFloat('0x1.8p1'), { ok: true, v: 3 })
  t.same(parseFloat('0x.8p0'), { ok: true, v: 0.5 })
  t.same(parseFloat('0x1p-1074'), { ok: true, v: 5e-324 })
  t.same(parseFloat('0x1'), { ok: false, err: 'invalid syntax', v: 0 })
  t.same(parseFloat('1e400'), { ok: false, err: 'value out of range', v: Infinity })
  t.same(parseFloat('_1'), { ok: false, err: 'invalid syntax', v: 0 })
  t.same(parseFloat('-Infinity'), { ok: true, v: -Infinity })
  t.same(parseInt('0b_1_0'), { ok: true, v: 2n })
  t.same(parseInt('1__0'), { ok: false, err: 'invalid syntax' })
  t.same(parseInt('9223372036854775808'), { ok: false, err: 'value out of range' })
  t.same(parseUint('-1'), { ok: false, err: 'invalid syntax' })
  t.same(parseUint('18446744073709551616'), { ok: false, err: 'value out of range' })
  t.same(parseUint('0X_ff'), { ok: true, v: 255n })
  t.same(parseFloat('1_000.5'), { ok: true, v: 1000.5 }, 'underscores between digits, as Go takes them')
  t.same(parseFloat('+nan'), { ok: false, err: 'invalid syntax', v: 0 }, 'NaN takes no sign')
  t.equal(parseFloat('NaN').ok, true)
})
