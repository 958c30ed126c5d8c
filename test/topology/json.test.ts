// The copies walkTemplates hands to mutate functions: deep, plain, and faithful to every key JSON.parse makes.
import t from 'tap'
import { jsonCopy } from '../../src/topology/json.js'
import { mergeVariables } from '../../src/topology/index.js'

t.test('jsonCopy copies parsed JSON deeply, sharing nothing', async t => {
  const original = JSON.parse('{"spec":{"files":[{"path":"/a"}],"n":1,"ok":true,"none":null},"list":[[1],[2]],"s":"x"}') as Record<string, any>
  const copy = jsonCopy(original)
  t.same(copy, original)
  copy.spec.files[0].path = '/b'
  copy.list[1].push(3)
  t.equal(original.spec.files[0].path, '/a', 'an object in a list is its own')
  t.same(original.list, [[1], [2]], 'a nested list is its own')
  for (const value of ['x', 1, true, null, undefined]) t.equal(jsonCopy(value), value, `${String(value)} as it is`)
})

t.test('a "__proto__" key of the JSON stays a field of the copy and never becomes its prototype', async t => {
  const original = JSON.parse('{"metadata":{"__proto__":{"polluted":true},"name":"n"}}') as Record<string, any>
  const copy = jsonCopy(original)
  t.equal(Object.getPrototypeOf(copy.metadata), Object.prototype)
  t.ok(Object.hasOwn(copy.metadata, '__proto__'), 'an own field')
  t.same(JSON.stringify(copy), JSON.stringify(original), 'written back as it was read')
  t.equal(({} as Record<string, unknown>)['polluted'], undefined)
})

t.test('a builtin field named "__proto__" merges as a field too', async t => {
  const merged = mergeVariables({ builtin: { cluster: { name: 'c' } } }, { builtin: JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown> })
  const builtin = merged['builtin'] as Record<string, unknown>
  t.equal(Object.getPrototypeOf(builtin), Object.prototype)
  t.same(JSON.parse(JSON.stringify(builtin)), JSON.parse('{"cluster":{"name":"c"},"__proto__":{"x":1}}'))
})
