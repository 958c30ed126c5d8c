// undici's Agent and request, without undici's index: the index loads all of undici (fetch, WebSocket, caches, mocks,
// interceptors; 112 files, ~18 MB resident in a bare process) where calling over an Agent needs 31 files (~10 MB).
// undici publishes no exports map, so these files resolve; they are not its documented API, so package.json allows
// patch releases only and test/shims/undici.test.ts fails when they move or change shape.
import { createRequire } from 'node:module'
import type { Agent as UndiciAgent, Dispatcher } from 'undici'

const require = createRequire(import.meta.url)

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent
// eslint-disable-next-line @typescript-eslint/no-redeclare -- the class's value and its instance type, as a class declares both
export type Agent = UndiciAgent

/** undici's Dispatcher.request, which its index adds to every dispatcher's prototype. */
const dispatcherRequest = require('undici/lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>

/** undici's request(url, { dispatcher, ...options }). */
export function request (dispatcher: Dispatcher, url: URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  return dispatcherRequest.call(dispatcher, { ...options, origin: url.origin, path: `${url.pathname}${url.search}` })
}
