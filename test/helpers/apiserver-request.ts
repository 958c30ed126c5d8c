// One request to a test control plane's API server as admin, over HTTPS: what kubectl would reprint (a refusal's
// Status message, the warnings' paths) comes back as the API server sent it.
import { readFileSync } from 'node:fs'
import https from 'node:https'
import type { ControlPlane } from '../../tools/harness/control-plane.js'

export interface Reply { status: number, body: Record<string, unknown>, warnings: string[] }

/** Sends one request (a JSON body, or an apply patch with contentType `application/apply-patch+yaml`); the Warning headers are parsed into their texts. */
export function apiServerRequest (cp: ControlPlane, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
  const url = new URL(path, cp.server)
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = https.request(url, {
      method,
      ca: readFileSync(cp.caFile),
      agent: false,
      headers: { authorization: `Bearer ${cp.token}`, 'content-type': contentType, accept: 'application/json' }
    }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (chunk: string) => { text += chunk })
      res.on('end', () => {
        const warnings: string[] = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]?.toLowerCase() !== 'warning') continue
          const m = /^\d+ \S+ "(.*)"$/.exec(res.rawHeaders[i + 1] ?? '')
          if (m) warnings.push((m[1] as string).replace(/\\"/g, '"').replace(/\\\\/g, '\\'))
        }
        resolve({ status: res.statusCode ?? 0, body: text === '' ? {} : JSON.parse(text), warnings })
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}
