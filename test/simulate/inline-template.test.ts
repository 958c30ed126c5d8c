// Cluster API's inline template rendering (renderValueTemplate, patchIsEnabled): values read as YAML into JSON,
// enabledIf true only for the JSON `true`, and each layer's error prefix (the caller adds the Kind). The messages
// here are the ones Cluster API v1.14.2 gives (see test/fixtures/gotemplate/corpus.json for hundreds more).
import t from 'tap'
import { InlineTemplateError, patchIsEnabled, renderValueTemplate } from '../../src/simulate/inline-template.js'

const variables = {
  builtin: { cluster: { name: 'my-cluster', topology: { version: 'v1.31.2' } }, controlPlane: { replicas: 3, version: 'v1.31.2+rke2r1' } },
  etcdImageTag: '3.5.16-0',
  enabled: true,
  count: 3,
  list: ['a', 'b'],
  empty: ''
}

function error (f: () => unknown): InlineTemplateError {
  try {
    f()
  } catch (err) {
    if (err instanceof InlineTemplateError) return err
    throw err
  }
  throw new Error('no error')
}

t.test('renderValueTemplate reads the output as YAML into a JSON value', async t => {
  t.equal(renderValueTemplate('{{ .builtin.cluster.name }}', variables), 'my-cluster')
  t.equal(renderValueTemplate('{{ .builtin.controlPlane.replicas }}', variables), 3)
  t.equal(renderValueTemplate('kindest/node:{{ .builtin.controlPlane.version | replace "+" "_" }}', variables), 'kindest/node:v1.31.2_rke2r1')
  t.same(renderValueTemplate('local:\n  imageTag: {{ .etcdImageTag }}\n', variables), { local: { imageTag: '3.5.16-0' } })
  t.same(renderValueTemplate('{{ toJson .list }}', variables), ['a', 'b'])
  t.equal(renderValueTemplate('{{ .enabled }}', variables), true)
  t.equal(renderValueTemplate('yes', variables), true)
  t.equal(renderValueTemplate('0x1F', variables), 31)
  t.equal(renderValueTemplate('', variables), null)
  t.equal(renderValueTemplate('~', variables), null)
  t.equal(renderValueTemplate('{{ .missing }}', variables), '<no value>')
  t.same(renderValueTemplate('base: &b {a: 1, c: 2}\nover:\n  <<: *b\n  c: 3', variables), { base: { a: 1, c: 2 }, over: { a: 1, c: 3 } })
  // y is YAML 1.1's true, so this key is "true".
  t.same(renderValueTemplate('{x: 1, y: 2}', variables), { x: 1, true: 2 })
  t.same(renderValueTemplate('1.5: a\nyes: b\n3: c', variables), { 1.5: 'a', true: 'b', 3: 'c' })
  t.same(renderValueTemplate('a: !!binary aGVsbG8=\nb: !!float 2\nc: !!str 1', variables), { a: 'hello', b: 2, c: '1' })
  t.same(renderValueTemplate('[1, 2] # rest is never read', variables), [1, 2])
  t.same(renderValueTemplate('__proto__: 1', variables), JSON.parse('{"__proto__": 1}'))
})

