// The errors of a conformance run's setup, each with a stable code (a failing case is a result, not an error).

/** A --request-dir file is unreadable or not a valid request of its hook. */
export class RequestFileError extends Error {
  override name = 'RequestFileError'
  readonly code = 'ERR_RUNTIME_SDK_REQUEST_FILE'
}

/** The options cannot describe a run: the URL, CA bundle or client certificate is unusable. */
export class ConformanceSetupError extends Error {
  override name = 'ConformanceSetupError'
  readonly code = 'ERR_RUNTIME_SDK_CONFORMANCE_SETUP'
}
