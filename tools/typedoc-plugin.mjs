// The TypeDoc plugin of `npm run docs` (typedoc.json): names each module of the API reference as users import it
// (runtime-sdk, runtime-sdk/server, ...) from package.json's exports, and fails the build when typedoc.json's entry
// points and those exports differ.
import { readFileSync } from 'node:fs'
import { Converter, ReflectionKind } from 'typedoc'

/** @param {import('typedoc').Application} app */
export function load (app) {
  const { name, exports } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  // TypeDoc names a module by its source path: ./dist/src/server/index.js is built from src/server/index.ts, "src/server".
  const modules = new Map()
  for (const [subpath, target] of Object.entries(exports)) {
    const js = typeof target === 'string' ? target : target.import
    if (!js.endsWith('.js')) continue
    modules.set(js.replace(/^\.\/dist\//, '').replace(/(\/index)?\.js$/, ''), subpath === '.' ? name : `${name}/${subpath.slice(2)}`)
  }
  const imported = new Set(modules.values())

  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (_context, reflection) => {
    if (reflection.kindOf(ReflectionKind.Module)) reflection.name = modules.get(reflection.name) ?? reflection.name
  })
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, context => {
    const documented = new Set(context.project.getChildrenByKind(ReflectionKind.Module).map(m => m.name))
    for (const module of imported) {
      if (!documented.has(module)) app.logger.error(`${module} is in package.json's exports but not among typedoc.json's entryPoints`)
    }
    for (const module of documented) {
      if (!imported.has(module)) app.logger.error(`the entry point ${module} of typedoc.json is not in package.json's exports`)
    }
  })
}
