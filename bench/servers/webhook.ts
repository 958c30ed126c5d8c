// Scenario 7: the conversion webhook as `runtime-sdk controller --webhook-port --webhook-cert-dir <dir>` serves it
// (HTTPS, POST /convert), but on 127.0.0.1: the CLI listens on every interface. Option: --cert-dir (tls.crt, tls.key).
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { pino } from 'pino'
import { createWebhookServer } from '../../src/controller/webhook-server.js'
import { announce, exitOnSignal } from './child.js'

const { values } = parseArgs({ options: { 'cert-dir': { type: 'string' } } })
const certDir = values['cert-dir'] as string
const webhook = createWebhookServer({ tls: { certFile: join(certDir, 'tls.crt'), keyFile: join(certDir, 'tls.key') }, host: '127.0.0.1', port: 0, logger: pino({ level: 'warn' }, pino.destination(2)) })
announce({ url: await webhook.listen() })
exitOnSignal(() => webhook.close())
