// Reading a running controller's status document (GET /extensionconfigs), for `status` and `preflight`. Over
// HTTPS (a controller run with --metrics-secure) the request carries the kubeconfig user's bearer token, which
// the controller checks with a TokenReview and a SubjectAccessReview, as kubectl's requests to it would be.
import { readFile } from 'node:fs/promises'
import { Agent, request } from '../shims/undici.js'
import { describeError } from '../client/wire.js'
import type { StatusDocument } from '../controller/http.js'
import { loadKubeConnection } from '../kube/kubeconfig.js'
import { readProblem } from '../kube/manifests.js'
import { type Command } from 'commander'
import { type KubeconfigFlags, kubeconfigSelection, UsageError } from './command.js'

export interface ControllerEndpointFlags extends KubeconfigFlags {
  url: string
  certificateAuthority?: string
  insecureSkipTlsVerify?: boolean
}

/** The flags that reach a controller's endpoint: its URL, and for HTTPS how to trust it. */
export function controllerEndpointOptions (command: Command): Command {
  return command
    .option('--certificate-authority <file>', 'PEM CA bundle to verify an https --url (default: the system roots)')
    .option('--insecure-skip-tls-verify', 'do not verify an https --url\'s certificate (e.g. the controller\'s self-signed one)')
}

export async function fetchControllerStatus (flags: ControllerEndpointFlags): Promise<StatusDocument> {
  const { url } = flags
  let endpoint: URL
  try {
    endpoint = new URL('/extensionconfigs', url)
  } catch {
    throw new UsageError(`--url "${url}" is not a URL: pass the controller's endpoint, e.g. http://127.0.0.1:8080`)
  }
  const secure = endpoint.protocol === 'https:'
  const dispatcher = new Agent(secure ? { connect: { ...await trust(flags), rejectUnauthorized: !flags.insecureSkipTlsVerify } } : {})
  const headers = secure ? await bearer(flags) : {}
  let res
  let text: string
  try {
    res = await request(dispatcher, endpoint, { method: 'GET', headers, headersTimeout: 10_000, bodyTimeout: 10_000 })
    text = await res.body.text()
  } catch (err) {
    throw new Error(`cannot reach the controller at ${url}: ${describeError(err)}; is it running, and is --url its metrics endpoint?`)
  } finally {
    await dispatcher.close()
  }
  if (res.statusCode === 401 || res.statusCode === 403) {
    throw new Error(`${url} answered ${res.statusCode}: ${text.slice(0, 200)}; the kubeconfig's user needs get on the non-resource URL /extensionconfigs (the runtime-sdk-metrics-reader ClusterRole)`)
  }
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${text.slice(0, 200)}`)
  return JSON.parse(text) as StatusDocument
}

async function trust (flags: ControllerEndpointFlags): Promise<{ ca?: Buffer }> {
  if (!flags.certificateAuthority) return {}
  try {
    return { ca: await readFile(flags.certificateAuthority) }
  } catch (err) {
    throw new UsageError(`--certificate-authority ${flags.certificateAuthority}: ${readProblem(err)}`)
  }
}

/** The kubeconfig user's bearer token: what the controller's TokenReview can check (a client certificate cannot be). */
async function bearer (flags: ControllerEndpointFlags): Promise<Record<string, string>> {
  const credentials = await loadKubeConnection(kubeconfigSelection(flags)).credentials()
  const authorization = credentials.headers['authorization']
  if (!authorization?.startsWith('Bearer ')) {
    throw new UsageError('an https --url needs a bearer token, and the kubeconfig\'s user has none (client certificates cannot be checked by the controller\'s TokenReview): use --context with a token or exec-plugin user')
  }
  return { authorization }
}
