// Scenario 7: the controller's endpoint as `runtime-sdk controller --metrics-secure --metrics-cert-dir <dir>` serves
// it (HTTPS, every route but the probes behind TokenReview and SubjectAccessReview), on 127.0.0.1. The CLI needs a
// Kubernetes API for that; here a stub answers every review "authenticated, allowed" (answers are cached as with a
// real API server) and the controller reads an empty directory. Options: --cert-dir (tls.crt, tls.key), --dir.
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import { Controller } from '../../src/controller/controller.js'
import { FileSource } from '../../src/controller/file-source.js'
import { serveControllerHttp } from '../../src/controller/http-serving.js'
import type { KubeApi } from '../../src/kube/api.js'
import { announce, exitOnSignal } from './child.js'

const { values } = parseArgs({ options: { 'cert-dir': { type: 'string' }, dir: { type: 'string' } } })
const allowAll: Pick<KubeApi, 'create'> = {
  create: async <T>(path: string) => ({ status: path.endsWith('/tokenreviews') ? { authenticated: true, user: { username: 'bench' } } : { allowed: true } }) as T
}
const logger = pino({ level: 'warn' }, pino.destination(2))
const controller = new Controller({ source: new FileSource({ dir: values.dir as string }), logger })
await controller.start()
const http = await serveControllerHttp({ controller, http: { host: '127.0.0.1', port: 0, secure: { certDir: values['cert-dir'] as string } }, api: allowAll, logger })
announce({ url: http.url })
exitOnSignal(async () => {
  await http.close()
  await controller.stop()
})
