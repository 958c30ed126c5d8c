-- wrk script of the benchmark harness: POSTs the file named by BENCH_BODY with no Content-Type of its own (what
-- Cluster API's runtime client sends), or GETs when BENCH_BODY is empty; headers come from wrk's -H. Prints one
-- machine-readable summary line for bench/lib/parse.ts.
local path = os.getenv("BENCH_BODY")
if path ~= nil and path ~= "" then
  local file = assert(io.open(path, "rb"), "cannot open BENCH_BODY " .. path)
  wrk.method = "POST"
  wrk.body = file:read("*a")
  file:close()
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"durationUs":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50Us":%d,"p99Us":%d,"maxUs":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
