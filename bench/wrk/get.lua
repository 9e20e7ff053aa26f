-- point GET of a random loaded entity (N entities, 100 per PartitionKey)
local sas = os.getenv("SAS"); local tbl = os.getenv("TABLE") or "bench"; local n = tonumber(os.getenv("ENTITIES") or "100000")
local hdrs = {["Accept"]="application/json;odata=nometadata", ["x-ms-version"]="2019-02-02"}
function request()
  local i = math.random(0, n - 1)
  return wrk.format("GET", string.format("/devstoreaccount1/%s(PartitionKey='p%06d',RowKey='r%07d')?%s", tbl, math.floor(i / 100), i, sas), hdrs)
end
function response(status, headers, body) if status ~= 200 then print("unexpected " .. status) end end
