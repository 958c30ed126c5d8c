// Field paths in messages: `items[0].metadata.labels["app.kubernetes.io/name"]`, from a JSON pointer (Ajv's errors)
// or from the keys leading to a value (the generated decoders).

/** A key on the way to a value: a field name, a list index, or the key of a map (always bracketed). */
export type PathKey = string | number | { mapKey: string }

/** `/items/0/metadata/labels/app.kubernetes.io~1name` -> `items[0].metadata.labels["app.kubernetes.io/name"]` */
export function fieldPath (pointer: string): string {
  if (!pointer) return ''
  return formatPath(pointer.slice(1).split('/').map(raw => {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    return /^[0-9]+$/.test(key) ? Number(key) : key
  }))
}

/** `['items', 0, 'uid']` -> `items[0].uid`; `['labels', { mapKey: 'app' }]` -> `labels["app"]` */
export function formatPath (keys: ReadonlyArray<PathKey>): string {
  let out = ''
  for (const key of keys) {
    if (typeof key === 'number') out += `[${key}]`
    else if (typeof key === 'object') out += `[${JSON.stringify(key.mapKey)}]`
    else out += out && !formatKey(key).startsWith('[') ? `.${formatKey(key)}` : formatKey(key)
  }
  return out
}

/** A key as it reads in a path: bare when it is an identifier, else `["quoted"]`. */
export function formatKey (key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : `[${JSON.stringify(key)}]`
}
