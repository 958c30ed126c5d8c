// The one way this package makes its error classes (as fastify's createError does): a class with a stable `code`
// to branch on, named after the class that extends it. It sits under every layer, like the dependency shims.

/** An error with a stable `code`, e.g. `ERR_RUNTIME_SDK_CALL`. */
export interface CodedError<C extends string = string> extends Error {
  /** code is the error's stable code: it stays the same across releases, unlike the message. */
  readonly code: C
}

/**
 * The base class of an error class with a stable code: `class CatalogError extends codedError('ERR_RUNTIME_SDK_CATALOG') {}`.
 * The error's `name` is the extending class's name.
 */
export function codedError<const C extends string> (code: C): new (message: string, options?: ErrorOptions) => CodedError<C> {
  return class extends Error implements CodedError<C> {
    /** code is the error's stable code: it stays the same across releases, unlike the message. */
    readonly code: C = code
    constructor (message: string, options?: ErrorOptions) {
      super(message, options)
      this.name = new.target.name
    }
  }
}
