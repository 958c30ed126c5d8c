import { createExtensionServer, v1alpha1 } from 'runtime-sdk'

const server = createExtensionServer({
  tls: { certFile: 'tls.crt', keyFile: 'tls.key' },
  handlers: [{
    hook: v1alpha1.BeforeClusterUpgrade,
    name: 'wait-for-backup',
    timeoutSeconds: 5,
    failurePolicy: 'Fail',
    // @ts-expect-error TS2322 'Bogus' is not a response status
    handler: async (request, ctx) => ({ status: 'Bogus', retryAfterSeconds: await backupDone(request.cluster, ctx.signal) ? 0 : 30 })
  }]
})
await server.listen({ port: 9443 })
