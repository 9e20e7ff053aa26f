// A table's live change feed ($changes, long-polled from a cursor), its secondary indexes (declare,
// watch them build, drop), and a SAS generator for it.

import { h, fill, note, show, ready, onLeave, enc, count, describe } from './ui.js';
import { tableLinks } from './table.js';
import { tableSas } from './sas.js';

const FEED_KEPT = 500;

/** The table's changes as they are applied, newest on top, from now, the beginning or a time. */
export function changesView(account, table) {
  const from = h('select', { id: 'feed-from' }, h('option', { value: 'now' }, 'now'),
    h('option', { value: 'beginning' }, 'the beginning'), h('option', { value: 'time' }, 'a time…'));
  const time = h('input', { id: 'feed-time', placeholder: '2026-11-24T11:00:00Z', hidden: true, size: '30' });
  from.addEventListener('change', () => { time.hidden = from.value !== 'time'; });
  const toggle = h('button', { type: 'submit', id: 'feed-toggle' }, 'Follow');
  const message = h('p', { class: 'note', id: 'feed-message' });
  const body = h('tbody', {});
  const events = h('table', { class: 'grid feed', id: 'feed' },
    h('caption', {}, 'Changes, newest first'),
    h('thead', {}, h('tr', {}, ...['Timestamp', 'Operation', 'PartitionKey', 'RowKey', 'By'].map(n => h('th', { scope: 'col' }, n)))),
    body);
  let controller = null;
  let seen = 0;

  const stop = () => {
    if (controller) controller.abort();
    controller = null;
    toggle.textContent = 'Follow';
  };
  const follow = async () => {
    controller = new AbortController();
    const signal = controller.signal;
    toggle.textContent = 'Stop';
    let cursor = null;
    const start = from.value === 'time' ? time.value.trim() : from.value;
    note(message, `Following the changes of ${table} from ${start}…`);
    ready('changes');
    while (!signal.aborted) {
      try {
        const page = await account.changes(table, { cursor, from: start, wait: cursor ? 20 : 0, top: 200, signal });
        cursor = page.cursor;
        for (const e of page.events) {
          seen++;
          body.prepend(h('tr', { dataset: { operation: e.operation, pk: e.pk ?? '', rk: e.rk ?? '' } },
            h('td', { class: 'timestamp' }, e.timestamp), h('td', {}, e.operation),
            h('td', {}, e.pk ?? '—'),
            h('td', {}, e.rk === null || e.rk === undefined ? '—'
              : h('a', { href: `#/entity/${enc(table)}/${enc(e.pk)}/${enc(e.rk)}` }, e.rk)),
            h('td', {}, e.principal || 'the service (expiry)')));
        }
        while (body.children.length > FEED_KEPT) body.lastElementChild.remove();
        note(message, `Following the changes of ${table}: ${count(seen)} so far${seen > FEED_KEPT ? ` (the newest ${FEED_KEPT} shown)` : ''}.`);
        ready('changes');
        if (page.events.some(e => e.operation === 'TableDeleted')) {
          note(message, `The table ${table} was deleted: its change feed ended.`);
          stop();
        }
      } catch (error) {
        if (error.name === 'AbortError' || signal.aborted) break;
        note(message, `The change feed stopped: ${describe(error)}`, 'error');
        stop();
        ready('changes');
      }
    }
  };
  const form = h('form', { id: 'feed-form', class: 'inline card', onsubmit: e => {
    e.preventDefault();
    if (controller) stop();
    else follow();
  } }, h('label', { for: 'feed-from' }, 'From'), from, time, toggle);
  show(`Changes of ${table}`, tableLinks(table, 'changes'), form, message, events);
  onLeave(stop);
  follow();
}

function indexState(index) {
  const parts = Object.entries(index.Partitions || {});
  const states = new Set(parts.map(([, p]) => p.State));
  const rows = parts.reduce((a, [, p]) => a + p.RowsIndexed, 0);
  const entries = parts.reduce((a, [, p]) => a + p.Entries, 0);
  const state = states.size === 0 ? 'Elsewhere' : states.size === 1 ? [...states][0]
    : states.has('Dropping') ? 'Dropping' : 'Building';
  return { state, rows, entries, partitions: parts };
}

