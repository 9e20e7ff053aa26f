-- Merge Entity (PATCH with If-Match: *) of entities bench/wrk/load.py loaded into TABLE: ENTITIES of them
-- (PartitionKey p%06d, 100 per partition, RowKey r%07d), each request the next one, round after round.
local sas = os.getenv("SAS"); local tbl = os.getenv("TABLE") or "bench"
local entities = tonumber(os.getenv("ENTITIES") or "10000")
local hdrs = {["Content-Type"]="application/json", ["Accept"]="application/json;odata=nometadata", ["If-Match"]="*",
              ["x-ms-version"]="2019-02-02"}
counter = 0
function request()
  local i = counter % entities
  counter = counter + 1
  local key = string.format("(PartitionKey='p%06d',RowKey='r%07d')", math.floor(i / 100), i)
  return wrk.format("PATCH", "/devstoreaccount1/" .. tbl .. key .. "?" .. sas, hdrs,
                    '{"Quantity":' .. counter .. ',"Label":"merged-' .. counter .. '"}')
end
function response(status, headers, body) if status ~= 204 then print("unexpected " .. status .. " " .. (body or "")) end end
