// Reading a running controller's status document (GET /extensionconfigs), for `status` and `preflight`.
import { request } from 'undici'
import { describeError } from '../client/wire.js'
import type { StatusDocument } from '../controller/http.js'
import { UsageError } from './command.js'

export async function fetchControllerStatus (url: string): Promise<StatusDocument> {
  let endpoint: URL
  try {
    endpoint = new URL('/extensionconfigs', url)
  } catch {
    throw new UsageError(`--url "${url}" is not a URL: pass the controller's endpoint, e.g. http://127.0.0.1:8080`)
  }
  let res
  try {
    res = await request(endpoint, { headersTimeout: 10_000, bodyTimeout: 10_000 })
  } catch (err) {
    throw new Error(`cannot reach the controller at ${url}: ${describeError(err)}; is it running, and is --url its metrics endpoint?`)
  }
  const text = await res.body.text()
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${text.slice(0, 200)}`)
  return JSON.parse(text) as StatusDocument
}
