-- Read endpoints, in turn: the hunt, the caches from a place (signed in, so with the
-- player's finds), the caches anonymously, the leaderboard, the player's own page.
-- Arguments: PLAYERS CODES THREADS. With ONLY=0…4 in the environment, just that one of the
-- five (Benchmarks/server-endpoints.sh).
package.path = package.path .. ";" .. (os.getenv("GEOQR_LUA") or ".") .. "/?.lua"
local common = require("common")
setup = common.setup

local players, codes, k

function init(args)
  players = common.lines(args[1])
  codes = common.lines(args[2])
  k = tonumber(wrk.thread:get("id"))
  c_ok = 0
end

function request()
  k = k + 1
  local p = players[k % #players + 1]
  local c = codes[k % #codes + 1]
  local auth = { ["Authorization"] = "Bearer " .. p[2] }
  local which = tonumber(os.getenv("ONLY") or "") or (k % 5)
  if which == 0 then return wrk.format("GET", "/api/hunt")
  elseif which == 1 then return wrk.format("GET", "/api/caches?latitude=" .. c[3] .. "&longitude=" .. c[4], auth)
  elseif which == 2 then return wrk.format("GET", "/api/caches")
  elseif which == 3 then return wrk.format("GET", "/api/leaderboard")
  else return wrk.format("GET", "/api/me", auth) end
end

function response(status, headers, body)
  if status == 200 then c_ok = c_ok + 1 end
  wrk.thread:set("c_ok", c_ok)
end

function done(summary, latency, requests)
  common.report(os.getenv("GEOQR_LABEL") or "reads", summary, latency, { "ok" })
end
