// Kubernetes' escaping of property names into CEL identifiers (apiservercel.Escape/Unescape): `foo-bar` is
// `foo__dash__bar`, `a.b` is `a__dot__b`, a CEL keyword such as `namespace` is `__namespace__`.

/** CEL's reserved words: a property with one of these names is escaped as __name__. */
const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while'])

/** apiservercel.Escape: the CEL name of a property, or undefined when it has none. */
export function escapeName (name: string): string | undefined {
  if (name === '' || ((name[0] as string) >= '0' && (name[0] as string) <= '9')) return undefined
  if (RESERVED.has(name)) return `__${name}__`
  if (!/^[a-zA-Z0-9_\-./]*$/.test(name)) return undefined
  return name.replace(/__|[-./]/g, m => ({ __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' })[m] as string)
}

/** apiservercel.Unescape: the property a CEL name stands for, or undefined. */
export function unescapeName (escaped: string): string | undefined {
  let ok = true
  const out = escaped.replace(/__[^_]+__/g, (s) => {
    const inner = s.slice(2, -2)
    switch (inner) {
      case 'underscores': return '__'
      case 'dot': return '.'
      case 'dash': return '-'
      case 'slash': return '/'
    }
    if (RESERVED.has(inner)) {
      if (s.length !== escaped.length) ok = false
      return inner
    }
    ok = false
    return ''
  })
  return ok ? out : undefined
}
