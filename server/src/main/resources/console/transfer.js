// Export and import in the page, in the tablestream command's formats (so a file moves between the
// console and the command): JSON Lines — the service's entity JSON, one entity per line, with
// Name@odata.type wherever the value does not say its type — and typed CSV — PartitionKey, RowKey,
// Timestamp, then Name and Name@type per property (the layout Azure Storage Explorer uses).

import { readEntity } from './signing.js';

const KEYS = ['PartitionKey', 'RowKey', 'Timestamp'];

/** An entity of the service's JSON as a JSON Lines line: its control information ('odata.*') left out. */
export function toLine(raw) {
  const out = {};
  for (const [k, v] of Object.entries(raw)) if (!k.startsWith('odata.')) out[k] = v;
  return JSON.stringify(out);
}

function csvField(text) {
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(fields) {
  return fields.map(csvField).join(',') + '\r\n';
}

/** Entities (the service's JSON) as typed CSV: the header names every property any of them has. */
export function toCsv(raws) {
  const entities = raws.map(readEntity);
  const names = [];
  for (const e of entities) for (const p of e.properties) if (!names.includes(p.name)) names.push(p.name);
  const parts = [csvRow([...KEYS, ...names.flatMap(n => [n, n + '@type'])])];
  for (const e of entities) {
    const row = [e.PartitionKey, e.RowKey, e.Timestamp || ''];
    for (const n of names) {
      const p = e.properties.find(q => q.name === n);
      row.push(p ? p.value : '', p ? p.type : '');
    }
    parts.push(csvRow(row));
  }
  return parts;
}

/** The records of CSV text (RFC 4180: quoted fields may hold commas, quotes doubled, line breaks). */
export function parseCsv(text) {
  const records = [];
  let field = '';
  let record = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') { record.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) { record.push(field); records.push(record); }
  return records.filter(r => !(r.length === 1 && r[0] === ''));
}

/**
 * The entities of a file's text, as {line, pk, rk, body (the entity's JSON to write)}, in file
 * order; Error naming the line that is not an entity.
 */
export function readEntities(text, csv) {
  const out = [];
  if (csv) {
    const records = parseCsv(text);
    if (records.length === 0) throw new Error('The CSV file is empty: it needs a header row.');
    const header = records[0];
    const pk = header.indexOf('PartitionKey');
    const rk = header.indexOf('RowKey');
    if (pk < 0 || rk < 0) throw new Error(`The CSV header needs the columns PartitionKey and RowKey; it has ${header.join(', ')}.`);
    const columns = header.map((name, i) => [name, i, header.indexOf(name + '@type')])
      .filter(([name]) => !KEYS.includes(name) && !name.endsWith('@type'));
    records.slice(1).forEach((row, i) => {
      if (row.length !== header.length) {
        throw new Error(`CSV row ${i + 1} has ${row.length} fields; the header has ${header.length}.`);
      }
      const entity = { PartitionKey: row[pk], RowKey: row[rk], properties: [] };
      for (const [name, at, typeAt] of columns) {
        const type = typeAt < 0 ? 'Edm.String' : row[typeAt];
        if (type) entity.properties.push({ name, type, value: row[at] });
      }
      out.push({ line: i + 2, pk: entity.PartitionKey, rk: entity.RowKey, entity });
    });
  } else {
    text.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === '') return;
      let json;
      try {
        json = JSON.parse(line);
      } catch (e) {
        throw new Error(`Line ${i + 1} is not JSON: ${e.message}`);
      }
      if (typeof json.PartitionKey !== 'string' || typeof json.RowKey !== 'string') {
        throw new Error(`Line ${i + 1}: an entity needs a PartitionKey and a RowKey (JSON strings).`);
      }
      delete json.Timestamp;
      out.push({ line: i + 1, pk: json.PartitionKey, rk: json.RowKey, body: JSON.stringify(json) });
    });
  }
  return out;
}

/**
 * The entities grouped into entity group transactions: by PartitionKey (the file may be in any
 * order), at most 100 each and each RowKey once (a later line of the same keys goes to a later batch).
 */
export function batches(entities) {
  const byPartition = new Map();
  for (const e of entities) {
    if (!byPartition.has(e.pk)) byPartition.set(e.pk, []);
    byPartition.get(e.pk).push(e);
  }
  const out = [];
  for (const group of byPartition.values()) {
    let current = [];
    let keys = new Set();
    for (const e of group) {
      if (current.length === 100 || keys.has(e.rk)) {
        out.push(current);
        current = [];
        keys = new Set();
      }
      current.push(e);
      keys.add(e.rk);
    }
    if (current.length) out.push(current);
  }
  return out;
}
