// The Table service as the console speaks it: requests signed with the account key (SharedKeyLite,
// HMAC-SHA256 computed here, so it works on any origin, https or not) or carrying a SAS, and the
// answers read into typed entities. No secret leaves the browser: the key signs, it is never sent.

/** SHA-256 of bytes (FIPS 180-4), as bytes. */
function sha256(bytes) {
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
    0x1f83d9ab, 0x5be0cd19]);
  const length = bytes.length;
  const padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[length] = 0x80;
  const bits = length * 8;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(padded.length - 4, bits >>> 0);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i] + w[i]) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]);
  return out;
}

/** HMAC-SHA256 (RFC 2104). */
export function hmacSha256(key, message) {
  let k = key.length > 64 ? sha256(key) : key;
  const block = new Uint8Array(64);
  block.set(k);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i] ^ 0x36;
    outer[i] = block[i] ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

export function base64ToBytes(text) {
  const binary = atob(text.replace(/\s/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function bytesToBase64(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

const utf8 = new TextEncoder();

/** A key in an entity's address: quotes doubled, then percent-encoded (quotes stay as they are). */
export function keyLiteral(key) {
  return encodeURIComponent(key.replace(/'/g, "''"));
}

/** A failed answer of the service: status, error code and message. */
export class ServiceError extends Error {
  constructor(status, code, message) {
    super(`${status}${code ? ' ' + code : ''}${message ? ': ' + message : ''}`);
    this.status = status;
    this.code = code;
  }
}

const MINIMAL = 'application/json;odata=minimalmetadata';
const NOMETADATA = 'application/json;odata=nometadata';

/**
 * An account, signed in with its key or a SAS. Requests go to this page's own server: the Table
 * service at /<account>/..., the cluster view at /_cluster, the metrics at /_metrics.
 */
export class Account {
  /** @param credential {kind: 'key', account, key} or {kind: 'sas', account, sas} */
  constructor(credential) {
    this.name = credential.account;
    this.kind = credential.kind;
    this.key = credential.kind === 'key' ? base64ToBytes(credential.key) : null;
    this.sas = credential.kind === 'sas' ? credential.sas.replace(/^\?/, '') : null;
  }

  /**
   * Sends a request. {@code path} is the raw (percent-encoded) path after the host; {@code query}
   * an object of parameters. Answers {status, headers, text}; throws ServiceError on 4xx/5xx.
   */
  async send(method, path, { query = {}, headers = {}, body = undefined, allowed = [], signal = null } = {}) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.append(k, v);
    let search = params.toString().replace(/\+/g, '%20');
    if (this.sas) search = search ? search + '&' + this.sas : this.sas;
    const date = new Date().toUTCString();
    const all = { 'x-ms-date': date, 'x-ms-version': '2019-02-02', 'Accept': MINIMAL,
      'DataServiceVersion': '3.0', 'MaxDataServiceVersion': '3.0;NetFx', ...headers };
    if (this.key) {
      const comp = query.comp ? '?comp=' + query.comp : '';
      const signature = hmacSha256(this.key, utf8.encode(`${date}\n/${this.name}${path}${comp}`));
      all['Authorization'] = `SharedKeyLite ${this.name}:${bytesToBase64(signature)}`;
    }
    let response;
    try {
      response = await fetch(path + (search ? '?' + search : ''), { method, headers: all, body,
        cache: 'no-store', credentials: 'omit', signal });
    } catch (error) {
      if (error.name === 'AbortError') throw error;
      throw new ServiceError(0, null, `The server at ${location.host} did not answer (${error.message}): is it running?`);
    }
    const text = await response.text();
    if (response.status >= 400 && !allowed.includes(response.status)) {
      let code = response.headers.get('x-ms-error-code');
      let message = text;
      try {
        const error = JSON.parse(text)['odata.error'];
        code = error.code || code;
        message = error.message && error.message.value || message;
      } catch (e) { /* not JSON */ }
      throw new ServiceError(response.status, code, message);
    }
    return { status: response.status, headers: response.headers, text };
  }

  tablePath(suffix) {
    return `/${encodeURIComponent(this.name)}${suffix}`;
  }

  /**
   * Query Tables: a page of tables (optionally those whose name starts with prefix), each {name,
   * ttl, retention} (the table's default TTLInSeconds and HistoryRetentionInSeconds, or null), and
   * where the next page starts.
   */
  async listTables({ top = 200, next = null, prefix = '' } = {}) {
    const query = { '$top': top, NextTableName: next };
    if (prefix) {
      const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
      query['$filter'] = `TableName ge '${prefix.replace(/'/g, "''")}' and TableName lt '${upper.replace(/'/g, "''")}'`;
    }
    const r = await this.send('GET', this.tablePath('/Tables'), { query, headers: { Accept: NOMETADATA } });
    return { tables: JSON.parse(r.text).value.map(readTable),
      next: r.headers.get('x-ms-continuation-NextTableName') };
  }

  /** Get Table: {name, ttl, retention}. */
  async getTable(name) {
    const r = await this.send('GET', this.tablePath(`/Tables('${keyLiteral(name)}')`), { headers: { Accept: NOMETADATA } });
    return readTable(JSON.parse(r.text));
  }

  /** Create Table, with a default TTL and a history retention in seconds when given. */
  async createTable(name, { ttl = null, retention = null } = {}) {
    const body = { TableName: name };
    if (ttl) body.TTLInSeconds = Number(ttl);
    if (retention) body.HistoryRetentionInSeconds = Number(retention);
    await this.send('POST', this.tablePath('/Tables'), { headers: { 'Content-Type': 'application/json',
      'Prefer': 'return-no-content' }, body: JSON.stringify(body) });
  }

  async deleteTable(name) {
    await this.send('DELETE', this.tablePath(`/Tables('${keyLiteral(name)}')`));
  }

  entitiesPath(table) {
    return this.tablePath(`/${encodeURIComponent(table)}()`);
  }

  /**
   * Query Entities: a page of typed entities and the continuation {pk, rk} (null: last page).
   * {@code asOf}: the table as it was then (a table with history).
   */
  async queryEntities(table, { filter = '', select = '', top = 50, next = null, asOf = '' } = {}) {
    const query = { '$filter': filter, '$select': select, '$top': top, asOf };
    if (next) {
      query.NextPartitionKey = next.pk;
      if (next.rk) query.NextRowKey = next.rk;
    }
    const r = await this.send('GET', this.entitiesPath(table), { query });
    const pk = r.headers.get('x-ms-continuation-NextPartitionKey');
    const raw = JSON.parse(r.text).value;
    return { entities: raw.map(readEntity), raw,
      next: pk ? { pk, rk: r.headers.get('x-ms-continuation-NextRowKey') } : null };
  }

  /**
   * The number of entities matching {@code filter} ({@code $count}), adding up the answers of its
   * continuations; {@code progress(countSoFar)} after each; stops early (partial: true) when
   * {@code signal} is aborted.
   */
  async count(table, { filter = '', asOf = '', progress = () => {}, signal = null } = {}) {
    let total = 0;
    let next = null;
    do {
      const query = { '$filter': filter, asOf };
      if (next) Object.assign(query, next);
      const r = await this.send('GET', this.tablePath(`/${encodeURIComponent(table)}()/$count`), { query });
      total += Number(r.text.trim());
      const pk = r.headers.get('x-ms-continuation-NextPartitionKey');
      next = pk ? { NextPartitionKey: pk, NextRowKey: r.headers.get('x-ms-continuation-NextRowKey') } : null;
      progress(total);
      if (signal && signal.aborted) return { count: total, partial: next !== null };
    } while (next);
    return { count: total, partial: false };
  }

  entityPath(table, pk, rk) {
    return this.tablePath(`/${encodeURIComponent(table)}(PartitionKey='${keyLiteral(pk)}',RowKey='${keyLiteral(rk)}')`);
  }

  /** An entity's versions, newest first ({@code $history}), and the NextVersion of the next page (null: none). */
  async history(table, pk, rk, { top = 50, next = null } = {}) {
    const r = await this.send('GET', this.entityPath(table, pk, rk) + '/$history', { query: { '$top': top,
      NextVersion: next } });
    return { versions: JSON.parse(r.text).value.map(readEvent),
      next: r.headers.get('x-ms-continuation-NextVersion') };
  }

  /**
   * A page of the table's change feed ({@code $changes}): from a cursor, or from 'now', 'beginning'
   * or a time; waiting up to {@code wait} seconds for a first change. {events, cursor}.
   */
  async changes(table, { cursor = null, from = null, wait = 0, top = 100, signal = null } = {}) {
    const query = { cursor, from: cursor ? null : from, wait, '$top': top };
    const r = await this.send('GET', this.tablePath(`/${encodeURIComponent(table)}()/$changes`), { query, signal });
    const page = JSON.parse(r.text);
    return { events: page.value.map(readEvent), cursor: page.Cursor };
  }

  /** Every entity of one PartitionKey deleted by one command ({@code $partition}). */
  async deletePartition(table, pk) {
    await this.send('DELETE', this.tablePath(`/${encodeURIComponent(table)}(PartitionKey='${keyLiteral(pk)}')/$partition`));
  }

  /** The table's secondary indexes and how far each is built on this instance's partitions. */
  async indexes(table) {
    const r = await this.send('GET', this.tablePath(`/${encodeURIComponent(table)}`), { query: { comp: 'indexes' },
      headers: { Accept: NOMETADATA } });
    return JSON.parse(r.text);
  }

  async createIndex(table, name, property) {
    await this.send('POST', this.tablePath(`/${encodeURIComponent(table)}`), { query: { comp: 'indexes' },
      headers: { 'Content-Type': 'application/json', Accept: NOMETADATA },
      body: JSON.stringify({ Name: name, Property: property }) });
  }

  async dropIndex(table, name) {
    await this.send('DELETE', this.tablePath(`/${encodeURIComponent(table)}`), { query: { comp: 'indexes', name } });
  }

  /**
   * One entity group transaction ({@code $batch} of one change set): {@code operations} of one
   * PartitionKey, each {method, pk, rk, etag, entity or body} (entity: the typed entity to write,
   * body: its JSON; neither for a delete). Throws ServiceError naming the operation that failed.
   */
  async batch(table, operations) {
    const batch = `batch_${crypto.randomUUID()}`;
    const changeset = `changeset_${crypto.randomUUID()}`;
    const origin = location.origin;
    let body = `--${batch}\r\nContent-Type: multipart/mixed; boundary=${changeset}\r\n\r\n`;
    for (const op of operations) {
      body += `--${changeset}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n`
        + `${op.method} ${origin}${this.entityPath(table, op.pk, op.rk)} HTTP/1.1\r\n`
        + `Accept: application/json;odata=nometadata\r\nDataServiceVersion: 3.0\r\n`
        + (op.etag ? `If-Match: ${op.etag}\r\n` : '')
        + (op.entity || op.body ? `Content-Type: application/json\r\n\r\n${op.body ?? writeEntity(op.entity)}\r\n`
          : '\r\n');
    }
    body += `--${changeset}--\r\n--${batch}--\r\n`;
    const r = await this.send('POST', this.tablePath('/$batch'), { body,
      headers: { 'Content-Type': `multipart/mixed; boundary=${batch}`, Accept: NOMETADATA } });
    const statuses = [...r.text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map(m => Number(m[1]));
    const failed = statuses.findIndex(s => s >= 300);
    if (failed >= 0 || statuses.length !== operations.length) {
      const json = r.text.slice(r.text.indexOf('{'), r.text.lastIndexOf('}') + 1);
      let code = null;
      let message = `the batch answered ${statuses.length} operations of ${operations.length}`;
      try {
        const error = JSON.parse(json)['odata.error'];
        code = error.code;
        message = error.message.value;
      } catch (e) { /* no error body */ }
      throw new ServiceError(failed >= 0 ? statuses[failed] : 500, code, message);
    }
  }

  /** Get Entity; {@code asOf}: as it was then (a table with history). */
  async getEntity(table, pk, rk, { asOf = '' } = {}) {
    const r = await this.send('GET', this.entityPath(table, pk, rk), { query: { asOf } });
    const entity = readEntity(JSON.parse(r.text));
    entity.etag = r.headers.get('ETag') || entity.etag;
    return entity;
  }

  /** Insert Entity; 409 if it exists. */
  async insertEntity(table, entity) {
    await this.send('POST', this.tablePath(`/${encodeURIComponent(table)}`), { headers: {
      'Content-Type': 'application/json', 'Prefer': 'return-no-content' }, body: writeEntity(entity) });
  }

  /** Update Entity (replace) if it is still at {@code etag}: 412 if it changed meanwhile. */
  async replaceEntity(table, entity, etag) {
    await this.send('PUT', this.entityPath(table, entity.PartitionKey, entity.RowKey), { headers: {
      'Content-Type': 'application/json', 'If-Match': etag || '*' }, body: writeEntity(entity) });
  }

  async deleteEntity(table, pk, rk, etag) {
    await this.send('DELETE', this.entityPath(table, pk, rk), { headers: { 'If-Match': etag || '*' } });
  }

  /**
   * Deletes every entity of {@code table} that matches {@code filter} as of now, as a job
   * ({@code DELETE <table>()?$filter=}): answers the job's status (202), to follow with {@link job}.
   */
  async deleteByFilter(table, filter) {
    const r = await this.send('DELETE', this.entitiesPath(table), { query: { '$filter': filter },
      headers: { Accept: NOMETADATA } });
    return JSON.parse(r.text);
  }

  /**
   * Restores {@code table} into the new table {@code target} as it was at {@code asOf} (empty: a
   * copy as of now), as a job ({@code POST <table>()/$restore}); answers the job's status.
   */
  async restore(table, target, asOf = '') {
    const body = { TableName: target };
    if (asOf) body.AsOf = asOf;
    const r = await this.send('POST', `${this.entitiesPath(table)}/$restore`, { body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', Accept: NOMETADATA } });
    return JSON.parse(r.text);
  }

  /** A job's status ({@code $jobs/<id>}). */
  async job(id) {
    const r = await this.send('GET', this.tablePath(`/$jobs/${encodeURIComponent(id)}`), { headers: { Accept: NOMETADATA } });
    return JSON.parse(r.text);
  }

  /** The account's running and recently finished jobs, newest first ({@code $jobs}). */
  async jobs() {
    const r = await this.send('GET', this.tablePath('/$jobs'), { headers: { Accept: NOMETADATA } });
    return JSON.parse(r.text).value;
  }

  /** The cluster view (account key only). */
  async cluster() {
    return JSON.parse((await this.send('GET', '/_cluster')).text);
  }
}

/**
 * The last minutes of the key metrics of the instance serving this page ({@code /_metrics/history});
 * unsigned unless the server asks for a key.
 */
export async function metricsHistory(account) {
  const r = await fetch('/_metrics/history', { cache: 'no-store', credentials: 'omit' });
  if (r.status === 403 && account && account.key) return JSON.parse((await account.send('GET', '/_metrics/history')).text);
  if (!r.ok) throw new ServiceError(r.status, r.headers.get('x-ms-error-code'), 'the metrics are not available on this instance');
  return r.json();
}

/** A table of Query Tables or Get Table at nometadata: {name, ttl, retention}. */
function readTable(json) {
  return { name: json.TableName, ttl: json.TTLInSeconds ?? null, retention: json.HistoryRetentionInSeconds ?? null };
}

/**
 * A version of an entity's history or an event of the change feed: {operation, pk, rk, timestamp,
 * etag, principal, commandId, entity (typed, or null)}.
 */
export function readEvent(json) {
  return { operation: json.Operation, pk: json.PartitionKey, rk: json.RowKey, timestamp: json.Timestamp,
    etag: json.ETag, principal: json.Principal, commandId: json.CommandId,
    entity: json.Entity ? readEntity(json.Entity) : null };
}

export const TYPES = ['Edm.String', 'Edm.Int32', 'Edm.Int64', 'Edm.Double', 'Edm.Boolean', 'Edm.DateTime',
  'Edm.Guid', 'Edm.Binary'];

/**
 * An entity of the service's JSON, typed: {PartitionKey, RowKey, Timestamp, etag, properties:
 * [{name, type, value}]}, each value kept as text (Int64 beyond 2^53, Doubles exactly as printed).
 */
export function readEntity(json) {
  const annotations = {};
  for (const [k, v] of Object.entries(json)) {
    if (k.endsWith('@odata.type')) annotations[k.slice(0, -'@odata.type'.length)] = v;
  }
  const entity = { PartitionKey: json.PartitionKey, RowKey: json.RowKey, Timestamp: json.Timestamp,
    etag: json['odata.etag'] || null, properties: [] };
  for (const [name, v] of Object.entries(json)) {
    if (name.startsWith('odata.') || name.includes('@odata.') || name === 'PartitionKey' || name === 'RowKey'
        || name === 'Timestamp' || v === null) continue;
    let type = annotations[name];
    if (!type) {
      type = typeof v === 'string' ? 'Edm.String' : typeof v === 'boolean' ? 'Edm.Boolean'
        : Number.isInteger(v) ? 'Edm.Int32' : 'Edm.Double';
    }
    entity.properties.push({ name, type, value: typeof v === 'number' && type === 'Edm.Double'
      && Number.isInteger(v) ? v.toFixed(1) : String(v) });
  }
  return entity;
}

/** The JSON body writing {@code entity}, each property annotated with its type where JSON cannot say it. */
export function writeEntity(entity) {
  const out = { PartitionKey: entity.PartitionKey, RowKey: entity.RowKey };
  for (const p of entity.properties) {
    const v = p.value;
    switch (p.type) {
      case 'Edm.String': out[p.name] = v; break;
      case 'Edm.Int32': {
        if (!/^-?\d+$/.test(v.trim()) || Number(v) > 2147483647 || Number(v) < -2147483648) {
          throw new Error(`${p.name}: '${v}' is not an Edm.Int32`);
        }
        out[p.name] = Number(v);
        break;
      }
      case 'Edm.Boolean': {
        if (!/^(true|false)$/i.test(v.trim())) throw new Error(`${p.name}: '${v}' is not true or false`);
        out[p.name] = v.trim().toLowerCase() === 'true';
        break;
      }
      case 'Edm.Double': {
        out[p.name + '@odata.type'] = 'Edm.Double';
        const t = v.trim();
        if (t === 'NaN' || t === 'Infinity' || t === '-Infinity') out[p.name] = t;
        else if (t === '' || isNaN(Number(t))) throw new Error(`${p.name}: '${v}' is not an Edm.Double`);
        else out[p.name] = Number(t);
        break;
      }
      case 'Edm.Int64':
        if (!/^-?\d+$/.test(v.trim())) throw new Error(`${p.name}: '${v}' is not an Edm.Int64`);
        out[p.name + '@odata.type'] = 'Edm.Int64';
        out[p.name] = v.trim();
        break;
      default:
        out[p.name + '@odata.type'] = p.type;
        out[p.name] = v.trim();
    }
  }
  return JSON.stringify(out);
}
