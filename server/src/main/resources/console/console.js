// The Tablestream web console: tables, entities (and what Tablestream adds: history, point-in-time
// views, the change feed, counts, indexes, jobs), the cluster and key metrics, in the browser, signed
// with the account key or a SAS the user enters (kept for this browser tab only, in sessionStorage).

import { Account, metricsHistory } from './signing.js';
import { Chart } from './charts.js';
import { h, fill, say, fail, failIn, note, show, ready, onLeave, enc, duration, describe } from './ui.js';
import { tableView } from './table.js';
import { entityView, newEntityView, historyView } from './entity.js';
import { changesView, indexesView, sasView } from './feed.js';
import { jobsView } from './jobs.js';

const STORAGE_KEY = 'tablestream.console.credential';
const TABLES_PAGE = 200;
const HISTORY_REFRESH_MS = 5000;
let account = null;

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
  const ttl = h('input', { id: 'new-ttl', type: 'number', min: '1', placeholder: 'none', size: '10',
    title: 'Entities expire this many seconds after their last write, unless they say otherwise (TTLInSeconds)' });
  const retention = h('input', { id: 'new-retention', type: 'number', min: '1', placeholder: 'none', size: '10',
    title: 'Keep every version of each entity this many seconds: entity history and point-in-time views' });
  const createMessage = h('span', { class: 'note', id: 'create-message' });
  const create = h('form', { id: 'create-table', class: 'inline', onsubmit: async e => {
    e.preventDefault();
    try {
      await account.createTable(name.value, { ttl: ttl.value, retention: retention.value });
      say(`Created table ${name.value}.`);
      tablesView(prefix);
    } catch (error) {
      note(createMessage, describe(error), 'error');
      ready('tables');
    }
  } }, h('label', { for: 'new-table' }, 'New table'), name,
  h('label', { for: 'new-ttl' }, 'TTL (s)'), ttl, h('label', { for: 'new-retention' }, 'History (s)'), retention,
  h('button', { type: 'submit' }, 'Create'), createMessage);
  const search = h('input', { id: 'prefix', type: 'search', value: prefix, placeholder: 'Name starts with…' });
  const find = h('form', { class: 'inline', role: 'search', onsubmit: e => {
    e.preventDefault();
    tablesView(search.value.trim());
  } }, h('label', { for: 'prefix' }, 'Find'), search, h('button', { type: 'submit' }, 'Find'));
  const list = h('tbody', { id: 'tables' });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages of tables' });
  show('Tables', h('div', { class: 'toolbar' }, find, create),
    h('table', { class: 'grid' }, h('caption', {}, prefix ? `Tables starting with "${prefix}"` : 'Tables'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Default TTL'),
        h('th', { scope: 'col' }, 'History kept'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')))),
      list), pager);
  try {
    const page = await account.listTables({ top: TABLES_PAGE, next, prefix });
    fill(list, ...page.tables.map(t => h('tr', { dataset: { table: t.name } },
      h('td', {}, h('a', { href: `#/table/${enc(t.name)}` }, t.name)),
      h('td', { class: 'ttl' }, t.ttl ? duration(t.ttl) : '—'),
      h('td', { class: 'retention' }, t.retention ? duration(t.retention) : '—'),
      h('td', { class: 'actions' }, h('button', { type: 'button', class: 'danger', 'aria-label': `Delete table ${t.name}`,
        onclick: async () => {
          if (!confirm(`Delete the table ${t.name} and all its entities?`)) return;
          try {
            await account.deleteTable(t.name);
            say(`Deleted table ${t.name}.`);
            tablesView(prefix, next, pageNumber);
          } catch (error) {
            fail(error);
          }
        } }, 'Delete')))));
    if (page.tables.length === 0) list.append(h('tr', {}, h('td', { colspan: '4' }, 'No tables.')));
    fill(pager, h('span', {}, `Page ${pageNumber}`),
      pageNumber > 1 ? h('button', { type: 'button', onclick: () => tablesView(prefix) }, 'First page') : null,
      page.next ? h('button', { type: 'button', id: 'tables-next', onclick: () => tablesView(prefix, page.next, pageNumber + 1) },
        'Next page') : null);
  } catch (error) {
    fill(list, h('tr', {}, h('td', { colspan: '4', class: 'error', role: 'alert' }, describe(error))));
    fail(error);
  }
  ready('tables');
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
      fill(body, h('p', {}, `${c.partitions} partitions; this page is served by ${c.self || 'this instance'}.`),
        h('table', { class: 'grid' }, h('caption', {}, 'Instances'),
          h('thead', {}, h('tr', {}, ...['Instance', 'Reachable', 'State', 'Active partitions', 'Standby partitions',
            'Lag (records)'].map(n => h('th', { scope: 'col' }, n)))),
          h('tbody', {}, ...(c.instances || []).map(i => h('tr', { class: i.reachable === false ? 'down' : '' },
            h('th', { scope: 'row' }, i.address || 'this instance'), h('td', {}, i.reachable === false ? 'no' : 'yes'),
            h('td', {}, i.state || ''), h('td', { class: 'active' }, (i.active || []).join(', ')),
            h('td', {}, (i.standby || []).join(', ')),
            h('td', {}, Object.entries(i.lag || {}).map(([p, l]) => `${p}: ${l}`).join(', ')))))));
    } catch (error) {
      failIn(body, error);
    }
    ready('cluster');
  };
  await refresh();
  const timer = setInterval(refresh, 5000);
  onLeave(() => clearInterval(timer));
}

// ---------------------------------------------------------------- metrics

async function metricsView() {
  const grid = h('div', { class: 'charts', id: 'charts' });
  const message = h('p', { class: 'note', id: 'metrics-message' });
  show('Metrics', h('p', {}, 'This instance’s key metrics over the last minutes, kept by the server (',
    h('a', { href: '/_metrics/history' }, '/_metrics/history'), ') and refreshed every 5 seconds. For every instance and a longer'
    + ' history, point Prometheus and Grafana at ', h('a', { href: '/_metrics' }, '/_metrics'), '.'), message, grid);
  const charts = new Map();
  const read = async () => {
    try {
      const history = await metricsHistory(account);
      for (const spec of history.charts) {
        if (!charts.has(spec.id)) {
          const chart = new Chart(spec);
          charts.set(spec.id, chart);
          grid.append(chart.figure);
        }
        charts.get(spec.id).update(history.time, spec);
      }
      note(message, '');
    } catch (error) {
      note(message, describe(error), 'error');
    }
    ready('metrics');
  };
  await read();
  const timer = setInterval(read, HISTORY_REFRESH_MS);
  onLeave(() => {
    clearInterval(timer);
    for (const c of charts.values()) c.destroy();
  });
}

// ---------------------------------------------------------------- routing

function route() {
  say('');
  const [path, search] = location.hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').map(decodeURIComponent);
  const params = new URLSearchParams(search || '');
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
    case 'table': return tableView(account, parts[1]);
    case 'entity': return entityView(account, parts[1], parts[2], parts[3], params.get('asOf') || '');
    case 'history': return historyView(account, parts[1], parts[2], parts[3]);
    case 'new': return newEntityView(account, parts[1]);
    case 'changes': return changesView(account, parts[1]);
    case 'indexes': return indexesView(account, parts[1]);
    case 'sas': return sasView(account, parts[1]);
    case 'cluster': return clusterView();
    case 'metrics': return metricsView();
    case 'jobs': return jobsView(account);
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