t.test('renderValueTemplate errors carry calculateValue\'s and renderValueTemplate\'s prefixes', async t => {
  t.equal(error(() => renderValueTemplate('{{ .a', variables)).message, 'failed to calculate value for template: failed to parse template: "{{ .a": template: tpl:1: unclosed action')
  t.equal(error(() => renderValueTemplate('{{ .builtin.cluster.name.x }}', variables)).message, 'failed to calculate value for template: failed to render template: "{{ .builtin.cluster.name.x }}": template: tpl:1:11: executing "tpl" at <.builtin.cluster.name.x>: can\'t evaluate field x in type interface {}')
  t.equal(error(() => renderValueTemplate('{{ fail "no" }}', variables)).message, 'failed to calculate value for template: failed to render template: "{{ fail \\"no\\" }}": template: tpl:1:3: executing "tpl" at <fail "no">: error calling fail: no')
  t.equal(error(() => renderValueTemplate('a: b: c', variables)).message, 'failed to calculate value for template: failed to unmarshal rendered template: "a: b: c": error converting YAML to JSON: yaml: mapping values are not allowed in this context')
  t.equal(error(() => renderValueTemplate('.inf', variables)).message, 'failed to calculate value for template: failed to unmarshal rendered template: ".inf": error converting YAML to JSON: json: unsupported value: +Inf')
  t.equal(error(() => renderValueTemplate('a: *x', variables)).message, 'failed to calculate value for template: failed to unmarshal rendered template: "a: *x": error converting YAML to JSON: yaml: unknown anchor \'x\' referenced')
  t.equal(error(() => renderValueTemplate('~: 1', variables)).message, 'failed to calculate value for template: failed to unmarshal rendered template: "~: 1": error converting YAML to JSON: unsupported map key of type: %!s(<nil>), key: <nil>, value: 1')
  t.equal(error(() => renderValueTemplate('a: !!int yes', variables)).message, 'failed to calculate value for template: failed to unmarshal rendered template: "a: !!int yes": error converting YAML to JSON: yaml: cannot decode !!bool `yes` as a !!int')
  t.equal(error(() => renderValueTemplate('bell\u0007', variables)).message, 'failed to calculate value for template: failed to unmarshal rendered template: "bell\\a": error converting YAML to JSON: yaml: control characters are not allowed')
  const big = error(() => renderValueTemplate('12345678901234567890', variables))
  t.equal(big.unsupported, true)
  t.match(big.message, /beyond JS's exact integers/)
  const refused = error(() => renderValueTemplate('{{ randInt 1 5 }}', variables))
  t.equal(refused.unsupported, true)
  t.match(refused.message, /^failed to calculate value for template: failed to render template: .*randInt: its result is random/)
  t.equal(error(() => renderValueTemplate('{{ "\\xff" }}', variables)).unsupported, true)
  t.equal(error(() => renderValueTemplate('a: !!timestamp 2001-01-01', variables)).unsupported, true)
})

t.test('parsed templates are cached, failures included', async t => {
  for (let i = 0; i < 3; i++) t.equal(renderValueTemplate('{{ .count }}', variables), 3)
  for (let i = 0; i < 2; i++) t.match(error(() => renderValueTemplate('{{ end }}', variables)).message, /unexpected \{\{end\}\}/)
  for (let i = 0; i < 2100; i++) renderValueTemplate(`{{ ${i} }}`, variables)
  t.equal(renderValueTemplate('{{ .count }}', variables), 3)
})

t.test('patchIsEnabled: enabled only for the JSON true', async t => {
  t.equal(patchIsEnabled(undefined, variables), true)
  t.equal(patchIsEnabled('', variables), true)
  t.equal(patchIsEnabled('{{ .enabled }}', variables), true)
  t.equal(patchIsEnabled('{{ ne .etcdImageTag "" }}', variables), true)
  t.equal(patchIsEnabled('{{ ne .empty "" }}', variables), false)
  t.equal(patchIsEnabled('{{ if .enabled }}true{{ end }}', variables), true)
  t.equal(patchIsEnabled('yes', variables), true)
  t.equal(patchIsEnabled('"true"', variables), false)
  t.equal(patchIsEnabled('{{ .count }}', variables), false)
  t.equal(patchIsEnabled('{{ semverCompare ">=1.30.0" .builtin.cluster.topology.version }}', variables), true)
  t.equal(error(() => patchIsEnabled('{{ .nope.x.y', variables)).message, 'failed to calculate value for enabledIf: failed to parse template: "{{ .nope.x.y": template: tpl:1: unclosed action')
  t.equal(error(() => patchIsEnabled('[', variables)).message, 'failed to calculate value for enabledIf: failed to unmarshal rendered template: "[": error converting YAML to JSON: yaml: line 1: did not find expected node content')
})
