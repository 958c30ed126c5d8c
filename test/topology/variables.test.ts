// Variables read as Cluster API's topologymutation package reads them: paths, typed getters, merging.
import t from 'tap'
import {
  getBoolean, getNumber, getObject, getString, getVariable, mergeVariables, toVariables, variableSchema as v, VariableError, VariableTypeError
} from '../../src/topology/index.js'

const vars = toVariables([
  { name: 'builtin', value: { controlPlane: { version: 'v1.34.0', replicas: 3 }, cluster: { network: { services: ['10.0.0.0/16', '10.1.0.0/16'] } } } },
  { name: 'files', value: [{ path: '/etc/a', content: 'x' }, { path: '/etc/b' }] },
  { name: 'flag', value: true },
  { name: 'nothing', value: null },
  { name: 'count', value: 2 },
  { name: 'odd', value: { 'a.b': 1, '': { x: 1 } } }
])

t.test('dotted paths and array indexes, as GetVariable resolves them', async t => {
  t.equal(getVariable(vars, 'builtin.controlPlane.version'), 'v1.34.0')
  t.equal(getVariable(vars, 'builtin.cluster.network.services[1]'), '10.1.0.0/16')
  t.equal(getVariable(vars, 'files[0].path'), '/etc/a')
  t.equal(getVariable(vars, 'files.1.path'), '/etc/b', 'a list element by its decimal key (fastjson)')
  t.same(getVariable(vars, 'files[1]'), { path: '/etc/b' })
  t.equal(getVariable(vars, 'nothing'), null, 'a variable set to null is found')
  t.same(getVariable(vars, 'odd.'), { x: 1 }, 'an empty segment names the empty key')
})

t.test('not found is undefined, at any depth', async t => {
  for (const path of ['missing', 'missing.x', 'builtin.machineDeployment.version', 'files[0].mode', 'flag.x', 'files.9', 'count.x', 'odd.a.b']) {
    t.equal(getVariable(vars, path), undefined, path)
    t.equal(getString(vars, path), undefined, `${path} (getString)`)
  }
})

t.test('paths Cluster API refuses throw VariableError, distinct from not found', async t => {
  const cases: Array<[string, RegExp]> = [
    ['files[0', /failed to parse path segment "files\[0"/],
    ['files[x]', /failed to parse array index in path segment "files\[x\]"/],
    ['files[-1]', /invalid array index -1/],
    ['files[5]', /array does not have index 5/],
    ['flag[0]', /failed to get array "flag"/],
    ['builtin.controlPlane[0]', /failed to get array "controlPlane"/]
  ]
  for (const [path, message] of cases) t.throws(() => getVariable(vars, path), { name: 'VariableError', code: 'ERR_RUNTIME_SDK_VARIABLE', message }, path)
})

t.test('typed getters: the value, undefined when not found, VariableTypeError for another type', async t => {
  t.equal(getString(vars, 'builtin.controlPlane.version'), 'v1.34.0')
  t.equal(getBoolean(vars, 'flag'), true)
  t.equal(getNumber(vars, 'builtin.controlPlane.replicas'), 3)
  t.equal(getBoolean(vars, 'missing'), undefined)
  t.throws(() => getString(vars, 'count'), new VariableTypeError('variable "count" is not a string: it is a number'))
  t.throws(() => getBoolean(vars, 'count'), { code: 'ERR_RUNTIME_SDK_VARIABLE_TYPE' })
  t.throws(() => getNumber(vars, 'nothing'), { message: 'variable "nothing" is not a number: it is null' })
  t.throws(() => getObject(vars, 'files'), { message: 'variable "files" is not an object: it is a list' })
  const secret = toVariables([{ name: 'token', value: 'hunter2' }])
  t.notMatch((() => { try { getNumber(secret, 'token') } catch (err) { return (err as Error).message } return '' })(), /hunter2/, 'messages never quote the value')
})

t.test('getObject with a schema types and checks the value; with a type guard, the guard decides', async t => {
  const file = v.object({ path: v.string({ pattern: '^/' }), content: v.string() }, { required: ['path'] })
  const plain = toVariables([{ name: 'file', value: { path: '/etc/a', extra: 1 } }, { name: 'bad', value: { path: 'relative' } }, { name: 'none', value: { content: '' } }])
  const got = getObject(plain, 'file', file)
  t.equal(got?.path, '/etc/a', 'typed as the schema says; unknown fields pass (Kubernetes prunes them)')
  t.throws(() => getObject(plain, 'bad', file), { name: 'VariableTypeError', message: 'variable "bad" is invalid: .path: must match the pattern "^/"' })
  t.throws(() => getObject(plain, 'none', file), { message: 'variable "none" is invalid: .path: Required value' })
  const isFile = (value: unknown): value is { path: string } => typeof (value as { path?: unknown }).path === 'string'
  t.equal(getObject(plain, 'file', isFile)?.path, '/etc/a')
  t.throws(() => getObject(plain, 'none', isFile), { message: 'variable "none" is invalid: it fails the check given' })
})

t.test('mergeVariables: later maps win, builtin is merged field by field', async t => {
  const global = toVariables([{ name: 'builtin', value: { cluster: { name: 'c', topology: { version: 'v1.34.0' } } } }, { name: 'x', value: 'global' }, { name: 'y', value: 1 }])
  const item = toVariables([{ name: 'builtin', value: { controlPlane: { version: 'v1.34.0' }, cluster: { topology: { class: 'k' } } } }, { name: 'x', value: 'item' }])
  t.same(mergeVariables(global, item), {
    builtin: { cluster: { name: 'c', topology: { version: 'v1.34.0', class: 'k' } }, controlPlane: { version: 'v1.34.0' } },
    x: 'item',
    y: 1
  })
  t.same(mergeVariables({ builtin: { cluster: { name: 'c', namespace: 'n' } } }, { builtin: { cluster: { namespace: null } } } as never), { builtin: { cluster: { name: 'c' } } }, 'null removes a builtin field')
  t.same(mergeVariables({ list: [1, 2] }, { list: [3] }), { list: [3] }, 'other variables are replaced, not merged')
  t.throws(() => mergeVariables({ builtin: { cluster: {} } }, { builtin: 'x' } as never), { name: 'VariableError', message: /failed to merge builtin variables/ })
  const proto = mergeVariables(toVariables([{ name: '__proto__', value: { polluted: true } }]))
  t.equal(Object.getPrototypeOf(proto), Object.prototype, 'a variable named __proto__ is a plain key')
  t.same(getVariable(proto, '__proto__.polluted'), true)
  t.equal(({} as Record<string, unknown>)['polluted'], undefined)
})

t.test('errors have stable codes', async t => {
  t.equal(new VariableError('x').code, 'ERR_RUNTIME_SDK_VARIABLE')
})
