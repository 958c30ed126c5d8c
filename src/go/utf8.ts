// Go's unicode/utf8 as Kubernetes' length checks and CEL's size() count strings, and len() of a Go string: a
// JavaScript string's length counts UTF-16 units, Go counts runes (code points) or UTF-8 bytes.

/** utf8.RuneCountInString: the length in code points. */
export function runeCount (s: string): number {
  let n = 0
  for (const _ of s) n++ // eslint-disable-line @typescript-eslint/no-unused-vars
  return n
}

/** len() of a Go string: its length in UTF-8 bytes. */
export function byteLength (s: string): number {
  return Buffer.byteLength(s, 'utf8')
}
