-- Insert Entity of new keys (POST, the keys in the body), as the SDK's single inserts are sent, with an
-- account SAS: each request a new RowKey; PartitionKeys <PK_PREFIX><nnnn> rotating over PARTITIONS
-- (defaults w and 1,000, put.lua's; PK_PREFIX=insert- PARTITIONS=100 is the SDK driver's pattern on a
-- table of 10,000 entities). GAP_MS: milliseconds between an answer and the next request (default 0),
-- as a client that works between its requests leaves them.
local sas = os.getenv("SAS"); local tbl = os.getenv("TABLE") or "bench"
local prefix = os.getenv("PK_PREFIX") or "w"; local partitions = tonumber(os.getenv("PARTITIONS") or "1000")
local gap = tonumber(os.getenv("GAP_MS") or "0")
counter = 0; tid = 0
if gap > 0 then function delay() return gap end end
local threads = {}
function setup(thread) thread:set("tid", #threads + 1); table.insert(threads, thread) end
local props = '"Label":"' .. string.rep("x", 80) .. '","Quantity":7,"Sequence":"12345","Sequence@odata.type":"Edm.Int64","Score":1.5,"UpdatedAt":"2026-01-01T00:00:00.0000000Z","UpdatedAt@odata.type":"Edm.DateTime","Active":true}'
local hdrs = {["Content-Type"]="application/json", ["Accept"]="application/json;odata=nometadata", ["Prefer"]="return-no-content", ["x-ms-version"]="2019-02-02"}
local run = os.time() .. math.random(1000000)
function request()
  local pk = string.format("%s%04d", prefix, counter % partitions)
  local rk = string.format("n%s-%d-%d", run, tid, counter)
  counter = counter + 1
  local body = '{"PartitionKey":"' .. pk .. '","RowKey":"' .. rk .. '",' .. props
  return wrk.format("POST", "/devstoreaccount1/" .. tbl .. "?" .. sas, hdrs, body)
end
function response(status, headers, body) if status ~= 204 then print("unexpected " .. status .. " " .. (body or "")) end end
