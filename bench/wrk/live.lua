-- GET /_health/live (no authentication, no store): what the HTTP stack costs before any work
wrk.path = "/_health/live"
function response(status, headers, body) if status ~= 200 then print("unexpected " .. status) end end
