import t from 'tap'
import { parseAutocannon, parseRssMb, parseWrk, WRK_MARKER } from '../../bench/lib/parse.js'

t.test('wrk: the summary line of bench/wrk.lua, in ms and req/s', async t => {
  const stdout = 'Running 3s test @ https://127.0.0.1:9443/x\n  1 threads and 10 connections\n' +
    `${WRK_MARKER}{"requests":30000,"durationUs":3000000,"connect":0,"read":1,"write":0,"status":4,"timeout":2,"p50Us":512,"p99Us":2048,"maxUs":9000}\n`
  t.same(parseWrk(stdout), { requests: 30000, durationS: 3, rps: 10000, p50Ms: 0.512, p99Ms: 2.048, maxMs: 9, errors: 3, non2xx: 4 })
  t.throws(() => parseWrk('wrk: unable to connect'), /no BENCH_JSON line/)
})

t.test('autocannon -j: total requests over the duration; timeouts are already errors', async t => {
  const stdout = JSON.stringify({ duration: 2, errors: 1, timeouts: 1, non2xx: 3, requests: { total: 5000, average: 2500 }, latency: { p50: 1, p99: 4, max: 12 } })
  t.same(parseAutocannon(`(node:1) Warning: something\n${stdout}`), { requests: 5000, durationS: 2, rps: 2500, p50Ms: 1, p99Ms: 4, maxMs: 12, errors: 1, non2xx: 3 })
  t.throws(() => parseAutocannon('crashed'), /printed no JSON/)
})

t.test('RSS from /proc/<pid>/status', async t => {
  t.equal(parseRssMb('Name:\tnode\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t7\n'), 100)
  t.equal(parseRssMb('Name:\tzombie\n'), undefined)
})
