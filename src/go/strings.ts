// Go's string ordering (strings.Compare, the < of Go strings): by UTF-8 bytes, which is code point order. JavaScript
// compares UTF-16 units, where a character above U+FFFF (a surrogate pair) sorts before U+E000–U+FFFF.

/** strings.Compare: -1, 0 or 1, by the strings' UTF-8 bytes. */
export function compare (a: string, b: string): number {
  if (a === b) return 0
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) {
      // A surrogate (a code point above U+FFFF) sorts after every BMP code point in UTF-8.
      const xs = x >= 0xd800 && x <= 0xdfff
      const ys = y >= 0xd800 && y <= 0xdfff
      if (xs !== ys) return xs ? 1 : -1
      return x < y ? -1 : 1
    }
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0
}
