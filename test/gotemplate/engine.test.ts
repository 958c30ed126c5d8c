// The engine's API and the corners the corpus reaches rarely: options (missingkey, functions shadowing builtins),
// Go values given directly, refusals (cyclic values, deep recursion, byte slices cutting characters), fmt and
// strconv at their edges, and error classes and codes.
import t from 'tap'
import {
  type FuncMap, GoCallError, GoInt, GoMap, GoSlice, GoTemplateError, type GoValue, HERMETIC_TXT_FUNCS, fromJSON, parseTemplate, type ParseOptions, quote, sprint, sprintf
} from '../../src/gotemplate/index.js'
import { fn } from '../../src/gotemplate/values.js'

const sprig: ParseOptions = { funcs: HERMETIC_TXT_FUNCS }

function run (text: string, data: unknown = {}, opts: ParseOptions = sprig): string {
  return parseTemplate('tpl', text, opts).execute(data)
}

function fails (text: string, data: unknown = {}, opts: ParseOptions = sprig): GoTemplateError {
  try {
    run(text, data, opts)
  } catch (err) {
    if (err instanceof GoTemplateError) return err
    throw err
  }
  throw new Error(`${text} did not fail`)
}

t.test('parseTemplate: name, reuse, options', async t => {
  const tpl = parseTemplate('my name', '{{ .a }}-{{ len .b }}')
  t.equal(tpl.name, 'my name')
  t.equal(tpl.execute({ a: 1, b: [1, 2] }), '1-2')
  t.equal(tpl.execute({ a: 'x', b: 'abc' }), 'x-3')
  t.equal(tpl.executeGo(new GoMap('map[string]interface {}', new Map<string, GoValue>([['a', new GoInt('int64', 7n)], ['b', '']]))), '7-0')
  t.equal(run('{{ .missing }}', {}, {}), '<no value>')
  t.equal(fails('{{ .missing }}', {}, { missingKey: 'error' }).message, 'template: tpl:1:3: executing "tpl" at <.missing>: map has no entry for key "missing"')
  // A chain of fields is positioned at its last field, as Go's parser places it.
  t.equal(fails('{{ .a.b }}', {}, { missingKey: 'error' }).message, 'template: tpl:1:5: executing "tpl" at <.a.b>: map has no entry for key "a"')
  t.equal(fails('{{ $x := .a }}{{ $x.b }}', { }, { missingKey: 'error' }).message, 'template: tpl:1:9: executing "tpl" at <.a>: map has no entry for key "a"')
  t.equal(fails('{{ $x := .a.b }}{{ $x.c }}', { a: { b: null } }, { missingKey: 'error' }).message, 'template: tpl:1:21: executing "tpl" at <$x.c>: nil data; no entry for key "c"')
  t.equal(run('{{ .missing }}', {}, { missingKey: 'zero' }), '<no value>')
  t.equal(run('{{ .m.missing }}', { m: {} }, { missingKey: 'zero' }), '<no value>')
  const err = fails('{{ .a.b }}', { a: null })
  t.equal(err.code, 'ERR_RUNTIME_SDK_GO_TEMPLATE')
  t.equal(err.name, 'GoTemplateError')
  t.equal(err.unsupported, false)
})

t.test('functions given with the template shadow builtins, and report Go-style errors', async t => {
  const funcs: FuncMap = {
    len: fn(['string'], 'string', (s: string) => `len(${s})`),
    boom: fn([], 'string', () => { throw new GoCallError('kaboom') }, { returnsError: true }),
    twice: fn(['int'], 'int', (n: GoInt) => new GoInt('int', n.v * 2n))
  }
  t.equal(run('{{ len "x" }} {{ twice 21 }}', {}, { funcs }), 'len(x) 42')
  t.equal(fails('{{ boom }}', {}, { funcs }).message, 'template: tpl:1:3: executing "tpl" at <boom>: error calling boom: kaboom')
  t.equal(fails('{{ twice "a" }}', {}, { funcs }).message, 'template: tpl:1:9: executing "tpl" at <"a">: expected integer; found "a"')
  t.equal(fails('{{ nope }}', {}, { funcs }).message, 'template: tpl:1: function "nope" not defined')
})

t.test('refusals carry the location and say why', async t => {
  const cyclic = fails('{{ $d := dict "a" 1 }}{{ $_ := set $d "self" $d }}{{ $d }}')
  t.equal(cyclic.unsupported, true)
  t.match(cyclic.message, /runtime-sdk cannot evaluate this exactly as Go does/)
  const deep = fails('{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}')
  t.equal(deep.unsupported, true)
  t.match(deep.message, /nested deeper than 1000/)
  const cut = fails('{{ slice .s 0 1 }}', { s: 'é' }, {})
  t.equal(cut.unsupported, true)
  t.match(cut.message, /not valid UTF-8/)
  t.equal(fails('{{ 1i }}').unsupported, true)
  t.equal(fails('{{ "\\xff" }}').unsupported, true)
  t.equal(fails('{{ printf "%p" .a }}', { a: [] }).unsupported, true)
  t.equal(fails('{{ printf "%d" (semver "1.0.0") }}').unsupported, true)
  t.equal(fails('{{ printf "%#v" (semver "1.0.0") }}').unsupported, true)
  t.equal(fails('{{ range semver "1.0.0" }}{{ end }}').unsupported, true)
  t.equal(fails('{{ until 2000000 }}').unsupported, true)
  t.equal(fails('{{ repeat 100000000 "ab" }}').unsupported, true)
  t.equal(fails('{{ abbrev 2000000000 "x" }}').unsupported, true)
  t.equal(fails('{{ slice (list 1 2) 0 5 }}').unsupported, true)
})

t.test('Go values: JSON decoding, ints, nil slices and maps', async t => {
  const v = fromJSON({ a: [1, 'x', null, { b: true }], s: 'bad \ud800 surrogate' }) as GoMap
  t.equal(sprint([v]), 'map[a:[1 x <nil> map[b:true]] s:bad \ufffd surrogate]')
  t.equal(sprint([new GoSlice('[]string', null), new GoMap('map[string]string', null)]), '[] map[]')
  t.equal(run('{{ index .s 1 }} {{ index .u 0 }}', { s: 'abc', u: 'é' }), '98 195')
  t.equal(run('{{ len . }} {{ range $k, $v := . }}{{ $k }}{{ end }}', { '\u{10000}': 1, '\uffff': 2, z: 3 }), '3 z\uffff\u{10000}')
  t.equal(run('{{ lt "\uffff" "\u{10000}" }} {{ lt "a" "ab" }} {{ lt "b" "a" }}'), 'true true false')
})

t.test('fmt: values the templates cannot make', async t => {
  t.equal(sprintf('%#v %#v %#v', [new GoSlice('[]string', null), new GoMap('map[string]string', null), new GoInt('uint8', 255n)]), '[]string(nil) map[string]string(nil) 0xff')
  t.equal(sprintf('%v %d %x %o', [new GoInt('int8', -5n), new GoInt('uint16', 65535n), new GoInt('int32', -255n), new GoInt('uint', 8n)]), '-5 65535 -ff 10')
  t.equal(sprintf('%v', [new GoInt('uint64', 18446744073709551615n)]), '18446744073709551615')
  t.equal(sprintf('%*d|%.*d', [new GoInt('uint64', 1n << 63n), new GoInt('int', 1n), new GoInt('int64', 2n), new GoInt('int', 1n)]), '%!(BADWIDTH)1|01')
  t.equal(quote('a\u0007\u00a0\u{10ffff}\ufeff'), '"a\\a\\u00a0\\U0010ffff\\ufeff"')
})
