package redisstore

import "github.com/redis/go-redis/v9"

// The scripts share this prelude. KEYS[1] is the breaker's hash (state,
// gen, opened_at, probe_at, failures, reason, at, seq), KEYS[2] the sorted
// set of failure times (the window), KEYS[3] the change channel. ARGV[1] is
// the breaker's name; times are Unix microseconds. States: 0 closed, 1
// open, 2 half-open (breaker.State's values). Every script returns the
// state as JSON and whether the caller got the probe.
const prelude = `
local k, z, chan = KEYS[1], KEYS[2], KEYS[3]
local name = ARGV[1]
local h = {}
local raw = redis.call('HGETALL', k)
for i = 1, #raw, 2 do h[raw[i]] = raw[i + 1] end
local st = tonumber(h.state or '0')
local gen = tonumber(h.gen or '0')
local opened = tonumber(h.opened_at or '0')
local probe_at = tonumber(h.probe_at or '0')
local fails = tonumber(h.failures or '0')
local reason = h.reason or ''
local at = tonumber(h.at or '0')

local function state()
  local function n(x) return string.format('%.0f', x) end
  return cjson.encode({name = name, state = st, gen = n(gen), opened_at = n(opened), probe_at = n(probe_at),
    failures = fails, reason = reason, at = n(at)})
end

local function set(to, now, why)
  st, gen, reason, at = to, gen + 1, why, now
  probe_at = 0
  if to == 1 then opened = now end
  if to == 0 then redis.call('DEL', z); fails = 0 end
  redis.call('HSET', k, 'state', st, 'gen', gen, 'opened_at', opened, 'probe_at', probe_at,
    'failures', fails, 'reason', reason, 'at', at)
  redis.call('PEXPIRE', k, 3600000)
  redis.call('PUBLISH', chan, state())
end

-- advance applies the changes time alone makes: open past the cooldown
-- turns half-open; a probe out longer than the probe timeout is lost.
local function advance(now, cooldown, probe_timeout)
  if st == 1 and now >= opened + cooldown then
    set(2, opened + cooldown, 'cooldown elapsed')
  end
  if st == 2 and probe_at > 0 and now >= probe_at + probe_timeout then
    set(1, probe_at + probe_timeout, 'probe lost: no result within ' .. string.format('%g', probe_timeout / 1000000) .. 's')
  end
end
`

// readScript returns the state.
var readScript = redis.NewScript(prelude + `
return {state(), 0}
`)

// acquireScript: ARGV[2..7] failures, window, cooldown, probe timeout,
// rule, now. A breaker that is not closed gives its one probe to the first
// caller after the cooldown.
var acquireScript = redis.NewScript(prelude + `
local cooldown, probe_timeout, now = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[7])
advance(now, cooldown, probe_timeout)
if st == 0 then return {state(), 1} end
if st == 2 and probe_at == 0 then
  probe_at = now
  redis.call('HSET', k, 'probe_at', probe_at)
  redis.call('PUBLISH', chan, state())
  return {state(), 1}
end
return {state(), 0}
`)

// recordScript: ARGV[2..10] failures, window, cooldown, probe timeout,
// rule, now, generation, probe (0/1), result (0 success, 1 failure, 2
// ignored). Results from another generation are dropped.
var recordScript = redis.NewScript(prelude + `
local threshold, window = tonumber(ARGV[2]), tonumber(ARGV[3])
local cooldown, probe_timeout, rule = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
local now, cgen, probe, result = tonumber(ARGV[7]), tonumber(ARGV[8]), ARGV[9] == '1', tonumber(ARGV[10])
if cgen ~= gen then
  advance(now, cooldown, probe_timeout)
  return {state(), 0}
end
if st == 0 then
  if result == 1 then
    local seq = redis.call('HINCRBY', k, 'seq', 1)
    redis.call('ZADD', z, now, string.format('%.0f:%d', now, seq))
    redis.call('ZREMRANGEBYSCORE', z, '-inf', '(' .. string.format('%.0f', now - window))
    redis.call('PEXPIRE', z, 3600000)
    fails = redis.call('ZCARD', z)
    if fails >= threshold then
      set(1, now, rule .. ': ' .. fails .. ' failures')
    end
  end
elseif st == 2 and probe then
  if result == 1 then
    set(1, now, 'probe failed')
  elseif result == 0 then
    set(0, now, 'probe succeeded')
  else
    probe_at = 0
    redis.call('HSET', k, 'probe_at', 0)
  end
end
return {state(), 0}
`)
