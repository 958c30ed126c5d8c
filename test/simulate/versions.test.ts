// Upgrade plans as Cluster API computes and checks them.
import t from 'tap'
import { classVersionsPlan, compareKubernetesVersions, defaultAndValidatePlans, oneMinorPlan, parseVersion } from '../../src/simulate/versions.js'

t.test('versions compare as semantic versions, pre-releases first', async t => {
  t.ok(compareKubernetesVersions('v1.34.10', 'v1.34.9') > 0)
  t.ok(compareKubernetesVersions('v1.35.0-rc.1', 'v1.35.0') < 0)
  t.equal(compareKubernetesVersions('1.34.0', 'v1.34.0'), 0)
  t.equal(parseVersion('v1.34'), undefined)
})

t.test('without an extension: one minor at a time, or the ClusterClass\'s versions', async t => {
  t.same(oneMinorPlan('v1.35.0', 'v1.34.0'), ['v1.35.0'])
  t.same(oneMinorPlan('v1.34.0', 'v1.34.0'), [])
  t.throws(() => oneMinorPlan('v1.36.0', 'v1.34.0'), /cannot compute an upgrade plan from v1\.34\.0 to v1\.36\.0/)
  t.same(classVersionsPlan(['v1.33.0', 'v1.34.0', 'v1.34.3', 'v1.35.1', 'v1.36.0'], 'v1.36.0', 'v1.33.0'), ['v1.34.3', 'v1.35.1', 'v1.36.0'])
})

t.test('plans are checked, and the workers get the fewest steps the version skew allows', async t => {
  t.same(defaultAndValidatePlans('v1.35.0', 'v1.34.0', 'v1.34.0', ['v1.35.0'], []), ['v1.35.0'])
  t.same(defaultAndValidatePlans('v1.38.0', 'v1.34.0', 'v1.34.0', ['v1.35.0', 'v1.36.0', 'v1.37.0', 'v1.38.0'], []), ['v1.37.0', 'v1.38.0'])
  t.same(defaultAndValidatePlans('v1.35.0', 'v1.35.0', '', [], []), [])
  t.throws(() => defaultAndValidatePlans('v1.36.0', 'v1.34.0', 'v1.34.0', ['v1.36.0'], []), /expecting a version with minor 34 or 35, found version v1\.36\.0/)
  t.throws(() => defaultAndValidatePlans('v1.36.0', 'v1.34.0', 'v1.34.0', ['v1.35.0'], []), /must end with version v1\.36\.0, ends with v1\.35\.0/)
  t.throws(() => defaultAndValidatePlans('v1.35.0', 'v1.35.0', 'v1.34.0', ['v1.35.0'], []), /already at the desired version/)
  t.throws(() => defaultAndValidatePlans('v1.35.0', 'v1.34.0', 'v1.34.0', ['v1.34.0'], []), /must be greater than v1\.34\.0/)
  t.throws(() => defaultAndValidatePlans('v1.35.0', 'v1.35.0', 'v1.35.0', [], ['v1.35.0']), /no workers or workers already at the desired version/)
  t.throws(() => defaultAndValidatePlans('v1.39.0', 'v1.39.0', 'v1.34.0', [], ['v1.39.0']), /workers cannot go from minor 34 to minor 39/)
})
