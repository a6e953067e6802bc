-- The Lua target's runtime (test only): argument checks and the helpers the
-- plain core calls (rulesc.core.plain.HELPERS), as the Python runtime answers.
local MESSAGES = ...  -- the runtimes' one table (rulesc.runtime._messages)
local R = {}

local function say(key, values)
  return (MESSAGES[key]:gsub("{([%w_]+)}", function(part) return tostring(values[part]) end))
end

local function refuse(message) error("RuleInputError: " .. message, 0) end
R.refuse = refuse

local function shown(v)  -- a value as a refusal shows it, in Lua's words
  if v == nil then return "nil" end
  if type(v) == "string" then return "'" .. v .. "'" end
  return tostring(v)
end

-- The core's argument checks (rulesc.core.checks), each of one signature:
-- each answers the argument (a label: its set's own spelling) or refuses it.
function R.whole(name, v, lo, hi)
  if math.type(v) ~= "integer" then refuse(say("not_int", {name = name, value = shown(v)})) end
  if (lo ~= nil and v < lo) or (hi ~= nil and v > hi) then
    refuse(say("outside", {name = name, low = lo or "", high = hi or "", value = v}))
  end
  return v
end

function R.one_of(name, v, _, _, values)
  for _, x in ipairs(values) do if x == v then return v end end
  refuse(say("not_one_of", {name = name, values = table.concat(values, ", "), value = v}))
end

function R.label(name, v, _, _, _, labels, nullable)
  if v == nil and nullable then return nil end
  for _, label in ipairs(labels) do  -- in any case, as the runtimes fold it
    if type(v) == "string" and label:lower() == v:lower() then return label end
  end
  local quoted = {}
  for i, label in ipairs(labels) do quoted[i] = shown(label) end
  refuse(say("not_label", {name = name, labels = table.concat(quoted, ", "), value = shown(v)}))
end

function R.flag(name, v)
  if type(v) ~= "boolean" then
    refuse(say("not_flag", {name = name, ["true"] = "true", ["false"] = "false", value = shown(v)}))
  end
  return v
end

function R.floor_div(a, b) return a // b end
function R.ceil_div(a, b) return -((-a) // b) end
function R.round_div(a, b) return (2 * a + b) // (2 * b) end
R.abs, R.max, R.min = math.abs, math.max, math.min
function R.clamp(v, lo, hi) return math.min(math.max(v, lo), hi) end
function R.highest(t) return math.max(table.unpack(t)) end
function R.lowest(t) return math.min(table.unpack(t)) end
function R.len(t) return #t end
function R.sum(t) local s = 0 for _, v in ipairs(t) do s = s + v end return s end
function R.any(t) for _, v in ipairs(t) do if v then return true end end return false end
function R.all(t) for _, v in ipairs(t) do if not v then return false end end return true end
function R.text(v) return tostring(v) end
R["in"] = function(v, t) for _, x in ipairs(t) do if x == v then return true end end return false end

function R.count(t, v)
  local n = 0 for _, x in ipairs(t) do if x == v then n = n + 1 end end return n
end

function R.count_within(t, lo, hi)
  local n = 0 for _, x in ipairs(t) do if lo <= x and x <= hi then n = n + 1 end end return n
end

function R.at(t, i) if i < 0 then return t[#t + 1 + i] end return t[i + 1] end

function R.item(t, i)
  if i < -#t or i >= #t then refuse("no item " .. i .. " of a list of " .. #t) end
  return R.at(t, i)
end

function R.join(...)
  local out = {}
  for _, part in ipairs({...}) do for _, v in ipairs(part) do out[#out + 1] = v end end
  return out
end

function R.each(t, body, test)
  local out = {}
  for _, v in ipairs(t) do if test == nil or test(v) then out[#out + 1] = body(v) end end
  return out
end

function R.rank(labels, v) for i, label in ipairs(labels) do if label == v then return i end end end

return R
