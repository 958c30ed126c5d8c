import assert from 'node:assert/strict'
import { test } from 'node:test'
import { v1alpha1 } from 'runtime-sdk'
import { createInProcessExtension, sampleRequest } from 'runtime-sdk/testing'
import { handlers } from './handlers.js'

// The handlers called as Cluster API calls them (request checked, deadline, answer checked), without a server.
const extension = createInProcessExtension({ handlers })

test('a Cluster without an owner is held, one with an owner is created', async () => {
  const request = sampleRequest(v1alpha1.BeforeClusterCreate)
  const held = await extension.call(v1alpha1.BeforeClusterCreate, 'require-owner', request)
  assert.deepEqual([held.status, held.retryAfterSeconds], ['Success', 30])

  request.cluster.metadata.labels = { ...request.cluster.metadata.labels, 'example.com/owner': 'platform-team' }
  const created = await extension.call(v1alpha1.BeforeClusterCreate, 'require-owner', request)
  assert.deepEqual([created.status, created.retryAfterSeconds, created.message], ['Success', 0, 'created for platform-team'])
})

test('a protected Cluster is not deleted', async () => {
  const request = sampleRequest(v1alpha1.BeforeClusterDelete)
  request.cluster.metadata.annotations = { 'example.com/protected': 'true' }
  const answer = await extension.call(v1alpha1.BeforeClusterDelete, 'protect', request)
  assert.equal(answer.status, 'Failure')
  assert.match(answer.message ?? '', /protected/)
})