/** The table's indexes: declared, built (per partition of this instance), dropped. */
export function indexesView(account, table) {
  const list = h('div', { id: 'indexes' });
  const name = h('input', { id: 'index-name', required: true, pattern: '[A-Za-z][A-Za-z0-9]{0,62}',
    title: '1 to 63 letters and digits, starting with a letter' });
  const property = h('input', { id: 'index-property', required: true });
  const message = h('p', { class: 'note', id: 'index-message' });
  let timer = null;
  const refresh = async () => {
    clearTimeout(timer);
    try {
      const answer = await account.indexes(table);
      const indexes = answer.value || [];
      fill(list, indexes.length === 0 ? h('p', {}, 'No index yet: queries on properties other than the keys scan the table.')
        : h('table', { class: 'grid' }, h('caption', {}, 'Indexes (partitions this instance holds)'),
          h('thead', {}, h('tr', {}, ...['Name', 'Property', 'State', 'Rows indexed', 'Entries', 'Partitions', ''].map(n => h('th', { scope: 'col' }, n)))),
          h('tbody', {}, ...indexes.map(i => {
            const s = indexState(i);
            return h('tr', { dataset: { index: i.Name, state: s.state } }, h('th', { scope: 'row' }, i.Name), h('td', {}, i.Property),
              h('td', { class: 'state' }, s.state), h('td', {}, count(s.rows)), h('td', {}, count(s.entries)),
              h('td', {}, s.partitions.map(([p, v]) => `${p}: ${v.State}`).join(', ')
                + ((i.Elsewhere || []).length ? `; elsewhere: ${i.Elsewhere.join(', ')}` : '')),
              h('td', {}, h('button', { type: 'button', class: 'danger', 'aria-label': `Drop the index ${i.Name}`, onclick: async () => {
                if (!confirm(`Drop the index ${i.Name}?`)) return;
                try {
                  await account.dropIndex(table, i.Name);
                  note(message, `Dropping the index ${i.Name}.`);
                } catch (error) {
                  note(message, describe(error), 'error');
                }
                refresh();
              } }, 'Drop')));
          }))));
      if (indexes.some(i => indexState(i).state !== 'Ready')) timer = setTimeout(refresh, 1000);
    } catch (error) {
      note(message, describe(error), 'error');
    }
    ready('indexes');
  };
  const form = h('form', { id: 'create-index', class: 'inline card', onsubmit: async e => {
    e.preventDefault();
    try {
      await account.createIndex(table, name.value.trim(), property.value.trim());
      note(message, `Declared the index ${name.value.trim()} on ${property.value.trim()}: existing rows are indexed in the background.`);
      name.value = '';
      property.value = '';
    } catch (error) {
      note(message, describe(error), 'error');
    }
    refresh();
  } }, h('label', { for: 'index-name' }, 'New index'), name, h('label', { for: 'index-property' }, 'on property'), property,
  h('button', { type: 'submit' }, 'Declare'));
  show(`Indexes of ${table}`, tableLinks(table, 'indexes'), form, message, list);
  onLeave(() => clearTimeout(timer));
  refresh();
}

function localInput(id, date) {
  const pad = n => String(n).padStart(2, '0');
  const value = date ? `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}` : '';
  return h('input', { id, type: 'datetime-local', value });
}

/** A service SAS for the table: permissions, times, a key range, signed in the page. */
export function sasView(account, table) {
  if (account.kind !== 'key') {
    show(`SAS for ${table}`, tableLinks(table, 'sas'), h('p', { id: 'sas' }, 'Making a SAS needs the account key (you signed in with a SAS).'));
    ready('sas');
    return;
  }
  const perms = ['r', 'a', 'u', 'd'].map(p => h('input', { type: 'checkbox', id: `sas-${p}`, value: p, checked: p === 'r' }));
  const words = { r: 'read (query)', a: 'add', u: 'update', d: 'delete' };
  const start = localInput('sas-start', null);
  const expiry = localInput('sas-expiry', new Date(Date.now() + 24 * 3600 * 1000));
  const fields = ['spk', 'srk', 'epk', 'erk'].map(k => h('input', { id: `sas-${k}`, size: '12' }));
  const ip = h('input', { id: 'sas-ip', placeholder: '168.1.5.60-168.1.5.70', size: '24' });
  const https = h('input', { type: 'checkbox', id: 'sas-https' });
  const out = h('div', { id: 'sas-out' });
  const form = h('form', { id: 'sas-form', class: 'card', onsubmit: e => {
    e.preventDefault();
    try {
      const permissions = perms.filter(p => p.checked).map(p => p.value).join('');
      if (!permissions) throw new Error('Choose at least one permission.');
      if (!expiry.value) throw new Error('Choose when the SAS expires.');
      const [spk, srk, epk, erk] = fields.map(f => f.value);
      const token = tableSas(account, table, { permissions, start: start.value ? new Date(start.value) : null,
        expiry: new Date(expiry.value), spk, srk, epk, erk, ip: ip.value.trim(), protocol: https.checked ? 'https' : '' });
      const url = `${location.origin}/${account.name}/${table}?${token}`;
      fill(out, h('label', { for: 'sas-token' }, 'SAS token'), h('textarea', { id: 'sas-token', rows: '3', readonly: true }, token),
        h('label', { for: 'sas-url' }, 'Table URL with the SAS'), h('textarea', { id: 'sas-url', rows: '3', readonly: true }, url),
        h('label', { for: 'sas-connection' }, 'Connection string'),
        h('textarea', { id: 'sas-connection', rows: '3', readonly: true },
          `TableEndpoint=${location.origin}/${account.name};SharedAccessSignature=${token}`));
    } catch (error) {
      fill(out, h('p', { class: 'error', role: 'alert' }, describe(error)));
    }
    ready('sas');
  } },
  h('fieldset', {}, h('legend', {}, 'Permissions'), ...perms.map(p => h('label', {}, p, ` ${words[p.value]}`))),
  h('div', { class: 'inline' }, h('label', { for: 'sas-start' }, 'Start (optional)'), start,
    h('label', { for: 'sas-expiry' }, 'Expiry'), expiry),
  h('fieldset', {}, h('legend', {}, 'Key range (optional)'), h('div', { class: 'inline' },
    h('label', { for: 'sas-spk' }, 'From PartitionKey'), fields[0], h('label', { for: 'sas-srk' }, 'RowKey'), fields[1],
    h('label', { for: 'sas-epk' }, 'To PartitionKey'), fields[2], h('label', { for: 'sas-erk' }, 'RowKey'), fields[3])),
  h('div', { class: 'inline' }, h('label', { for: 'sas-ip' }, 'Client addresses (optional)'), ip,
    h('label', {}, https, ' HTTPS only')),
  h('button', { type: 'submit', id: 'make-sas' }, 'Make SAS'),
  h('p', { class: 'help' }, 'Signed here with the account key, which is not sent. Times are this browser’s local time.'));
  show(`SAS for ${table}`, tableLinks(table, 'sas'), form, out);
  ready('sas');
}
