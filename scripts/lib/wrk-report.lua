-- wrk's report for scripts/lib/load-generator.ts (npm run bench:locator): the run's counts, then its whole
-- latency histogram (µs: each bucket's value and count), so that runs merge into exact percentiles.
-- A request other than a GET (bench:search): its method and body, from the environment.
-- A mixed load (bench:api): WRK_MIX names a file of tab-separated lines (method, path, headers as
-- name:value joined by '|', body); each request is one of its lines, at random.
local method = os.getenv("WRK_METHOD")
if method and method ~= "" then
  wrk.method = method
  wrk.body = os.getenv("WRK_BODY")
end

local mix = os.getenv("WRK_MIX")
if mix and mix ~= "" then
  local requests = {}
  -- Built in init, once wrk has set the Host header that wrk.format copies into each request.
  init = function(args)
    for line in io.lines(mix) do
      local verb, path, headers, body = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
      local named = {}
      for name, value in headers:gmatch("([^|:]+):([^|]*)") do
        named[name] = value
      end
      if body == "" then body = nil end
      table.insert(requests, wrk.format(verb, path, named, body))
    end
  end
  request = function()
    return requests[math.random(#requests)]
  end
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write("bench-report ", summary.requests, " ", e.status, " ", e.connect + e.read + e.write + e.timeout, "\n")
  for i = 1, #latency do
    local value, count = latency(i)
    io.write("bench-latency ", value, " ", count, "\n")
  end
end
