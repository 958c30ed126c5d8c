// re2js's engines read their subject through an input object of the package's own (MachineUTF16Input: step() for
// each position, context(), index() ...), which the public methods build from the string and which the package does
// not export. A match is one synchronous call, linear in the subject but as long as the subject times the pattern's
// size: minutes for a large pattern over megabytes. To let a budget cut it, the class is taken from the engine once
// (the input it builds for a first match is caught) and extended to report every STEP_BATCH positions it reads.
// Pinned by test/shims/re2js.test.ts.
import { RE2JS } from 're2js'

/** The compiled program of a pattern (RE2JS's engine), as src/go/regexp.ts drives it. */
export type Engine = ReturnType<RE2JS['re2']>

/** An input for Engine.executeEngine: the subject, reporting its reads. */
type CountingInput = object

type InputClass = new (subject: string, start: number, end: number) => { step (pos: number): number }

const STEP_BATCH = 4096
let Counting: (new (subject: string, onBatch: (positions: number) => void) => CountingInput) | undefined

/** The engine's own input class, caught as it builds one. */
function engineInputClass (): InputClass {
  const engine = RE2JS.compile('x').re2()
  let built: { constructor: InputClass } | undefined
  Object.defineProperty(engine, 'executeEngine', { value: (input: { constructor: InputClass }) => { built = input; return null } })
  engine.match('x')
  if (built === undefined) throw new Error('re2js no longer builds its input in match(): update src/shims/re2js.ts')
  return built.constructor
}

function countingClass (): new (subject: string, onBatch: (positions: number) => void) => CountingInput {
  const Base = engineInputClass()
  return class extends Base {
    #left = STEP_BATCH
    readonly #onBatch: (positions: number) => void
    constructor (subject: string, onBatch: (positions: number) => void) {
      super(subject, 0, subject.length)
      this.#onBatch = onBatch
    }

    override step (pos: number): number {
      if (--this.#left === 0) {
        this.#left = STEP_BATCH
        this.#onBatch(STEP_BATCH)
      }
      return super.step(pos)
    }
  }
}

/** The subject as the engines read it, calling onBatch(positions) as they advance through it. */
export function countingInput (subject: string, onBatch: (positions: number) => void): CountingInput {
  Counting ??= countingClass()
  return new Counting(subject, onBatch)
}
