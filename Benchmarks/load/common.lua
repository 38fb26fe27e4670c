-- Shared by the wrk scripts: reads the players (one "id token" a line) and the codes
-- (one "cache code lat lon" a line) the benchmark wrote, and gives each wrk thread its own
-- share of the players, so no two threads claim for the same player.
local common = {}

function common.lines(path)
  local out = {}
  for line in io.lines(path) do
    local fields = {}
    for f in line:gmatch("%S+") do fields[#fields + 1] = f end
    if #fields > 0 then out[#out + 1] = fields end
  end
  return out
end

local counter = 0
local threads = {}

-- wrk calls setup once per thread before starting: number the threads.
function common.setup(thread)
  thread:set("id", counter)
  thread:set("nthreads", 0)   -- filled in by init below from the arguments
  counter = counter + 1
  threads[#threads + 1] = thread
end

function common.threads() return threads end

-- Counts responses by status and by a pattern in the body; read back in done().
function common.count(status, body, patterns)
  stats = stats or {}
  local key = "s" .. status
  stats[key] = (stats[key] or 0) + 1
  for name, pattern in pairs(patterns or {}) do
    if body and body:find(pattern, 1, true) then stats[name] = (stats[name] or 0) + 1 end
  end
end

-- One JSON line with the latency percentiles (ms) and the counters of every thread.
function common.report(label, summary, latency, names)
  local seconds = summary.duration / 1e6
  local totals = {}
  for _, t in ipairs(threads) do
    for _, name in ipairs(names) do
      totals[name] = (totals[name] or 0) + (tonumber(t:get("c_" .. name)) or 0)
    end
  end
  local parts = {}
  for _, name in ipairs(names) do parts[#parts + 1] = string.format('"%s": %d', name, totals[name]) end
  io.write(string.format(
    'RESULT {"label": "%s", "requests": %d, "seconds": %.2f, "per_s": %.1f, "p50_ms": %.2f, "p90_ms": %.2f, ' ..
    '"p99_ms": %.2f, "p999_ms": %.2f, "max_ms": %.2f, "socket_errors": %d, "non_2xx": %d, %s}\n',
    label, summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency:percentile(99.9) / 1000, latency.max / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, table.concat(parts, ", ")))
end

return common
