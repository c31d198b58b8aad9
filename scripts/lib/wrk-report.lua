-- wrk's report for scripts/lib/load-generator.ts (npm run bench:locator): the run's counts, then its whole
-- latency histogram (µs: each bucket's value and count), so that runs merge into exact percentiles.
-- A request other than a GET (bench:search): its method and body, from the environment.
local method = os.getenv("WRK_METHOD")
if method and method ~= "" then
  wrk.method = method
  wrk.body = os.getenv("WRK_BODY")
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write("bench-report ", summary.requests, " ", e.status, " ", e.connect + e.read + e.write + e.timeout, "\n")
  for i = 1, #latency do
    local value, count = latency(i)
    io.write("bench-latency ", value, " ", count, "\n")
  end
end
