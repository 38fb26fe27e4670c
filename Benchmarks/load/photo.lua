-- Photo claims: POST /api/claims/photo, multipart, with one phone-size JPEG whose EXIF puts
-- it at the cache; each request signs in as the next player, so each is a new find.
-- Arguments: PLAYERS MULTIPART-BODY-FILE CONTENT-TYPE-FILE THREADS.
package.path = package.path .. ";" .. (os.getenv("GEOQR_LUA") or ".") .. "/?.lua"
local common = require("common")
setup = common.setup

local players, body, ctype, k, nthreads

function init(args)
  players = common.lines(args[1])
  local f = io.open(args[2], "rb"); body = f:read("*a"); f:close()
  f = io.open(args[3], "rb"); ctype = f:read("*l"); f:close()
  nthreads = tonumber(args[4])
  k = tonumber(wrk.thread:get("id"))
  c_claimable, c_other = 0, 0
end

function request()
  local p = players[k % #players + 1]
  k = k + nthreads
  return wrk.format("POST", "/api/claims/photo",
    { ["Content-Type"] = ctype, ["Authorization"] = "Bearer " .. p[2] }, body)
end

function response(status, headers, body)
  if body:find('"verdict":"claimable"', 1, true) then c_claimable = c_claimable + 1 else c_other = c_other + 1 end
  wrk.thread:set("c_claimable", c_claimable)
  wrk.thread:set("c_other", c_other)
end

function done(summary, latency, requests)
  common.report(os.getenv("GEOQR_LABEL") or "photo", summary, latency, { "claimable", "other" })
end
