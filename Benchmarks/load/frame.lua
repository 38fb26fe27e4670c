-- Camera frames: POST /api/claims/frame with one 640×480 JPEG, located at the cache, as a phone
-- sends about three a second while its player aims. Each wrk thread signs in as its own
-- players in turn. Arguments: PLAYERS FRAME-FILE LATITUDE LONGITUDE THREADS.
package.path = package.path .. ";" .. (os.getenv("GEOQR_LUA") or ".") .. "/?.lua"
local common = require("common")
setup = common.setup

local players, body, path, k, nthreads

function init(args)
  players = common.lines(args[1])
  local f = io.open(args[2], "rb"); body = f:read("*a"); f:close()
  path = string.format("/api/claims/frame?latitude=%s&longitude=%s&accuracy=8", args[3], args[4])
  nthreads = tonumber(args[5])
  k = tonumber(wrk.thread:get("id"))
  c_code, c_nocode, c_error = 0, 0, 0
end

function request()
  local p = players[k % #players + 1]
  k = k + nthreads
  return wrk.format("POST", path, { ["Content-Type"] = "image/jpeg", ["Authorization"] = "Bearer " .. p[2] }, body)
end

function response(status, headers, body)
  if status ~= 200 then c_error = c_error + 1
  elseif body:find('"verdict":"no-code"', 1, true) then c_nocode = c_nocode + 1
  else c_code = c_code + 1 end
  wrk.thread:set("c_code", c_code)
  wrk.thread:set("c_nocode", c_nocode)
  wrk.thread:set("c_error", c_error)
end

function done(summary, latency, requests)
  common.report(os.getenv("GEOQR_LABEL") or "frames", summary, latency, { "code", "nocode", "error" })
end
