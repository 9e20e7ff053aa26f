// One entity: view and edit (Update with If-Match), a point-in-time view (asOf), new entities, and
// its history — every version newest first, who made it and when, and what changed between two.

import { TYPES } from './signing.js';
import { h, fill, say, failIn, note, show, ready, enc, describe } from './ui.js';
import { tableLinks } from './table.js';

function propertyEditor(properties) {
  const body = h('tbody', { id: 'properties' });
  const render = () => fill(body, ...properties.map((p, i) => h('tr', { dataset: { property: p.name } },
    h('td', {}, h('input', { value: p.name, class: 'property-name', 'aria-label': `Property ${i + 1} name`, required: true,
      pattern: '[A-Za-z_][A-Za-z0-9_]*', oninput: e => { p.name = e.target.value; } })),
    h('td', {}, h('select', { class: 'property-type', 'aria-label': `Property ${i + 1} type`,
      onchange: e => { p.type = e.target.value; } }, ...TYPES.map(t => h('option', { value: t, selected: t === p.type }, t)))),
    h('td', {}, p.type === 'Edm.String' && p.value.length > 80
      ? h('textarea', { class: 'property-value', 'aria-label': `Property ${i + 1} value`, oninput: e => { p.value = e.target.value; } }, p.value)
      : h('input', { value: p.value, class: 'property-value', 'aria-label': `Property ${i + 1} value`,
        oninput: e => { p.value = e.target.value; } })),
    h('td', {}, h('button', { type: 'button', 'aria-label': `Remove property ${p.name || i + 1}`, onclick: () => {
      properties.splice(i, 1);
      render();
    } }, '✕')))));
  render();
  return h('div', {}, h('table', { class: 'grid properties' }, h('caption', {}, 'Properties'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Type'),
      h('th', { scope: 'col' }, 'Value'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Remove')))), body),
  h('button', { type: 'button', id: 'add-property', onclick: () => {
    properties.push({ name: '', type: 'Edm.String', value: '' });
    render();
    body.lastElementChild.querySelector('input').focus();
  } }, 'Add property'));
}

/** Properties shown, not edited. */
function propertyList(properties, id = 'properties') {
  return h('table', { class: 'grid properties', id }, h('caption', {}, 'Properties'),
    h('thead', {}, h('tr', {}, ...['Name', 'Type', 'Value'].map(n => h('th', { scope: 'col' }, n)))),
    h('tbody', {}, ...properties.map(p => h('tr', { dataset: { property: p.name } }, h('th', { scope: 'row' }, p.name),
      h('td', {}, p.type), h('td', { class: 'property-value' }, p.value)))));
}

function keys(entity) {
  return h('dl', {}, h('dt', {}, 'PartitionKey'), h('dd', { id: 'pk' }, entity.PartitionKey), h('dt', {}, 'RowKey'),
    h('dd', { id: 'rk' }, entity.RowKey), h('dt', {}, 'Timestamp'), h('dd', { id: 'timestamp' }, entity.Timestamp || ''),
    h('dt', {}, 'ETag'), h('dd', { id: 'etag' }, entity.etag || ''));
}

/** The entity, editable; with {@code asOf} as it was then, read-only. */
export async function entityView(account, table, pk, rk, asOf = '') {
  const title = `${pk} / ${rk}`;
  const asOfInput = h('input', { id: 'entity-as-of', value: asOf, placeholder: '2026-11-24T11:00:00Z', size: '30' });
  const timeTravel = h('form', { id: 'entity-time', class: 'inline', onsubmit: e => {
    e.preventDefault();
    const t = asOfInput.value.trim();
    location.hash = `#/entity/${enc(table)}/${enc(pk)}/${enc(rk)}${t ? `?asOf=${enc(t)}` : ''}`;
  } }, h('label', { for: 'entity-as-of' }, 'As of'), asOfInput, h('button', { type: 'submit', id: 'show-as-of' }, 'Show'),
  asOf ? h('a', { href: `#/entity/${enc(table)}/${enc(pk)}/${enc(rk)}` }, 'Now') : null,
  h('a', { href: `#/history/${enc(table)}/${enc(pk)}/${enc(rk)}`, id: 'entity-history' }, 'History'));
  const body = h('div', { id: 'entity-body' });
  show(asOf ? `${title} as of ${asOf}` : title, tableLinks(table, 'entity'), timeTravel, body);
  let entity;
  try {
    entity = await account.getEntity(table, pk, rk, { asOf });
  } catch (error) {
    failIn(body, error.status === 404 && asOf ? new Error(`${title} did not exist at ${asOf}.`) : error);
    ready('entity');
    return;
  }
  if (asOf) {
    fill(body, h('div', { class: 'card', id: 'entity' }, keys(entity), propertyList(entity.properties)));
    ready('entity');
    return;
  }
  const message = h('p', { class: 'note', id: 'entity-message' });
  const form = h('form', { id: 'entity', class: 'card', onsubmit: async e => {
    e.preventDefault();
    try {
      await account.replaceEntity(table, entity, entity.etag);
      say('Saved.');
      entityView(account, table, pk, rk);
    } catch (error) {
      const text = error.status === 412 ? 'Someone changed this entity since you opened it: reload it to see'
        + ' their version (your changes are not saved).' : describe(error);
      note(message, text, 'error');
    }
  } },
  keys(entity), propertyEditor(entity.properties),
  h('div', { class: 'inline' }, h('button', { type: 'submit', id: 'save-entity' }, 'Save'),
    h('button', { type: 'button', class: 'danger', id: 'delete-entity', onclick: async () => {
      if (!confirm(`Delete the entity ${pk} / ${rk}?`)) return;
      try {
        await account.deleteEntity(table, pk, rk, entity.etag);
        say(`Deleted ${pk} / ${rk}.`);
        location.hash = `#/table/${enc(table)}`;
      } catch (error) {
        note(message, describe(error), 'error');
      }
    } }, 'Delete entity')), message);
  fill(body, form);
  ready('entity');
}

export function newEntityView(account, table) {
  const entity = { PartitionKey: '', RowKey: '', properties: [] };
  const pk = h('input', { id: 'new-pk', required: true, oninput: e => { entity.PartitionKey = e.target.value; } });
  const rk = h('input', { id: 'new-rk', required: true, oninput: e => { entity.RowKey = e.target.value; } });
  const message = h('p', { class: 'note', id: 'new-message' });
  const form = h('form', { id: 'new', class: 'card', onsubmit: async e => {
    e.preventDefault();
    try {
      await account.insertEntity(table, entity);
      say(`Inserted ${entity.PartitionKey} / ${entity.RowKey}.`);
      location.hash = `#/entity/${enc(table)}/${enc(entity.PartitionKey)}/${enc(entity.RowKey)}`;
    } catch (error) {
      note(message, describe(error), 'error');
    }
  } },
  h('label', { for: 'new-pk' }, 'PartitionKey'), pk, h('label', { for: 'new-rk' }, 'RowKey'), rk,
  propertyEditor(entity.properties), h('button', { type: 'submit', id: 'insert-entity' }, 'Insert'), message);
  show(`New entity in ${table}`, tableLinks(table, 'new'), form);
  ready('new-entity');
}

/**
 * What changed from {@code older} to {@code newer} (typed entities or null): [{name, change
 * ('added', 'removed', 'changed', 'same'), before, after}], properties in the newer's order first.
 */
export function diff(older, newer) {
  const before = new Map((older ? older.properties : []).map(p => [p.name, p]));
  const after = new Map((newer ? newer.properties : []).map(p => [p.name, p]));
  const out = [];
  for (const [name, p] of after) {
    const q = before.get(name);
    out.push({ name, after: p, before: q || null,
      change: !q ? 'added' : q.type !== p.type || q.value !== p.value ? 'changed' : 'same' });
  }
  for (const [name, q] of before) if (!after.has(name)) out.push({ name, before: q, after: null, change: 'removed' });
  return out;
}

function typed(p) {
  return p ? `${p.value}${p.type === 'Edm.String' ? '' : ` (${p.type.slice(4)})`}` : '';
}

function diffTable(rows, id, labels = ['Before', 'After']) {
  const changed = rows.filter(r => r.change !== 'same');
  if (changed.length === 0) return h('p', { id, class: 'help' }, 'No property changed.');
  return h('table', { class: 'grid diff', id }, h('thead', {}, h('tr', {},
    ...['Property', 'Change', ...labels].map(n => h('th', { scope: 'col' }, n)))),
  h('tbody', {}, ...changed.map(r => h('tr', { class: r.change, dataset: { property: r.name, change: r.change } },
    h('th', { scope: 'row' }, r.name), h('td', {}, r.change), h('td', { class: 'before' }, typed(r.before)),
    h('td', { class: 'after' }, typed(r.after))))));
}

/** Short words for what a principal is ("SharedKey devstoreaccount1 key1" stays as it is). */
function who(principal) {
  return principal || 'the service (expiry)';
}

/** The entity's versions, newest first, each with what it changed; two chosen versions compared. */
export async function historyView(account, table, pk, rk) {
  const list = h('div', { id: 'history' });
  const compare = h('div', { id: 'compare', class: 'card' });
  const more = h('div', { class: 'pager' });
  show(`History of ${pk} / ${rk}`, tableLinks(table, 'history'),
    h('p', { class: 'links' }, h('a', { href: `#/entity/${enc(table)}/${enc(pk)}/${enc(rk)}` }, 'The entity now')),
    list, more, compare);
  const versions = [];
  const picked = [];
  const drawCompare = () => {
    if (picked.length < 2) {
      fill(compare, h('p', { class: 'help' }, 'Pick two versions to compare them.'));
      return;
    }
    const [a, b] = [...picked].sort((x, y) => versions[x].timestamp.localeCompare(versions[y].timestamp));
    const older = versions[a];
    const newer = versions[b];
    fill(compare, h('h2', {}, `From ${older.timestamp} (${older.operation}) to ${newer.timestamp} (${newer.operation})`),
      diffTable(diff(older.entity, newer.entity), 'compare-diff', [older.timestamp, newer.timestamp]));
  };
  const draw = () => {
    fill(list, h('table', { class: 'grid versions' },
      h('caption', {}, `${versions.length} version${versions.length === 1 ? '' : 's'}, newest first`),
      h('thead', {}, h('tr', {}, ...['Compare', 'Timestamp', 'Operation', 'By', 'What changed'].map(n => h('th', { scope: 'col' }, n)))),
      h('tbody', {}, ...versions.map((v, i) => {
        const older = versions.slice(i + 1).find(x => x.entity !== null || x.operation !== 'PartitionDeleted');
        const changes = v.entity === null ? h('span', { class: 'help' }, v.operation === 'Deleted' ? 'deleted'
          : v.operation === 'Expired' ? 'expired (TTL)' : v.operation === 'PartitionDeleted' ? 'its partition was deleted' : '')
          : diffTable(diff(older ? older.entity : null, v.entity), `diff-${i}`);
        return h('tr', { dataset: { version: String(i), operation: v.operation } },
          h('td', {}, h('input', { type: 'checkbox', 'aria-label': `Compare the version of ${v.timestamp}`, class: 'pick-version',
            checked: picked.includes(i), onchange: e => {
              if (e.target.checked) picked.push(i);
              else picked.splice(picked.indexOf(i), 1);
              while (picked.length > 2) {
                const dropped = picked.shift();
                const box = list.querySelector(`tr[data-version='${dropped}'] input`);
                if (box) box.checked = false;
              }
              drawCompare();
              ready('compare');
            } })),
          h('td', { class: 'timestamp' }, v.timestamp), h('td', {}, v.operation), h('td', {}, who(v.principal)),
          h('td', {}, changes));
      }))));
  };
  const load = async next => {
    try {
      const page = await account.history(table, pk, rk, { top: 50, next });
      versions.push(...page.versions);
      draw();
      fill(more, page.next ? h('button', { type: 'button', id: 'older-versions', onclick: () => load(page.next) }, 'Older versions') : null);
      if (versions.length >= 2 && picked.length === 0) {
        picked.push(1, 0);
        draw();
      }
      drawCompare();
    } catch (error) {
      failIn(list, error);
      fill(more);
      fill(compare);
    }
    ready('history');
  };
  await load(null);
}
