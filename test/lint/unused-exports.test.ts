// Every export of src/ is used: imported by another module (source, tests, tools, benchmarks) or part of the public
// surface (an entry point of package.json's exports). An export nothing imports should be made internal.
import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import t from 'tap'
import ts from 'typescript'

const root = join(dirname(new URL(import.meta.url).pathname), '../..')
const tsconfig = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
if (!tsconfig) throw new Error('tsconfig.json cannot be read')
const program = ts.createProgram(tsconfig.fileNames, { ...tsconfig.options, noEmit: true })
const checker = program.getTypeChecker()

/** The source files of package.json's exports: all they export is public. */
const entryPoints = new Set(Object.values(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports as Record<string, string | { import: string }>)
  .map(target => typeof target === 'string' ? target : target.import)
  .filter(target => target.endsWith('.js'))
  .map(target => join(root, target.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'))))

const original = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias) ? checker.getAliasedSymbol(symbol) : symbol

/** Declarations imported or re-exported by some module, and modules whose every export is taken (`* as`, `export *`). */
const used = new Set<ts.Symbol>()
const wholeModules = new Set<ts.Symbol>()
for (const file of program.getSourceFiles()) {
  if (file.isDeclarationFile || file.fileName.includes('/node_modules/')) continue
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      // `(await import('./x.js')).name`, or `.name` of a variable holding the loaded module: the export is used.
      const symbol = checker.getSymbolAtLocation(node.name)
      if (symbol) used.add(original(symbol))
    } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      // `const { name } = await import('./x.js')` (one of a Promise.all's too): the export is used.
      const name = node.propertyName ?? node.name
      const property = ts.isIdentifier(name) ? checker.getTypeAtLocation(node.parent).getProperty(name.text) : undefined
      if (property) used.add(original(property))
    } else if (ts.isImportSpecifier(node) || ts.isExportSpecifier(node) || ts.isImportClause(node)) {
      const symbol = node.name && checker.getSymbolAtLocation(node.name)
      if (symbol) used.add(original(symbol))
    } else if (ts.isNamespaceImport(node) || ts.isNamespaceExport(node)) {
      const declaration = ts.isNamespaceImport(node) ? node.parent.parent : node.parent
      const module = checker.getSymbolAtLocation(declaration.moduleSpecifier as ts.Expression)
      if (module) wholeModules.add(module)
    } else if (ts.isExportDeclaration(node) && !node.exportClause && node.moduleSpecifier) {
      const module = checker.getSymbolAtLocation(node.moduleSpecifier)
      if (module) wholeModules.add(module)
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
}

t.test('every export of src/ is imported somewhere or public', async t => {
  const unused: string[] = []
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(join(root, 'src/')) || entryPoints.has(file.fileName)) continue
    const module = checker.getSymbolAtLocation(file)
    if (!module || wholeModules.has(module)) continue
    for (const exported of checker.getExportsOfModule(module)) {
      // A re-export: its own declaration is checked where it lives.
      if ((exported.flags & ts.SymbolFlags.Alias) || !exported.declarations?.some(d => d.getSourceFile() === file)) continue
      if (!used.has(exported)) unused.push(`${relative(root, file.fileName)}: ${exported.name}`)
    }
  }
  t.same(unused, [], 'make these internal (drop `export`) or use them')
})
