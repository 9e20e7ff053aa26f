// The Tablestream web console: tables, entities, the cluster and key metrics, in the browser, signed
// with the account key or a SAS the user enters (kept for this browser tab only, in sessionStorage).

import { Account, ServiceError, TYPES, metricsText } from './signing.js';
import { OPERATORS, buildFilter } from './filters.js';
import { CHARTS, Chart, parsePrometheus } from './charts.js';

const STORAGE_KEY = 'tablestream.console.credential';
const TABLES_PAGE = 200;
const main = document.getElementById('main');
const status = document.getElementById('status');
let account = null;
let leaveView = () => {};

/** An element: h('a', {href: '#x', class: 'y'}, 'text', child...). Text is always text, never markup. */
function h(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'value') e.value = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

function say(message, kind = 'info') {
  status.textContent = message;
  status.className = kind;
}

function fail(error) {
  say(error instanceof ServiceError || error instanceof Error ? error.message : String(error), 'error');
}

/** Shows a view: its heading gets the focus (screen readers announce the new page). */
function show(title, ...content) {
  leaveView();
  leaveView = () => {};
  document.title = `${title} — Tablestream console`;
  const heading = h('h1', { tabindex: '-1' }, title);
  main.replaceChildren(heading, ...content);
  heading.focus();
}

function ready(view) {
  document.body.dataset.view = view;
  document.body.dataset.ready = String(performance.now());
}

const enc = encodeURIComponent;

// ---------------------------------------------------------------- sign in

function signInView() {
  document.getElementById('nav').hidden = true;
  const accountInput = h('input', { id: 'account', name: 'account', required: true, autocomplete: 'username',
    value: 'devstoreaccount1' });
  const secret = h('input', { id: 'secret', name: 'secret', type: 'password', required: true,
    autocomplete: 'current-password' });
  const kindKey = h('input', { type: 'radio', name: 'kind', id: 'kind-key', value: 'key', checked: true });
  const kindSas = h('input', { type: 'radio', name: 'kind', id: 'kind-sas', value: 'sas' });
  const form = h('form', { class: 'card', id: 'sign-in', onsubmit: async e => {
    e.preventDefault();
    const credential = { kind: kindKey.checked ? 'key' : 'sas', account: accountInput.value.trim() };
    credential[credential.kind] = secret.value.trim();
    try {
      const candidate = new Account(credential);
      await candidate.listTables({ top: 1 });
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credential));
      account = candidate;
      say(`Signed in to ${account.name}.`);
      if (location.hash === '' || location.hash === '#/sign-in') location.hash = '#/tables';
      else route();
    } catch (error) {
      fail(error);
    }
  } },
  h('p', {}, 'The console reads and writes with your account key or a SAS token. It stays in this browser tab:'
    + ' the key signs each request and is never sent.'),
  h('label', { for: 'account' }, 'Account'), accountInput,
  h('fieldset', {}, h('legend', {}, 'Sign in with'),
    h('label', {}, kindKey, ' account key'), h('label', {}, kindSas, ' SAS token')),
  h('label', { for: 'secret' }, 'Key or SAS token'), secret,
  h('button', { type: 'submit', id: 'sign-in-button' }, 'Sign in'));
  show('Sign in', form);
  ready('sign-in');
}

// ---------------------------------------------------------------- tables

