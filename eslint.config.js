import neostandard from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: ['dist/**', 'openapi/types.ts', '.tap/**', 'node_modules/**'] })
]
