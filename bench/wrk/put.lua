-- insert-or-replace of new keys: each request a new RowKey, PartitionKeys spread over 1,000.
-- METHOD=POST: Insert Entity instead (the keys in the body), as the SDK's single inserts are sent.
-- PK_PREFIX and PARTITIONS: PartitionKeys <PK_PREFIX><nnnn> rotating over PARTITIONS (w and 1,000;
-- PK_PREFIX=insert- PARTITIONS=100 is the SDK driver's pattern on a table of 10,000 entities).
-- GAP_MS: milliseconds between an answer and the next request (0), as a client that works between them.
local sas = os.getenv("SAS"); local tbl = os.getenv("TABLE") or "bench"
local method = os.getenv("METHOD") or "PUT"
local prefix = os.getenv("PK_PREFIX") or "w"; local partitions = tonumber(os.getenv("PARTITIONS") or "1000")
local gap = tonumber(os.getenv("GAP_MS") or "0")
if gap > 0 then function delay() return gap end end
counter = 0; tid = 0
local threads = {}
function setup(thread) thread:set("tid", #threads + 1); table.insert(threads, thread) end
local props = '"Label":"' .. string.rep("x", 80) .. '","Quantity":7,"Sequence":"12345","Sequence@odata.type":"Edm.Int64","Score":1.5,"UpdatedAt":"2026-01-01T00:00:00.0000000Z","UpdatedAt@odata.type":"Edm.DateTime","Active":true}'
local hdrs = {["Content-Type"]="application/json", ["Accept"]="application/json;odata=nometadata", ["Prefer"]="return-no-content", ["x-ms-version"]="2019-02-02"}
local run = os.time() .. math.random(1000000)
function request()
  counter = counter + 1
  local pk = string.format("%s%04d", prefix, counter % partitions)
  local rk = string.format("n%s-%d-%d", run, tid, counter)
  if method == "POST" then
    local body = '{"PartitionKey":"' .. pk .. '","RowKey":"' .. rk .. '",' .. props
    return wrk.format("POST", "/devstoreaccount1/" .. tbl .. "?" .. sas, hdrs, body)
  end
  return wrk.format("PUT", "/devstoreaccount1/" .. tbl .. "(PartitionKey='" .. pk .. "',RowKey='" .. rk .. "')?" .. sas, hdrs, '{' .. props)
end
function response(status, headers, body) if status ~= 204 then print("unexpected " .. status .. " " .. (body or "")) end end
