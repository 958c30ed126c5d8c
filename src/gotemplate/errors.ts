// The one error class of the Go template engine. Its message is Go's error text (parse errors `template: NAME:LINE:
// ...`, execution errors `template: NAME:LINE:COL: executing "NAME" at <NODE>: ...`), so callers can wrap it exactly
// as Cluster API wraps Go's error.
import { codedError } from '../errors/index.js'

/** What a template failure carries besides its message. */
export interface GoTemplateErrorOptions extends ErrorOptions {
  /** The template used something this engine refuses to evaluate because it cannot do it exactly as Go does. */
  unsupported?: boolean
}

/** A template failed to parse or execute; `message` is Go's error text. */
export class GoTemplateError extends codedError('ERR_RUNTIME_SDK_GO_TEMPLATE') {
  /**
   * unsupported is true when the engine refused a construct it cannot evaluate exactly as Go does (Go may have
   * succeeded); the message then says what was refused, after Go's location prefix.
   */
  readonly unsupported: boolean
  constructor (message: string, options: GoTemplateErrorOptions = {}) {
    super(message, options)
    this.unsupported = options.unsupported ?? false
  }
}

/** The text an unsupported construct's message carries after Go's location prefix. */
export function unsupportedText (what: string): string {
  return `runtime-sdk cannot evaluate this exactly as Go does: ${what}`
}
