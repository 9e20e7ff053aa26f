-- Merge Entity (PATCH with If-Match: *) of entities bench/wrk/load.py loaded into TABLE: ENTITIES of them
-- (PartitionKey p%06d, 100 per partition, RowKey r%07d). Each request goes to the next PartitionKey, as
-- lone-sdkkeys' inserts do (a PartitionKey at a time would put a run of writes on one partition).
local sas = os.getenv("SAS"); local tbl = os.getenv("TABLE") or "bench"
local entities = tonumber(os.getenv("ENTITIES") or "10000")
local partitions = math.floor(entities / 100)
local hdrs = {["Content-Type"]="application/json", ["Accept"]="application/json;odata=nometadata", ["If-Match"]="*",
              ["x-ms-version"]="2019-02-02"}
counter = 0
function request()
  local pk = counter % partitions
  local i = pk * 100 + math.floor(counter / partitions) % 100
  counter = counter + 1
  local key = string.format("(PartitionKey='p%06d',RowKey='r%07d')", pk, i)
  return wrk.format("PATCH", "/devstoreaccount1/" .. tbl .. key .. "?" .. sas, hdrs,
                    '{"Quantity":' .. counter .. ',"Label":"merged-' .. counter .. '"}')
end
function response(status, headers, body) if status ~= 204 then print("unexpected " .. status .. " " .. (body or "")) end end
