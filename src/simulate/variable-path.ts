// Cluster API's variable paths (patches/variables/value.go GetVariableValue): `name`, `name.field`, `name[0].field`,
// as inline patches' valueFrom.variable names them.
import { isObject } from './objects.js'

/** A path that names no value, or a malformed path. */
export class VariableValueError extends Error {}

function segment (text: string, path: string): { key: string, index?: number } {
  const open = text.indexOf('[')
  const close = text.indexOf(']')
  if ((open < 0) !== (close < 0)) throw new VariableValueError(`variable "${path}" has invalid syntax: failed to parse path segment "${text}"`)
  if (open < 0) return { key: text }
  const index = Number(text.slice(open + 1, close))
  if (!Number.isInteger(index) || index < 0) throw new VariableValueError(`variable "${path}" has invalid syntax: invalid array index in path segment "${text}"`)
  return { key: text.slice(0, open), index }
}

/** The value a variable path names in merged variables; a VariableValueError says which segment is missing. */
export function getVariableValue (variables: Readonly<Record<string, unknown>>, path: string): unknown {
  const [first = '', ...rest] = path.split('.')
  const name = segment(first, path)
  if (!(name.key in variables)) throw new VariableValueError(`variable "${first}" does not exist`)
  let value = variables[name.key]
  const element = (index: number | undefined, key: string) => {
    if (index === undefined) return
    if (!Array.isArray(value)) throw new VariableValueError(`variable "${path}" is invalid: failed to get array "${key}"`)
    if (value.length <= index) throw new VariableValueError(`variable "${path}" is invalid: array does not have index ${index}`)
    value = value[index]
  }
  element(name.index, name.key)
  for (const text of rest) {
    const s = segment(text, path)
    if (!isObject(value) || !(s.key in value)) throw new VariableValueError(`variable "${path}" does not exist: failed to lookup segment "${s.key}"`)
    value = value[s.key]
    element(s.index, s.key)
  }
  return value
}
