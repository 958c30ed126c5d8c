// Field errors and the Go formatting behind them print exactly as apimachinery prints them: the value quoted with
// %q, floats with %v (1e+06), complex values as Go's JSON (sorted keys, HTML-safe), types without values, the
// aggregate of a list and apierrors.NewInvalid's message. Expected strings are the API server's.
import t from 'tap'
import {
  childPath, duplicate, errorBody, errorListMessage, fieldErrorString, forbidden, indexPath, internalError, invalid, invalidObjectMessage,
  invalidOmitValue, keyPath, notFound, notSupported, required, tooLong, tooMany, typeInvalid
} from '../../src/apiserver/index.js'
import { GoFloat64, goJson, goNumber, goValue } from '../../src/apiserver/go-format.js'

t.test('field errors print as apimachinery prints them', async t => {
  const cases: Array<[ReturnType<typeof invalid>, string]> = [
    [invalid('spec.a', 'abc', 'must be short'), 'spec.a: Invalid value: "abc": must be short'],
    [invalid('spec.n', 5, 'too big'), 'spec.n: Invalid value: 5: too big'],
    [invalid('spec.f', 2000000.25, 'x'), 'spec.f: Invalid value: 2.00000025e+06: x'],
    [invalid('spec.f', new GoFloat64(2147483648), 'x'), 'spec.f: Invalid value: 2.147483648e+09: x'],
    [invalid('spec.b', true, 'x'), 'spec.b: Invalid value: true: x'],
    [invalid('spec.o', { b: 1, a: '<&>' }, 'x'), 'spec.o: Invalid value: {"a":"\\u003c\\u0026\\u003e","b":1}: x'],
    [invalid('spec.l', [1, 'a', null], ''), 'spec.l: Invalid value: [1,"a",null]'],
    [invalid(undefined, null, 'some rules'), '<nil>: Invalid value: null: some rules'],
    [invalid(undefined, '', 'plain'), '<nil>: Invalid value: "": plain'],
    [invalidOmitValue('spec', 'failed rule: x'), 'spec: Invalid value: failed rule: x'],
    [typeInvalid('spec.x', 'string', 'spec.x in body must be of type integer: "string"'), 'spec.x: Invalid value: "string": spec.x in body must be of type integer: "string"'],
    [required('spec.x', ''), 'spec.x: Required value'],
    [required('spec.x', 'name or generateName is required'), 'spec.x: Required value: name or generateName is required'],
    [forbidden('spec.x', 'not allowed'), 'spec.x: Forbidden: not allowed'],
    [duplicate('spec.l[1]', 'a'), 'spec.l[1]: Duplicate value: "a"'],
    [duplicate('spec.l[1]', { name: 'a' }), 'spec.l[1]: Duplicate value: {"name":"a"}'],
    [duplicate('spec.o', {}, true), 'spec.o: Duplicate value'],
    [notFound('spec.x', 'y'), 'spec.x: Not found: "y"'],
    [notSupported('spec.e', 'z', ['x', 'y']), 'spec.e: Unsupported value: "z": supported values: "x", "y"'],
    [notSupported('spec.e', 'z', []), 'spec.e: Unsupported value: "z"'],
    [tooLong('spec.a', 10), 'spec.a: Too long: may not be more than 10 bytes'],
    [tooLong('spec.a', 1), 'spec.a: Too long: may not be more than 1 byte'],
    [tooLong('spec.a', -1), 'spec.a: Too long: value is too long'],
    [tooMany('spec.l', 3, 2), 'spec.l: Too many: 3: must have at most 2 items'],
    [tooMany('spec.l', 3, 1), 'spec.l: Too many: 3: must have at most 1 item'],
    [tooMany('spec.l', -1, -1), 'spec.l: Too many: has too many items'],
    [internalError('spec', 'boom'), 'spec: Internal error: boom']
  ]
  for (const [e, want] of cases) t.equal(fieldErrorString(e), want)
  t.equal(errorBody(invalid('x', 'a', '')), 'Invalid value: "a"')
})

t.test('paths', async t => {
  t.equal(childPath(undefined, 'spec'), 'spec')
  t.equal(childPath('spec', 'a'), 'spec.a')
  t.equal(indexPath('spec.l', 2), 'spec.l[2]')
  t.equal(keyPath('spec.m', 'k.x'), 'spec.m[k.x]')
  t.equal(keyPath(undefined, 'k'), '[k]')
  t.equal(indexPath(undefined, 0), '[0]')
})

t.test('error lists and NewInvalid', async t => {
  const a = invalid('spec.a', 1, 'x')
  const b = required('spec.b', '')
  t.equal(errorListMessage([]), '')
  t.equal(errorListMessage([a]), 'spec.a: Invalid value: 1: x')
  t.equal(errorListMessage([a, b, a]), '[spec.a: Invalid value: 1: x, spec.b: Required value]')
  t.equal(errorListMessage([a, a]), 'spec.a: Invalid value: 1: x', 'duplicates collapse')
  t.equal(invalidObjectMessage('Widget', 'example.com', 'w', [a]), 'Widget.example.com "w" is invalid: spec.a: Invalid value: 1: x')
  t.equal(invalidObjectMessage('Pod', '', 'p"q', []), 'Pod "p\\"q" is invalid')
})

t.test('fmt and json of decoded JSON values', async t => {
  t.equal(goNumber(3), '3')
  t.equal(goNumber(2.5), '2.5')
  t.equal(goValue(['a', 1.5, 2, { b: 1, a: null }, null, true, 7n]), '[a 1.5 2 map[a:<nil> b:1] <nil> true 7]')
  t.equal(goValue(undefined), '<nil>')
  t.equal(goJson({ b: [1, 2.5], a: '\b\f\u2029\ud800', c: undefined, d: Infinity, e: 5n, f: true }), '{"a":"\\b\\f\\u2029\\ufffd","b":[1,2.5],"d":null,"e":5,"f":true}')
  t.equal(goJson(new GoFloat64(3)), '3')
  t.equal(goJson(() => 1), 'null')
})
