// Runs the scenarios of the JavaScript SDK's table samples (@azure/data-tables 13.3.2) against a server.
//
// Each scenario follows one of the samples the SDK documents (authentication methods, create and
// delete table, query tables, create and delete entities, query entities, update and upsert,
// transactions with and without the TableTransaction helper, continuation tokens, Int64 and BigInt
// values, table SAS and access policies, service properties and statistics), written for a
// path-style endpoint such as Tablestream's or the storage emulator's.
//
// Usage: TABLES_CONNECTION_STRING='DefaultEndpointsProtocol=http;AccountName=...;AccountKey=...;TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;'
//        node run_samples.mjs [scenario ...]
// Prints one line per scenario (PASS/FAIL) and a closing 'N passed, N failed' line; exits 1 when any failed.
import {
  AzureNamedKeyCredential, AzureSASCredential, TableClient, TableServiceClient, TableTransaction,
  generateAccountSas, generateTableSas, odata,
} from "@azure/data-tables";
import { randomUUID } from "node:crypto";

const connectionString = process.env.TABLES_CONNECTION_STRING;

function settings() {
  const parts = Object.fromEntries(connectionString.split(";").filter((p) => p).map((p) => {
    const i = p.indexOf("=");
    return [p.slice(0, i), p.slice(i + 1)];
  }));
  return { account: parts.AccountName, key: parts.AccountKey, endpoint: parts.TableEndpoint.replace(/\/$/, "") };
}

const newName = (prefix) => prefix + randomUUID().replace(/-/g, "").slice(0, 10);

function check(condition, message) {
  if (!condition) {
    throw new Error(`check failed: ${message}`);
  }
}

async function expectStatus(status, action, message) {
  try {
    await action();
  } catch (e) {
    check(e.statusCode === status, `${message}: expected ${status}, got ${e.statusCode} ${e.message}`);
    return;
  }
  throw new Error(`${message}: expected ${status}, but it succeeded`);
}

const service = () => TableServiceClient.fromConnectionString(connectionString, { allowInsecureConnection: true });
const table = (name) => TableClient.fromConnectionString(connectionString, name, { allowInsecureConnection: true });

async function collect(iterable) {
  const out = [];
  for await (const x of iterable) {
    out.push(x);
  }
  return out;
}

// --- authenticationMethods: connection string, named key, account SAS --------------------------------
async function authentication() {
  const { account, key, endpoint } = settings();
  check(await service().getProperties(), "properties by connection string");
  const named = new TableServiceClient(endpoint, new AzureNamedKeyCredential(account, key), { allowInsecureConnection: true });
  check(await named.getProperties(), "properties by named key");
  const sas = generateAccountSas(new AzureNamedKeyCredential(account, key), {
    permissions: { query: true, list: true, read: true }, resourceTypes: "sco",
    expiresOn: new Date(Date.now() + 3600_000),
  });
  const bySas = new TableServiceClient(endpoint, new AzureSASCredential(sas), { allowInsecureConnection: true });
  check(await bySas.getProperties(), "properties by account SAS");
  await collect(bySas.listTables());
}

// --- createAndDeleteTable -------------------------------------------------------------------------------
async function createAndDeleteTable() {
  const svc = service();
  const name = newName("SampleTable");
  await svc.createTable(name);
  await svc.createTable(name); // the SDK treats TableAlreadyExists as success
  const client = table(newName("FromClient"));
  await client.createTable();
  await client.deleteTable();
  await svc.deleteTable(name);
  await svc.deleteTable(name); // and a missing table on delete
}

// --- queryTables ------------------------------------------------------------------------------------------
async function queryTables() {
  const svc = service();
  const prefix = newName("Q");
  const names = ["a", "b", "c"].map((s) => prefix + s);
  for (const n of names) {
    await svc.createTable(n);
  }
  try {
    const listed = (await collect(svc.listTables())).map((t) => t.name);
    check(names.every((n) => listed.includes(n)), "listTables lists the new tables");
    const found = (await collect(svc.listTables({ queryOptions: { filter: odata`TableName eq ${names[1]}` } })))
      .map((t) => t.name);
    check(found.length === 1 && found[0] === names[1], `query tables by name: ${found}`);
    const firstPage = await svc.listTables().byPage({ maxPageSize: 2 }).next();
    check(firstPage.value.length <= 2, "a page of at most maxPageSize tables");
  } finally {
    for (const n of names) {
      await svc.deleteTable(n);
    }
  }
}

