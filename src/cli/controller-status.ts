// Reading a running controller's status document (GET /extensionconfigs), for `status` and `preflight`.
import { request } from 'undici'
import type { StatusDocument } from '../controller/http.js'

export async function fetchControllerStatus (url: string): Promise<StatusDocument> {
  const res = await request(new URL('/extensionconfigs', url), { headersTimeout: 10_000, bodyTimeout: 10_000 })
  const text = await res.body.text()
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${text.slice(0, 200)}`)
  return JSON.parse(text) as StatusDocument
}
