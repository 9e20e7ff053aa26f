-- insert-or-replace of new keys: each request a new RowKey, PartitionKeys spread over 1,000
local sas = os.getenv("SAS"); local tbl = os.getenv("TABLE") or "bench"
counter = 0; tid = 0
local threads = {}
function setup(thread) thread:set("tid", #threads + 1); table.insert(threads, thread) end
local body = '{"Label":"' .. string.rep("x", 80) .. '","Quantity":7,"Sequence":"12345","Sequence@odata.type":"Edm.Int64","Score":1.5,"UpdatedAt":"2026-01-01T00:00:00.0000000Z","UpdatedAt@odata.type":"Edm.DateTime","Active":true}'
local hdrs = {["Content-Type"]="application/json", ["Accept"]="application/json;odata=nometadata", ["Prefer"]="return-no-content", ["x-ms-version"]="2019-02-02"}
local run = os.time() .. math.random(1000000)
function request()
  counter = counter + 1
  local pk = string.format("w%04d", counter % 1000)
  local rk = string.format("n%s-%d-%d", run, tid, counter)
  return wrk.format("PUT", "/devstoreaccount1/" .. tbl .. "(PartitionKey='" .. pk .. "',RowKey='" .. rk .. "')?" .. sas, hdrs, body)
end
function response(status, headers, body) if status ~= 204 then print("unexpected " .. status .. " " .. (body or "")) end end
