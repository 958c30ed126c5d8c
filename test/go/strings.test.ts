// Go's string order (strings.Compare) and lengths (utf8.RuneCountInString, len): by UTF-8 bytes and code points,
// not by JavaScript's UTF-16 units.
import t from 'tap'
import { compare } from '../../src/go/strings.js'
import { byteLength, runeCount } from '../../src/go/utf8.js'

t.test('strings.Compare', async t => {
  t.equal(compare('a', 'b'), -1)
  t.equal(compare('b', 'a'), 1)
  t.equal(compare('a', 'a'), 0)
  t.equal(compare('a', 'ab'), -1)
  t.equal(compare('ab', 'a'), 1)
  t.equal(compare('\uffff', '😀'), -1, 'code point order, not UTF-16')
  t.equal(compare('\ue000', '\u{10000}'), -1, 'a surrogate pair sorts after U+E000')
})

t.test('rune count and byte length', async t => {
  t.equal(runeCount('héllo😀'), 6)
  t.equal(byteLength('héllo😀'), 10)
  t.equal(byteLength('\ud800'), 3, 'a lone surrogate is U+FFFD, three bytes')
})
