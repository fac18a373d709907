-- bench/http.py's wrk script: each thread sends the moves prepared for it, in order.
--
-- The moves of thread N are lines of <dir>/t<N>.txt: "<path>\t<body>", the body holding
-- "%ID%" where the event's id goes. One connection per thread (wrk -t16 -c16), so a thread's
-- moves reach the server one at a time and in order: a game's legal sequence stays legal.
-- Event ids are random per thread: each thread seeds its own generator from its number and the
-- clock (two threads seeded alike would send the same ids).
-- Arguments (after --): <dir> <token> [close]; "close" sends Connection: close with each
-- request, so that every move is accepted anew by either gunicorn process. A run starts where
-- the last one on the same <dir> stopped (<dir>/positions.txt, written at the end).

local counter = 0
local threads = {}

function setup(thread)
  counter = counter + 1
  thread:set("number", counter)
  table.insert(threads, thread)
end

function init(args)
  dir = args[1]
  local token = args[2]
  close = args[3] == "close"
  math.randomseed(os.time() * 1000 + number * 7919)
  -- LuaJIT's generator: throw away its first draws, alike for nearby seeds.
  for _ = 1, 16 do math.random() end
  lines = {}
  for line in io.lines(dir .. "/t" .. number .. ".txt") do
    local tab = line:find("\t", 1, true)
    lines[#lines + 1] = { line:sub(1, tab - 1), line:sub(tab + 1) }
  end
  next_line = 1
  local saved = io.open(dir .. "/positions.txt", "r")
  if saved then
    for entry in saved:lines() do
      local n, at, id = entry:match("(%d+) (%d+) (%S+)")
      if tonumber(n) == number then
        next_line = tonumber(at)
        -- The last request of the last run may be unanswered, or even unsent: send it again,
        -- same id (a retry: 200 if it was recorded), so the game's sequence stays whole.
        if id ~= "-" and next_line > 1 then resend = { next_line - 1, id } end
      end
    end
    saved:close()
  end
  first_line = next_line
  last_id = nil
  -- wrk calls the first thread's request() once to check it, and never sends that one.
  verifying = number == 1
  exhausted = 0
  refused = 0
  headers = { ["Content-Type"] = "application/json", ["Authorization"] = "Token " .. token }
  if close then headers["Connection"] = "close" end
end

local hex = "0123456789abcdef"

local function uuid4()
  local out = {}
  for i = 1, 32 do
    local n = math.random(1, 16)
    if i == 13 then n = 5 end                    -- version 4
    if i == 17 then n = 9 + math.random(0, 3) end -- variant 10xx
    out[i] = hex:sub(n, n)
  end
  local s = table.concat(out)
  return s:sub(1, 8) .. "-" .. s:sub(9, 12) .. "-" .. s:sub(13, 16) .. "-" .. s:sub(17, 20)
    .. "-" .. s:sub(21, 32)
end

function request()
  if verifying then
    verifying = false
    return wrk.format("GET", "/healthz", headers)
  end
  if resend then
    local line = lines[resend[1]]
    local body = line[2]:gsub("%%ID%%", resend[2])
    resend = nil
    return wrk.format("POST", line[1], headers, body)
  end
  local line = lines[next_line]
  if line == nil then
    exhausted = exhausted + 1
    return wrk.format("GET", "/healthz", headers)
  end
  next_line = next_line + 1
  last_id = uuid4()
  local body = line[2]:gsub("%%ID%%", last_id)
  return wrk.format("POST", line[1], headers, body)
end

function response(status, headers, body)
  if status ~= 201 and status ~= 200 then
    refused = refused + 1
    if refused <= 3 then io.stderr:write(status .. " " .. body:sub(1, 300) .. "\n") end
  end
end

function done(summary, latency, requests)
  local sent, out, bad = 0, 0, 0
  local saved = io.open(threads[1]:get("dir") .. "/positions.txt", "w")
  for _, thread in ipairs(threads) do
    saved:write(thread:get("number") .. " " .. thread:get("next_line") .. " "
      .. (thread:get("last_id") or "-") .. "\n")
    sent = sent + (thread:get("next_line") - thread:get("first_line"))
    out = out + thread:get("exhausted")
    bad = bad + thread:get("refused")
  end
  io.write(string.format(
    'WRK {"requests": %d, "seconds": %.3f, "p50_ms": %.3f, "p90_ms": %.3f, "p99_ms": %.3f, '
    .. '"max_ms": %.3f, "non_2xx": %d, "socket_errors": %d, "moves_sent": %d, '
    .. '"exhausted": %d, "refused": %d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000,
    latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout, sent, out, bad))
  saved:close()
end
