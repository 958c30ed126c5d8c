// Options every fastify app of ours is created with (spread them first: `Fastify({ ...appOptions, ... })`).
import { createRequire } from 'node:module'
import type { FastifyServerOptions } from 'fastify'

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>
type Compilers = NonNullable<SchemaController['compilersFactory']>
type ValidatorFactory = NonNullable<Compilers['buildValidator']>
type SerializerFactory = NonNullable<Compilers['buildSerializer']>

// Resolved from fastify's own location: they are its dependencies, not ours.
const requireFromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'))

/** A function that loads the real one on its first call. */
function onFirstCall<F extends (...args: never[]) => unknown> (load: () => F): F {
  let loaded: F | undefined
  return ((...args: Parameters<F>) => (loaded ??= load())(...args)) as F
}

/**
 * fastify's schema compilers (the Ajv and fast-json-stringify builders), loaded when a route first declares a
 * schema. Our routes declare none (hook bodies are validated by the catalog), so our processes never load them:
 * ~25 ms less start-up for `serve`.
 */
const compilersFactory: Compilers = {
  buildValidator: onFirstCall(() => (requireFromFastify('@fastify/ajv-compiler') as () => ValidatorFactory)()),
  buildSerializer: onFirstCall(() => (requireFromFastify('@fastify/fast-json-stringify-compiler') as () => SerializerFactory)())
}

export const appOptions = { schemaController: { compilersFactory } } satisfies FastifyServerOptions