// --- createAndDeleteEntities ------------------------------------------------------------------------------
async function createAndDeleteEntities() {
  const client = table(newName("Entities"));
  await client.createTable();
  try {
    const entity = {
      partitionKey: "Stationery", rowKey: "A1", name: "Marker Set", price: 5.0, quantity: 21,
      onSale: true, added: new Date("2021-06-01T12:30:00Z"), code: new Uint8Array([1, 2, 3]),
      id: { value: randomUUID(), type: "Guid" },
    };
    await client.createEntity(entity);
    await expectStatus(409, () => client.createEntity(entity), "a second insert");
    const got = await client.getEntity("Stationery", "A1");
    check(got.name === "Marker Set" && got.price === 5 && got.quantity === 21 && got.onSale === true, "values");
    check(got.added.toISOString() === "2021-06-01T12:30:00.000Z", "DateTime read back");
    check(Buffer.from(got.code).equals(Buffer.from([1, 2, 3])), "binary read back");
    check(got.etag && got.timestamp, "etag and timestamp");
    await client.deleteEntity("Stationery", "A1");
    await expectStatus(404, () => client.getEntity("Stationery", "A1"), "the deleted entity");
  } finally {
    await client.deleteTable();
  }
}

// --- queryEntities ----------------------------------------------------------------------------------------
async function queryEntities() {
  const client = table(newName("Query"));
  await client.createTable();
  try {
    const actions = [];
    for (let i = 0; i < 20; i++) {
      actions.push(["create", { partitionKey: "p", rowKey: `r${String(i).padStart(2, "0")}`, price: i, color: i % 2 ? "Red" : "Blue" }]);
    }
    await client.submitTransaction(actions);
    const red = await collect(client.listEntities({ queryOptions: { filter: odata`color eq ${"Red"} and price gt ${9}` } }));
    check(red.length === 5, `filtered with odata: ${red.length}`);
    const selected = await collect(client.listEntities({ queryOptions: { select: ["price"] } }));
    check(selected.length === 20 && selected[0].color === undefined && selected[0].price !== undefined, "select");
  } finally {
    await client.deleteTable();
  }
}

// --- updateAndUpsertEntities -----------------------------------------------------------------------------
async function updateAndUpsertEntities() {
  const client = table(newName("Upsert"));
  await client.createTable();
  try {
    await client.createEntity({ partitionKey: "p", rowKey: "r", a: 1, b: "x" });
    await client.updateEntity({ partitionKey: "p", rowKey: "r", c: true }, "Merge");
    let got = await client.getEntity("p", "r");
    check(got.a === 1 && got.c === true, "merge keeps other properties");
    await client.updateEntity({ partitionKey: "p", rowKey: "r", d: 2.5 }, "Replace");
    got = await client.getEntity("p", "r");
    check(got.a === undefined && got.d === 2.5, "replace drops other properties");
    await client.upsertEntity({ partitionKey: "p", rowKey: "new", e: "y" }, "Merge");
    await client.upsertEntity({ partitionKey: "p", rowKey: "new", f: "z" }, "Replace");
    check((await client.getEntity("p", "new")).e === undefined, "upsert replace");
    await client.updateEntity({ partitionKey: "p", rowKey: "r", g: 1 }, "Merge", { etag: got.etag });
    await expectStatus(412, () => client.updateEntity({ partitionKey: "p", rowKey: "r", g: 2 }, "Merge", { etag: got.etag }),
      "a stale etag");
  } finally {
    await client.deleteTable();
  }
}

