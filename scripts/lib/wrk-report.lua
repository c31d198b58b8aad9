-- wrk's report for scripts/lib/load-generator.ts (npm run bench:locator): the run's counts, then its whole
-- latency histogram (µs: each bucket's value and count), so that runs merge into exact percentiles. A request
-- other than GET comes in the environment: BENCH_METHOD and BENCH_BODY.
local method = os.getenv("BENCH_METHOD")
if method and method ~= "" then
  wrk.method = method
  wrk.body = os.getenv("BENCH_BODY") or ""
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write("bench-report ", summary.requests, " ", e.status, " ", e.connect + e.read + e.write + e.timeout, "\n")
  for i = 1, #latency do
    local value, count = latency(i)
    io.write("bench-latency ", value, " ", count, "\n")
  end
end
