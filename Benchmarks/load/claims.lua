-- Link claims: POST /api/claims with a cache's code and a place inside its radius. Each thread
-- walks its own players and, for each, the hunt's caches in turn, so every claim is a new find
-- until the pairs run out (then they repeat: "already found"). Arguments: PLAYERS CODES THREADS.
package.path = package.path .. ";" .. (os.getenv("GEOQR_LUA") or ".") .. "/?.lua"
local common = require("common")
setup = common.setup

local players, codes, mine, k, id, nthreads

function init(args)
  players = common.lines(args[1])
  codes = common.lines(args[2])
  nthreads = tonumber(args[3])
  id = tonumber(wrk.thread:get("id"))
  mine = {}
  for i = 1 + id, #players, nthreads do mine[#mine + 1] = players[i] end
  k = 0
  c_claimable, c_repeat, c_other = 0, 0, 0
end

function request()
  local p = mine[math.floor(k / #codes) % #mine + 1]
  local c = codes[k % #codes + 1]
  k = k + 1
  local body = string.format('{"code":"%s","latitude":%s,"longitude":%s,"accuracy":8}', c[2], c[3], c[4])
  return wrk.format("POST", "/api/claims",
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. p[2] }, body)
end

function response(status, headers, body)
  if body:find('"verdict":"claimable"', 1, true) then c_claimable = c_claimable + 1
  elseif body:find('"verdict":"already-found"', 1, true) then c_repeat = c_repeat + 1
  else c_other = c_other + 1 end
  wrk.thread:set("c_claimable", c_claimable)
  wrk.thread:set("c_repeat", c_repeat)
  wrk.thread:set("c_other", c_other)
end

function done(summary, latency, requests)
  common.report(os.getenv("GEOQR_LABEL") or "claims", summary, latency, { "claimable", "repeat", "other" })
end
