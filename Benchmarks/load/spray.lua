-- Empty joins, each from a new IPv6 /64 (X-Forwarded-For, believed from the loopback proxy):
-- every request a new client for the rate limiter's table. Answered 400 once the limiter has
-- counted it. Used by Benchmarks/limiter.sh.
local n = 0
local thread_id = 0
-- Each run of wrk starts its count again: SPRAY_RUN keeps one run's addresses from another's.
local run = tonumber(os.getenv("SPRAY_RUN") or "0")
setup = function(thread)
    thread:set("id", thread_id)
    thread_id = thread_id + 1
end
request = function()
    n = n + 1
    local address = string.format("2001:%x:%x:%x::1", 0xdb8 + id, (run * 64 + math.floor(n / 65536)) % 65536, n % 65536)
    return wrk.format("POST", "/api/join", { ["Content-Type"] = "application/json", ["X-Forwarded-For"] = address }, "{}")
end