async function tablesView(prefix = '', next = null, pageNumber = 1) {
  const name = h('input', { id: 'new-table', name: 'table', required: true, pattern: '[A-Za-z][A-Za-z0-9]{2,62}',
    title: '3 to 63 letters and digits, starting with a letter' });
  const create = h('form', { id: 'create-table', class: 'inline', onsubmit: async e => {
    e.preventDefault();
    try {
      await account.createTable(name.value);
      say(`Created table ${name.value}.`);
      tablesView(prefix);
    } catch (error) {
      fail(error);
    }
  } }, h('label', { for: 'new-table' }, 'New table'), name, h('button', { type: 'submit' }, 'Create'));
  const search = h('input', { id: 'prefix', type: 'search', value: prefix, placeholder: 'Name starts with…' });
  const find = h('form', { class: 'inline', role: 'search', onsubmit: e => {
    e.preventDefault();
    tablesView(search.value.trim());
  } }, h('label', { for: 'prefix' }, 'Find'), search, h('button', { type: 'submit' }, 'Find'));
  const list = h('tbody', { id: 'tables' });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages of tables' });
  show('Tables', h('div', { class: 'toolbar' }, find, create),
    h('table', { class: 'grid' }, h('caption', {}, prefix ? `Tables starting with "${prefix}"` : 'Tables'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')))),
      list), pager);
  try {
    const page = await account.listTables({ top: TABLES_PAGE, next, prefix });
    list.replaceChildren(...page.names.map(t => h('tr', { dataset: { table: t } },
      h('td', {}, h('a', { href: `#/table/${enc(t)}` }, t)),
      h('td', { class: 'actions' }, h('button', { type: 'button', class: 'danger', 'aria-label': `Delete table ${t}`,
        onclick: async () => {
          if (!confirm(`Delete the table ${t} and all its entities?`)) return;
          try {
            await account.deleteTable(t);
            say(`Deleted table ${t}.`);
            tablesView(prefix, next, pageNumber);
          } catch (error) {
            fail(error);
          }
        } }, 'Delete')))));
    if (page.names.length === 0) list.append(h('tr', {}, h('td', { colspan: '2' }, 'No tables.')));
    pager.replaceChildren(h('span', {}, `Page ${pageNumber}`),
      pageNumber > 1 ? h('button', { type: 'button', onclick: () => tablesView(prefix) }, 'First page') : null,
      page.next ? h('button', { type: 'button', id: 'tables-next', onclick: () => tablesView(prefix, page.next, pageNumber + 1) },
        'Next page') : null);
    ready('tables');
  } catch (error) {
    fail(error);
  }
}

// ---------------------------------------------------------------- a table's entities

const TABLE_STATE = new Map();

function tableView(table) {
  const state = TABLE_STATE.get(table) || { conditions: [], join: 'and', filter: '', select: '', top: '50' };
  TABLE_STATE.set(table, state);
  const filter = h('textarea', { id: 'filter', rows: '2', spellcheck: 'false', 'aria-describedby': 'filter-help' });
  filter.value = state.filter;
  const select = h('input', { id: 'select', value: state.select, placeholder: 'all properties' });
  const top = h('select', { id: 'top' }, ...['10', '50', '100', '1000'].map(n => h('option', { value: n, selected: n === state.top }, n)));
  const join = h('select', { id: 'join', 'aria-label': 'Join conditions with' },
    h('option', { value: 'and', selected: state.join === 'and' }, 'all (and)'),
    h('option', { value: 'or', selected: state.join === 'or' }, 'any (or)'));
  const rows = h('div', { id: 'conditions' });
  const known = h('datalist', { id: 'property-names' },
    ...['PartitionKey', 'RowKey', 'Timestamp'].map(n => h('option', { value: n })));

  const rebuild = () => {
    try {
      filter.value = buildFilter(state.conditions, join.value);
      filter.setCustomValidity('');
    } catch (error) {
      filter.setCustomValidity(error.message);
      say(error.message, 'error');
    }
  };
  const conditionRow = (c, i) => {
    const property = h('input', { value: c.property, list: 'property-names', 'aria-label': `Condition ${i + 1} property`,
      class: 'condition-property', oninput: e => { c.property = e.target.value; rebuild(); } });
    const operator = h('select', { 'aria-label': `Condition ${i + 1} operator`, class: 'condition-operator',
      onchange: e => { c.operator = e.target.value; rebuild(); } },
      ...OPERATORS.map(([op, symbol]) => h('option', { value: op, selected: op === c.operator }, `${symbol} ${op}`)));
    const type = h('select', { 'aria-label': `Condition ${i + 1} type`, class: 'condition-type',
      onchange: e => { c.type = e.target.value; rebuild(); } },
      ...TYPES.map(t => h('option', { value: t, selected: t === c.type }, t.slice(4))));
    const value = h('input', { value: c.value, 'aria-label': `Condition ${i + 1} value`, class: 'condition-value',
      oninput: e => { c.value = e.target.value; rebuild(); } });
    return h('div', { class: 'condition' }, property, operator, type, value,
      h('button', { type: 'button', 'aria-label': `Remove condition ${i + 1}`, onclick: () => {
        state.conditions.splice(i, 1);
        renderConditions();
        rebuild();
      } }, '✕'));
  };
  const renderConditions = () => rows.replaceChildren(...state.conditions.map(conditionRow));
  renderConditions();

  const results = h('div', { id: 'results' });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages of entities' });
  let pages = [null];
  let current = 0;

  const run = async () => {
    state.filter = filter.value;
    state.select = select.value;
    state.top = top.value;
    state.join = join.value;
    try {
      const page = await account.queryEntities(table, { filter: filter.value.trim(), select: select.value.trim(),
        top: top.value, next: pages[current] });
      const names = [];
      for (const e of page.entities) for (const p of e.properties) if (!names.includes(p.name)) names.push(p.name);
      for (const n of names) if (![...known.options].some(o => o.value === n)) known.append(h('option', { value: n }));
      results.replaceChildren(h('table', { class: 'grid entities' },
        h('caption', {}, `${page.entities.length} entit${page.entities.length === 1 ? 'y' : 'ies'} on page ${current + 1}`),
        h('thead', {}, h('tr', {}, ...['PartitionKey', 'RowKey', 'Timestamp', ...names].map(n => h('th', { scope: 'col' }, n)))),
        h('tbody', {}, ...page.entities.map(e => h('tr', { dataset: { pk: e.PartitionKey, rk: e.RowKey } },
          h('th', { scope: 'row' }, h('a', { href: `#/entity/${enc(table)}/${enc(e.PartitionKey)}/${enc(e.RowKey)}` }, e.PartitionKey)),
          h('td', {}, e.RowKey), h('td', { class: 'timestamp' }, e.Timestamp || ''),
          ...names.map(n => {
            const p = e.properties.find(q => q.name === n);
            return p ? h('td', { title: p.type, dataset: { type: p.type } }, h('span', { class: 'value' }, p.value),
              p.type === 'Edm.String' ? null : h('span', { class: 'type' }, p.type.slice(4))) : h('td', { class: 'absent' });
          }))))));
      pages = pages.slice(0, current + 1);
      if (page.next) pages.push(page.next);
      pager.replaceChildren(
        h('button', { type: 'button', id: 'previous-page', disabled: current === 0, onclick: () => { current--; run(); } }, 'Previous page'),
        h('span', {}, `Page ${current + 1}`),
        h('button', { type: 'button', id: 'next-page', disabled: !page.next, onclick: () => { current++; run(); } }, 'Next page'));
      say(page.entities.length || current > 0 ? '' : 'No entity matches.');
      ready('table');
    } catch (error) {
      fail(error);
    }
  };

  const form = h('form', { id: 'query', class: 'card', onsubmit: e => {
    e.preventDefault();
    pages = [null];
    current = 0;
    run();
  } },
  h('fieldset', {}, h('legend', {}, 'Filter builder'), rows,
    h('div', { class: 'inline' },
      h('button', { type: 'button', id: 'add-condition', onclick: () => {
        state.conditions.push({ property: '', operator: 'eq', type: 'Edm.String', value: '' });
        renderConditions();
        rows.lastElementChild.querySelector('input').focus();
      } }, 'Add condition'),
      h('label', { for: 'join' }, 'Match'), join)),
  h('label', { for: 'filter' }, '$filter'), filter,
  h('p', { id: 'filter-help', class: 'help' }, 'The builder writes it; you may also type any OData filter, e.g. ',
    h('code', {}, "PartitionKey eq 'p1' and Total gt 10.5")),
  h('div', { class: 'inline' }, h('label', { for: 'select' }, '$select'), select,
    h('label', { for: 'top' }, 'Page size'), top, h('button', { type: 'submit', id: 'run-query' }, 'Run query')),
  known);
  join.addEventListener('change', rebuild);
  show(table, h('p', { class: 'links' }, h('a', { href: '#/tables' }, '← Tables'), ' ',
    h('a', { href: `#/new/${enc(table)}`, id: 'new-entity' }, 'New entity')), form, results, pager);
  run();
}

// ---------------------------------------------------------------- one entity

function propertyEditor(properties) {
  const body = h('tbody', { id: 'properties' });
  const render = () => body.replaceChildren(...properties.map((p, i) => h('tr', { dataset: { property: p.name } },
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

async function entityView(table, pk, rk) {
  try {
    const entity = await account.getEntity(table, pk, rk);
    const form = h('form', { id: 'entity', class: 'card', onsubmit: async e => {
      e.preventDefault();
      try {
        await account.replaceEntity(table, entity, entity.etag);
        say('Saved.');
        entityView(table, pk, rk);
      } catch (error) {
        fail(error.status === 412 ? new Error('Someone changed this entity since you opened it: reload it to see'
          + ' their version (your changes are not saved).') : error);
      }
    } },
    h('dl', {}, h('dt', {}, 'PartitionKey'), h('dd', { id: 'pk' }, entity.PartitionKey), h('dt', {}, 'RowKey'),
      h('dd', { id: 'rk' }, entity.RowKey), h('dt', {}, 'Timestamp'), h('dd', {}, entity.Timestamp || ''),
      h('dt', {}, 'ETag'), h('dd', { id: 'etag' }, entity.etag || '')),
    propertyEditor(entity.properties),
    h('div', { class: 'inline' }, h('button', { type: 'submit', id: 'save-entity' }, 'Save'),
      h('button', { type: 'button', class: 'danger', id: 'delete-entity', onclick: async () => {
        if (!confirm(`Delete the entity ${pk} / ${rk}?`)) return;
        try {
          await account.deleteEntity(table, pk, rk, entity.etag);
          say(`Deleted ${pk} / ${rk}.`);
          location.hash = `#/table/${enc(table)}`;
        } catch (error) {
          fail(error);
        }
      } }, 'Delete entity')));
    show(`${pk} / ${rk}`, h('p', { class: 'links' }, h('a', { href: `#/table/${enc(table)}` }, `← ${table}`)), form);
    ready('entity');
  } catch (error) {
    fail(error);
  }
}

function newEntityView(table) {
  const entity = { PartitionKey: '', RowKey: '', properties: [] };
  const pk = h('input', { id: 'new-pk', required: true, oninput: e => { entity.PartitionKey = e.target.value; } });
  const rk = h('input', { id: 'new-rk', required: true, oninput: e => { entity.RowKey = e.target.value; } });
  const form = h('form', { id: 'new', class: 'card', onsubmit: async e => {
    e.preventDefault();
    try {
      await account.insertEntity(table, entity);
      say(`Inserted ${entity.PartitionKey} / ${entity.RowKey}.`);
      location.hash = `#/entity/${enc(table)}/${enc(entity.PartitionKey)}/${enc(entity.RowKey)}`;
    } catch (error) {
      fail(error);
    }
  } },
  h('label', { for: 'new-pk' }, 'PartitionKey'), pk, h('label', { for: 'new-rk' }, 'RowKey'), rk,
  propertyEditor(entity.properties), h('button', { type: 'submit', id: 'insert-entity' }, 'Insert'));
  show(`New entity in ${table}`, h('p', { class: 'links' }, h('a', { href: `#/table/${enc(table)}` }, `← ${table}`)), form);
  ready('new-entity');
}

// ---------------------------------------------------------------- cluster

async function clusterView() {
  const body = h('div', { id: 'cluster' });
  show('Cluster', body);
  if (account.kind !== 'key') {
    body.append(h('p', {}, 'The cluster view needs the account key (a SAS does not open it).'));
    ready('cluster');
    return;
  }
  const refresh = async () => {
    try {
      const c = await account.cluster();
      body.replaceChildren(h('p', {}, `${c.partitions} partitions; this page is served by ${c.self || 'this instance'}.`),
        h('table', { class: 'grid' }, h('caption', {}, 'Instances'),
          h('thead', {}, h('tr', {}, ...['Instance', 'Reachable', 'State', 'Active partitions', 'Standby partitions',
            'Lag (records)'].map(n => h('th', { scope: 'col' }, n)))),
          h('tbody', {}, ...(c.instances || []).map(i => h('tr', { class: i.reachable === false ? 'down' : '' },
            h('th', { scope: 'row' }, i.address || 'this instance'), h('td', {}, i.reachable === false ? 'no' : 'yes'),
            h('td', {}, i.state || ''), h('td', { class: 'active' }, (i.active || []).join(', ')),
            h('td', {}, (i.standby || []).join(', ')),
            h('td', {}, Object.entries(i.lag || {}).map(([p, l]) => `${p}: ${l}`).join(', ')))))));
      ready('cluster');
    } catch (error) {
      fail(error);
    }
  };
  await refresh();
  const timer = setInterval(refresh, 5000);
  leaveView = () => clearInterval(timer);
}

// ---------------------------------------------------------------- metrics

async function metricsView() {
  const charts = CHARTS.map(spec => new Chart(spec));
  const grid = h('div', { class: 'charts', id: 'charts' }, ...charts.map(c => c.figure));
  show('Metrics', h('p', {}, 'This instance, read every 2 seconds from ', h('a', { href: '/_metrics' }, '/_metrics'),
    ' (Prometheus format; point Prometheus and Grafana at it for history and every instance).'), grid);
  let previous = null;
  const read = async () => {
    try {
      const now = { samples: parsePrometheus(await metricsText(account)), at: performance.now() };
      if (previous) {
        const seconds = (now.at - previous.at) / 1000;
        charts.forEach(c => c.add(c.spec.value(previous.samples, now.samples, seconds)));
      }
      previous = now;
      ready('metrics');
    } catch (error) {
      fail(error);
    }
  };
  await read();
  const timer = setInterval(read, 2000);
  leaveView = () => clearInterval(timer);
}

// ---------------------------------------------------------------- routing

function route() {
  say('');
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (!account) {
    signInView();
    return;
  }
  document.getElementById('nav').hidden = false;
  document.getElementById('who').textContent = `${account.name} (${account.kind === 'key' ? 'account key' : 'SAS'})`;
  for (const a of document.querySelectorAll('#nav a')) {
    a.toggleAttribute('aria-current', a.getAttribute('href') === '#/' + parts[0]);
  }
  switch (parts[0]) {
    case 'table': return tableView(parts[1]);
    case 'entity': return entityView(parts[1], parts[2], parts[3]);
    case 'new': return newEntityView(parts[1]);
    case 'cluster': return clusterView();
    case 'metrics': return metricsView();
    default: return tablesView();
  }
}

document.getElementById('sign-out').addEventListener('click', () => {
  sessionStorage.removeItem(STORAGE_KEY);
  account = null;
  location.hash = '#/sign-in';
  route();
});
window.addEventListener('hashchange', route);
const saved = sessionStorage.getItem(STORAGE_KEY);
if (saved) {
  try {
    account = new Account(JSON.parse(saved));
  } catch (e) {
    sessionStorage.removeItem(STORAGE_KEY);
  }
}
route();
