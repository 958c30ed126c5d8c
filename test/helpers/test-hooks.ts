// A test-only hook group with three versions of FakeHook (like Cluster API's test.runtime.cluster.x-k8s.io),
// proving conversions across versions: each version adds one optional field to request and response.
import { defineHook, type HookGroupVersion } from '../../src/api/hooks/define.js'
import { Type } from 'typebox'
import { Int32, Optional, Str, StringEnum } from '../../src/api/schema/builders.js'
import { definitionSchema } from '../../src/api/hooks/v1alpha1/schemas.js'
import type { Cluster as ClusterType } from '../../src/api/hooks/v1alpha1/types.generated.js'

export const TEST_GROUP = 'test.runtime.cluster.x-k8s.io'

const envelope = { kind: Optional(Str(63)), apiVersion: Optional(Str(317)) }
const Cluster = Type.Unsafe<ClusterType>(definitionSchema('sigs.k8s.io.cluster-api.api.core.v1beta2.Cluster'))
const settings = { settings: Optional(Type.Record(Type.String(), Type.String())) }
const commonResponse = { status: StringEnum(['Success', 'Failure']), message: Optional(Str(32768)) }
const retryResponse = { ...commonResponse, retryAfterSeconds: Int32({ minimum: 0 }) }
const shared = { first: Int32({ description: 'first is a number.' }), second: Str(256, { description: 'second is a string.' }) }
const added = {
  v1alpha1: {},
  v1alpha2: { third: Optional(Str(256, { description: 'third exists from v1alpha2 on.' })) },
  v1alpha3: {
    third: Optional(Str(256, { description: 'third exists from v1alpha2 on.' })),
    fourth: Optional(Type.Boolean({ description: 'fourth exists from v1alpha3 on.' }))
  }
}

function fakeHook (version: keyof typeof added) {
  return defineHook({
    hook: 'FakeHook',
    request: Type.Object({ ...envelope, ...settings, cluster: Cluster, ...shared, ...added[version] }),
    response: Type.Object({ ...envelope, ...commonResponse, ...shared, ...added[version] }),
    meta: { tags: ['Test'], summary: 'A test hook', description: `FakeHook ${version}`, deprecated: version !== 'v1alpha3' }
  })
}

export const RetryableFakeHook = defineHook({
  hook: 'RetryableFakeHook',
  request: Type.Object({ ...envelope, ...settings, cluster: Cluster }),
  response: Type.Object({ ...envelope, ...retryResponse }),
  meta: { tags: ['Test'], summary: 'A blocking test hook', description: 'RetryableFakeHook v1alpha1' }
})

/** Drops the given keys: down-converting a request loses the fields the older version lacks. */
function without<T extends Record<string, unknown>> (value: T, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)))
}

export const testV1alpha1: HookGroupVersion = {
  group: TEST_GROUP,
  version: 'v1alpha1',
  hooks: [fakeHook('v1alpha1'), RetryableFakeHook],
  conversions: { FakeHook: { to: 'v1alpha2', request: (r) => without(r as Record<string, unknown>, 'third'), response: (r) => ({ ...r as object }) } }
}

export const testV1alpha2: HookGroupVersion = {
  group: TEST_GROUP,
  version: 'v1alpha2',
  hooks: [fakeHook('v1alpha2')],
  conversions: { FakeHook: { to: 'v1alpha3', request: (r) => without(r as Record<string, unknown>, 'fourth'), response: (r) => ({ ...r as object }) } }
}

export const testV1alpha3: HookGroupVersion = { group: TEST_GROUP, version: 'v1alpha3', hooks: [fakeHook('v1alpha3')] }

/** All test versions, to register together: `createCatalog().add(...testGroupVersions)`. */
export const testGroupVersions = [testV1alpha1, testV1alpha2, testV1alpha3]