// --- transactionOperations and transactionWithHelper ------------------------------------------------------
async function transactions() {
  const client = table(newName("Batch"));
  await client.createTable();
  try {
    await client.createEntity({ partitionKey: "p", rowKey: "update", n: 0 });
    await client.createEntity({ partitionKey: "p", rowKey: "delete" });
    const result = await client.submitTransaction([
      ["create", { partitionKey: "p", rowKey: "created", n: 1 }],
      ["update", { partitionKey: "p", rowKey: "update", n: 2 }, "Merge"],
      ["upsert", { partitionKey: "p", rowKey: "upserted", n: 3 }, "Replace"],
      ["delete", { partitionKey: "p", rowKey: "delete" }],
    ]);
    check(result.status === 202 && result.subResponses.length === 4, "one sub-response per action");
    const helper = new TableTransaction();
    helper.createEntity({ partitionKey: "p", rowKey: "A1", name: "Marker Set", price: 5.0, quantity: 21 });
    helper.createEntity({ partitionKey: "p", rowKey: "A2", name: "Pen Set", price: 2.0, quantity: 6 });
    const helped = await client.submitTransaction(helper.actions);
    check(helped.subResponses.every((r) => r.status === 204 && r.etag), "helper sub-responses");
    const rows = (await collect(client.listEntities())).map((e) => e.rowKey).sort();
    check(JSON.stringify(rows) === JSON.stringify(["A1", "A2", "created", "update", "upserted"]), `rows: ${rows}`);
    await expectStatus(409, () => client.submitTransaction([["create", { partitionKey: "p", rowKey: "A1" }]]),
      "a transaction whose insert conflicts");
  } finally {
    await client.deleteTable();
  }
}

// --- usingContinuationToken --------------------------------------------------------------------------------
async function continuationTokens() {
  const client = table(newName("Pages"));
  await client.createTable();
  try {
    const actions = [];
    for (let i = 0; i < 100; i++) {
      actions.push(["create", { partitionKey: "one", rowKey: `${i}`, foo: i }]);
    }
    await client.submitTransaction(actions);
    let interesting;
    let pages = 0;
    for await (const page of client.listEntities().byPage({ maxPageSize: 2 })) {
      pages++;
      if (page.some((p) => p.rowKey === "50")) {
        interesting = page.continuationToken;
      }
    }
    check(pages === 50, `pages of 2: ${pages}`);
    check(interesting, "the page holding row 50 has a continuation token");
    const resumed = await client.listEntities().byPage({ maxPageSize: 2, continuationToken: interesting }).next();
    check(!resumed.done && resumed.value.length === 2, "a page resumed from its token");
  } finally {
    await client.deleteTable();
  }
}

// --- workingWithInt64 and workingWithBigInt ----------------------------------------------------------------
async function int64Values() {
  const client = table(newName("Int64"));
  await client.createTable();
  try {
    await client.createEntity({ partitionKey: "p", rowKey: "r", big: { value: "12345678901234567", type: "Int64" } });
    const got = await client.getEntity("p", "r");
    check(got.big === BigInt("12345678901234567"), `Int64 read back as a BigInt: ${String(got.big)}`);
    const raw = await client.getEntity("p", "r", { disableTypeConversion: true });
    check(raw.big.type === "Int64" && raw.big.value === "12345678901234567", "Int64 without type conversion");
    await client.createEntity({ partitionKey: "p", rowKey: "bigint", big: BigInt("9007199254740993") });
    const bigint = await client.getEntity("p", "bigint");
    check(bigint.big === BigInt("9007199254740993"), `BigInt read back: ${String(bigint.big)}`);
    // the odata helper writes a bigint without the L an Int64 literal needs, so the filter is written out
    const filtered = await collect(client.listEntities({ queryOptions: { filter: "big gt 9007199254740992L" } }));
    check(filtered.length === 2, `filter on Int64: ${filtered.length}`);
  } finally {
    await client.deleteTable();
  }
}

