// The layer rule of eslint.config.js: an import against the direction fails lint, one along it passes.
import { ESLint } from 'eslint'
import t from 'tap'

const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname })
const problems = async (filePath: string, code: string) =>
  (await eslint.lintText(`${code}\n`, { filePath }))[0]?.messages.filter(m => m.ruleId === 'no-restricted-imports').map(m => m.message) ?? []

t.test('an import against the layer direction fails lint', async t => {
  t.match(await problems('src/catalog/x.ts', "export * from '../server/index.js'"), [/src\/catalog must not import src\/server/])
  t.match(await problems('src/controller/x.ts', "export * from '../server/body.js'"), [/src\/controller must not import src\/server/])
  t.match(await problems('src/api/hooks/v1alpha1/x.ts', "export * from '../../../catalog/index.js'"), [/src\/api must not import src\/catalog/])
  t.match(await problems('src/client/x.ts', "export * from '../controller/run.js'"), [/src\/client must not import src\/controller/])
})

t.test('imports along the direction pass', async t => {
  t.same(await problems('src/controller/x.ts', "export * from '../client/index.js'\nexport * from '../http/errors.js'"), [])
  t.same(await problems('src/server/x.ts', "export * from '../catalog/index.js'\nexport * from '../api/hooks/define.js'"), [])
  t.same(await problems('src/cli/x.ts', "export * from '../controller/run.js'\nexport * from '../server/index.js'"), [])
})
