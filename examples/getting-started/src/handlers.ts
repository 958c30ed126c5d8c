import { defineHandler, HookError, v1alpha1 } from 'runtime-sdk'

const OWNER = 'example.com/owner'

export const handlers = [
  // Holds the creation of a Cluster until it names its owner: Cluster API calls again after retryAfterSeconds.
  defineHandler({
    hook: v1alpha1.BeforeClusterCreate,
    name: 'require-owner',
    timeoutSeconds: 5,
    handler: (request) => {
      const owner = request.cluster.metadata.labels?.[OWNER]
      return owner === undefined
        ? { status: 'Success', retryAfterSeconds: 30, message: `waiting for the ${OWNER} label` }
        : { status: 'Success', message: `created for ${owner}` }
    }
  }),
  // Refuses to delete a Cluster marked as protected: a Failure with a message Cluster API shows in its conditions.
  defineHandler({
    hook: v1alpha1.BeforeClusterDelete,
    name: 'protect',
    handler: (request) => {
      if (request.cluster.metadata.annotations?.['example.com/protected'] === 'true') {
        throw new HookError('the Cluster is protected: remove the example.com/protected annotation first')
      }
      return { status: 'Success' }
    }
  })
]
