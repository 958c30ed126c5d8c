// The errors of a conformance run's setup, each with a stable code (a failing case is a result, not an error).
import { codedError } from '../errors/index.js'

/** A --request-dir file is unreadable or not a valid request of its hook. */
export class RequestFileError extends codedError('ERR_RUNTIME_SDK_REQUEST_FILE') {}

/** The options cannot describe a run: the URL, CA bundle or client certificate is unusable. */
export class ConformanceSetupError extends codedError('ERR_RUNTIME_SDK_CONFORMANCE_SETUP') {}
