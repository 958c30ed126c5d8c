// IP and MAC addresses as Kubernetes' formats parse them: k8s.io/utils' "sloppy" ParseIP and ParseCIDR (leading zeros
// allowed; the ipv4 and cidr formats use them) and net.ParseMAC (the mac format). net/netip's strict parser is
// src/go/netip.ts.
/** k8s.io/utils ParseIPSloppy (Go's pre-1.17 net.ParseIP): 16 bytes (IPv4 mapped), or undefined. */
export function parseIPSloppy (s: string): Uint8Array | undefined {
  for (const c of s) {
    if (c === '.') return sloppyIPv4(s)
    if (c === ':') return sloppyIPv6(s)
  }
  return undefined
}

function dtoi (s: string): [number, number] | undefined {
  let n = 0
  let i = 0
  for (; i < s.length && (s[i] as string) >= '0' && (s[i] as string) <= '9'; i++) {
    n = n * 10 + s.charCodeAt(i) - 48
    if (n >= 0xffffff) return undefined
  }
  return i === 0 ? undefined : [n, i]
}

function sloppyIPv4 (input: string): Uint8Array | undefined {
  let s = input
  const ip = new Uint8Array(16)
  ip[10] = 0xff
  ip[11] = 0xff
  for (let i = 0; i < 4; i++) {
    if (s.length === 0) return undefined
    if (i > 0) {
      if (s[0] !== '.') return undefined
      s = s.slice(1)
    }
    const r = dtoi(s)
    if (!r || r[0] > 0xff) return undefined
    s = s.slice(r[1])
    ip[12 + i] = r[0]
  }
  return s.length === 0 ? ip : undefined
}

function sloppyIPv6 (input: string): Uint8Array | undefined {
  let s = input
  const ip = new Uint8Array(16)
  let ellipsis = -1
  if (s.startsWith('::')) {
    ellipsis = 0
    s = s.slice(2)
    if (s.length === 0) return ip
  }
  let i = 0
  while (i < 16) {
    const m = /^[0-9a-fA-F]+/.exec(s)
    if (!m || parseInt(m[0], 16) >= 0xffffff || parseInt(m[0], 16) > 0xffff) return undefined
    const n = parseInt(m[0], 16)
    const c = m[0].length
    if (c < s.length && s[c] === '.') {
      if (ellipsis < 0 && i !== 12) return undefined
      if (i + 4 > 16) return undefined
      const ip4 = sloppyIPv4(s)
      if (!ip4) return undefined
      ip.set(ip4.subarray(12), i)
      s = ''
      i += 4
      break
    }
    ip[i] = n >> 8
    ip[i + 1] = n & 0xff
    i += 2
    s = s.slice(c)
    if (s.length === 0) break
    if (s[0] !== ':' || s.length === 1) return undefined
    s = s.slice(1)
    if (s[0] === ':') {
      if (ellipsis >= 0) return undefined
      ellipsis = i
      s = s.slice(1)
      if (s.length === 0) break
    }
  }
  if (s.length !== 0) return undefined
  if (i < 16) {
    if (ellipsis < 0) return undefined
    const n = 16 - i
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j] as number
    ip.fill(0, ellipsis, ellipsis + n)
  } else if (ellipsis >= 0) {
    return undefined
  }
  return ip
}

/** k8s.io/utils ParseCIDRSloppy: true when s parses. */
export function isCIDRSloppy (s: string): boolean {
  const i = s.indexOf('/')
  if (i < 0) return false
  const addr = s.slice(0, i)
  const mask = s.slice(i + 1)
  let len = 32
  let ip = sloppyIPv4(addr)
  if (!ip) { len = 128; ip = sloppyIPv6(addr) }
  const n = dtoi(mask)
  return ip !== undefined && n !== undefined && n[1] === mask.length && n[0] <= len
}

/** net.ParseMAC: true for 6, 8 or 20 bytes written xx:xx…, xx-xx… or xxxx.xxxx…. */
export function isMAC (s: string): boolean {
  if (s.length < 14) return false
  const hex2 = /^[0-9a-fA-F]{2}$/
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return false
    const n = (s.length + 1) / 3
    if (n !== 6 && n !== 8 && n !== 20) return false
    for (let x = 0, i = 0; i < n; i++, x += 3) {
      if (!hex2.test(s.slice(x, x + 2))) return false
      if (i < n - 1 && s[x + 2] !== s[2]) return false
    }
    return true
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return false
    const n = 2 * (s.length + 1) / 5
    if (n !== 6 && n !== 8 && n !== 20) return false
    for (let x = 0, i = 0; i < n; i += 2, x += 5) {
      if (!/^[0-9a-fA-F]{4}$/.test(s.slice(x, x + 4))) return false
      if (i < n - 2 && s[x + 4] !== '.') return false
    }
    return true
  }
  return false
}
