import fc from 'fast-check'
import t from 'tap'
import { isEmptySelector, matchesSelector } from '../../src/registry/selector.js'

const labels = { env: 'prod', tier: 'web', 'kubernetes.io/metadata.name': 'default' }

t.test('label selector semantics', async t => {
  const cases: Array<[string, Parameters<typeof matchesSelector>[0], boolean]> = [
    ['empty matches all', {}, true],
    ['undefined matches nothing', undefined, false],
    ['matchLabels equal', { matchLabels: { env: 'prod' } }, true],
    ['matchLabels differ', { matchLabels: { env: 'dev' } }, false],
    ['matchLabels missing key', { matchLabels: { team: 'a' } }, false],
    ['In', { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['default', 'x'] }] }, true],
    ['In other values', { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }, false],
    ['In absent key', { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] }, false],
    ['NotIn', { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] }, true],
    ['NotIn listed', { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, false],
    ['NotIn absent key matches', { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['a'] }] }, true],
    ['Exists', { matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, true],
    ['Exists absent', { matchExpressions: [{ key: 'team', operator: 'Exists' }] }, false],
    ['DoesNotExist', { matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] }, true],
    ['DoesNotExist present', { matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] }, false],
    ['unknown operator', { matchExpressions: [{ key: 'env', operator: 'Like' }] }, false],
    ['all requirements must hold', { matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['db'] }] }, false]
  ]
  for (const [name, selector, expected] of cases) t.equal(matchesSelector(selector, labels), expected, name)
  t.equal(isEmptySelector({}), true)
  t.equal(isEmptySelector({ matchLabels: {}, matchExpressions: [] }), true)
  t.equal(isEmptySelector(undefined), false)
  t.equal(isEmptySelector({ matchLabels: { a: 'b' } }), false)
})

t.test('In and NotIn are complements for a present key; matchLabels equals In with one value', async t => {
  const key = fc.constantFrom('a', 'b')
  const value = fc.constantFrom('x', 'y', 'z')
  fc.assert(fc.property(fc.dictionary(key, value), key, fc.array(value, { minLength: 1 }), (ls, k, values) => {
    const inn = matchesSelector({ matchExpressions: [{ key: k, operator: 'In', values }] }, ls)
    const notIn = matchesSelector({ matchExpressions: [{ key: k, operator: 'NotIn', values }] }, ls)
    if (k in ls) return inn !== notIn
    return !inn && notIn
  }))
  fc.assert(fc.property(fc.dictionary(key, value), key, value, (ls, k, v) =>
    matchesSelector({ matchLabels: { [k]: v } }, ls) === matchesSelector({ matchExpressions: [{ key: k, operator: 'In', values: [v] }] }, ls)))
})