// --- generateTableSAS and access policies ------------------------------------------------------------------
async function tableSasAndAccessPolicies() {
  const { account, key, endpoint } = settings();
  const name = newName("Sas");
  const client = table(name);
  await client.createTable();
  try {
    await client.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
    const start = new Date(Date.now() - 5 * 60_000);
    await client.setAccessPolicy([{ id: "readers", accessPolicy: { start, expiry: new Date(start.getTime() + 3600_000), permission: "r" } }]);
    const policies = await client.getAccessPolicy();
    check(policies.length === 1 && policies[0].accessPolicy.permission === "r", `policy: ${JSON.stringify(policies)}`);
    const credential = new AzureNamedKeyCredential(account, key);
    const byPolicy = generateTableSas(name, credential, { identifier: "readers" });
    const reader = new TableClient(endpoint, name, new AzureSASCredential(byPolicy), { allowInsecureConnection: true });
    check((await reader.getEntity("p", "r")).v === 1, "read with a stored-policy SAS");
    const addOnly = generateTableSas(name, credential, { permissions: { add: true }, expiresOn: new Date(Date.now() + 3600_000) });
    const writer = new TableClient(endpoint, name, new AzureSASCredential(addOnly), { allowInsecureConnection: true });
    await writer.createEntity({ partitionKey: "p", rowKey: "added" });
    await expectStatus(403, () => writer.getEntity("p", "r"), "an add-only SAS reading");
    await client.setAccessPolicy([]);
    check((await client.getAccessPolicy()).length === 0, "policies cleared");
  } finally {
    await client.deleteTable();
  }
}

// --- service properties and statistics -------------------------------------------------------------------
async function serviceProperties() {
  const svc = service();
  const before = await svc.getProperties();
  try {
    await svc.setProperties({
      logging: { version: "1.0", read: true, write: true, delete: true, retentionPolicy: { enabled: true, days: 5 } },
      cors: [{ allowedOrigins: "https://www.example.com", allowedMethods: "GET,PUT", allowedHeaders: "*",
        exposedHeaders: "*", maxAgeInSeconds: 60 }],
    });
    const after = await svc.getProperties();
    check(after.logging.read && after.logging.retentionPolicy.days === 5, "logging");
    check(after.cors.length === 1 && after.cors[0].allowedOrigins === "https://www.example.com", "cors");
  } finally {
    await svc.setProperties({ logging: before.logging, hourMetrics: before.hourMetrics,
      minuteMetrics: before.minuteMetrics, cors: before.cors || [] });
  }
}

async function serviceStatistics() {
  // The SDK sends getStatistics to the secondary location by adding "-secondary" to the first label
  // of the host name (as for account.table.core.windows.net). With path-style addressing, point a
  // client at the secondary location itself, with a host name of one label (localhost): the
  // statistics are served there; the primary refuses them with 400, as the service does.
  const { account, key, endpoint } = settings();
  const secondaryEndpoint = endpoint.replace("127.0.0.1", "localhost") + "-secondary";
  const secondary = new TableServiceClient(secondaryEndpoint, new AzureNamedKeyCredential(account, key),
    { allowInsecureConnection: true });
  const stats = await secondary.getStatistics();
  check(stats.geoReplication.status === "live" && stats.geoReplication.lastSyncTime instanceof Date, `stats: ${JSON.stringify(stats)}`);
  const primary = new TableServiceClient(endpoint.replace("127.0.0.1", "localhost"), new AzureNamedKeyCredential(account, key),
    { allowInsecureConnection: true });
  await expectStatus(400, () => primary.getStatistics(), "statistics on the primary");
}

const scenarios = {
  authentication, createAndDeleteTable, queryTables, createAndDeleteEntities, queryEntities, updateAndUpsertEntities,
  transactions, continuationTokens, int64Values, tableSasAndAccessPolicies, serviceProperties, serviceStatistics,
};

async function main() {
  if (!connectionString) {
    console.error("Set TABLES_CONNECTION_STRING to the server's connection string.");
    return 2;
  }
  const chosen = process.argv.slice(2);
  let passed = 0;
  let failed = 0;
  for (const [name, scenario] of Object.entries(scenarios)) {
    if (chosen.length && !chosen.includes(name)) {
      continue;
    }
    try {
      await scenario();
      passed++;
      console.log(`PASS js ${name}`);
    } catch (e) {
      failed++;
      console.log(`FAIL js ${name}`);
      console.log(e && e.stack ? e.stack : e);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
