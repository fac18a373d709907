-- bench/scale.py's wrk script: GET the paths of a file (one a line) in turn, each thread
-- starting at its own offset. Arguments (after --): <paths file> <token> ("-": anonymous).

local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("number", counter)
end

function init(args)
  paths = {}
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  at = (number * 7919) % #paths
  headers = { ["Accept"] = "application/json" }
  if args[2] ~= "-" then headers["Authorization"] = "Token " .. args[2] end
end

function request()
  at = at % #paths + 1
  return wrk.format("GET", paths[at], headers)
end

function done(summary, latency, requests)
  io.write(string.format(
    'WRK {"requests": %d, "seconds": %.3f, "p50_ms": %.3f, "p90_ms": %.3f, "p99_ms": %.3f, '
    .. '"max_ms": %.3f, "non_2xx": %d, "socket_errors": %d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000,
    latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout))
end
