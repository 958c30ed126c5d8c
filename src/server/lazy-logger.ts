// Per-request child loggers that cost nothing until something is logged. pino's child() serializes its bindings
// right away, which took ~5 % of the server's CPU per request even at level warn, where nothing is ever written.
import type { Bindings, ChildLoggerOptions, Level, LogFn, Logger } from 'pino'

const LEVEL_METHODS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace'])
const noop = (): void => {}

interface LazyState {
  parent: Logger
  bindings: Bindings
  child: Logger | undefined
}

// A lazy logger hands out its state under this key, so that the child of a lazy logger is made from the real one.
const STATE = Symbol('lazy logger state')

function materialize (state: LazyState): Logger {
  if (state.child === undefined) {
    const parentState = (state.parent as unknown as Record<symbol, LazyState | undefined>)[STATE]
    state.child = (parentState ? materialize(parentState) : state.parent).child(state.bindings)
  }
  return state.child
}

/** A log method of `level` that creates the child and writes through it. */
function writeAt (state: LazyState, level: Level): LogFn {
  return function (this: unknown, ...args: unknown[]) {
    const child = materialize(state)
    ;(child[level] as (...a: unknown[]) => void).apply(child, args)
  } as LogFn
}

// One handler for every lazy logger: a logger is a Proxy over its small state, so creating one allocates two objects.
const handler: ProxyHandler<LazyState> = {
  get (state, prop) {
    if (prop === STATE) return state
    if (state.child === undefined && typeof prop === 'string') {
      // Before the child exists its level is its parent's: a disabled level is a no-op, an enabled one (and child)
      // creates the child when called (fastify checks that these methods exist on every request).
      if (LEVEL_METHODS.has(prop)) {
        return state.parent.isLevelEnabled(prop) ? writeAt(state, prop as Level) : noop
      }
      if (prop === 'isLevelEnabled') return (level: string) => state.parent.isLevelEnabled(level)
      if (prop === 'level') return state.parent.level
      if (prop === 'child') return (bindings: Bindings, options?: ChildLoggerOptions) => materialize(state).child(bindings, options)
    }
    const child = materialize(state)
    const value: unknown = Reflect.get(child, prop, child)
    return typeof value === 'function' ? value.bind(child) : value
  },
  set (state, prop, value) {
    return Reflect.set(materialize(state), prop, value)
  },
  has (state, prop) {
    return prop in materialize(state)
  },
  getPrototypeOf (state) {
    return Reflect.getPrototypeOf(materialize(state))
  }
}

/**
 * A logger that behaves like `parent.child(bindings)` but creates that child only when it first writes (or is
 * asked for anything beyond its level, its own child() included), so requests that log nothing never pay for one.
 * `parent` may be a lazy logger too.
 */
export function lazyChildLogger (parent: Logger, bindings: Bindings): Logger {
  // Not pino: fastify's no-op logger (`logger: false`) or another logger whose child is the caller's business.
  if (typeof parent.isLevelEnabled !== 'function') return parent.child(bindings)
  return new Proxy<LazyState>({ parent, bindings, child: undefined }, handler) as unknown as Logger
}
