// The conformance cases, in the order they run. `extension` cases run once before the handlers, `handler` cases
// once per discovered handler, `final` cases once at the end. Required cases decide the exit code.
import type { ConformanceCase } from '../context.js'
import { contentTypeOptional, malformedInput, response } from './answers.js'
import { idempotent, noRedirect, noStackTrace, retryAfter } from './behaviour.js'
import { discovery } from './discovery.js'
import { timeout, timeoutQuery } from './timing.js'
import { tlsHandshake, tlsHostname, tlsLegacyRefused } from './tls.js'

/** Every conformance case, in the order they run (within its scope). */
export const CASES: readonly ConformanceCase[] = [
  { id: 'tls-handshake', scope: 'extension', level: 'required', run: tlsHandshake, title: 'A TLS 1.2+ handshake succeeds and the certificate chain verifies against the CA bundle (or the system roots)' },
  { id: 'tls-hostname', scope: 'extension', level: 'required', run: tlsHostname, title: 'The serving certificate matches the host of the URL' },
  { id: 'tls-legacy-refused', scope: 'extension', level: 'required', run: tlsLegacyRefused, title: 'A client limited to TLS 1.0/1.1 is refused' },
  { id: 'discovery', scope: 'extension', level: 'required', run: discovery, title: 'Discovery answers HTTP 200, status Success, with handlers that pass Cluster API\'s defaulting and validation' },
  { id: 'response', scope: 'handler', level: 'required', run: response, title: 'The sample request gets HTTP 200 and an answer valid for the hook\'s response schema' },
  { id: 'content-type-optional', scope: 'handler', level: 'required', run: contentTypeOptional, title: 'A request without Content-Type (as Cluster API\'s Go client sends it) gets HTTP 200 and a JSON answer' },
  { id: 'timeout', scope: 'handler', level: 'required', run: timeout, title: 'The answer arrives within the handler\'s declared timeout (10 s when not declared)' },
  { id: 'timeout-query', scope: 'handler', level: 'advisory', run: timeoutQuery, title: 'With a ?timeout= shorter than the declared timeout, the answer still arrives in time' },
  { id: 'malformed-input', scope: 'handler', level: 'required', run: malformedInput, title: 'Malformed requests get HTTP 200 with status Failure, not a transport error or another HTTP status' },
  { id: 'idempotent', scope: 'handler', level: 'required', run: idempotent, title: 'Two identical calls get the same answer' },
  { id: 'retry-after', scope: 'handler', level: 'required', run: retryAfter, title: 'retryAfterSeconds only on blocking hooks, an integer from 0 to 86400, 0 on Failure' },
  { id: 'no-stack-trace', scope: 'handler', level: 'required', run: noStackTrace, title: 'No message carries a stack trace (JavaScript, Go, Python or Java)' },
  { id: 'no-redirect', scope: 'final', level: 'required', run: noRedirect, title: 'No answer is a redirect (3xx); Cluster API never follows them' }
]
