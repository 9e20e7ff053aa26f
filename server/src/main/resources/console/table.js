// A table's entities: the filter builder, paging, a point-in-time view (asOf), $count of the filter,
// column choice, multi-select delete, delete a partition, delete by filter and restore (jobs), export
// of the query and import of a file.

import { TYPES } from './signing.js';
import { OPERATORS, buildFilter } from './filters.js';
import { h, fill, say, failIn, note, show, ready, enc, download, count, duration, describe } from './ui.js';
import { toLine, toCsv, readEntities, batches } from './transfer.js';
import { jobForms } from './jobs.js';

/**
 * What each table's view remembers for this browser tab (sessionStorage): the last query that ran
 * (a query that failed is not remembered), the columns hidden.
 */
const STATE_KEY = 'tablestream.console.table.';

function loadState(account, table) {
  try {
    return JSON.parse(sessionStorage.getItem(`${STATE_KEY}${account.name}/${table}`));
  } catch (e) {
    return null;
  }
}

function saveState(account, table, state) {
  sessionStorage.setItem(`${STATE_KEY}${account.name}/${table}`, JSON.stringify(state));
}
const EXPORT_PAGE = 1000;
const IMPORT_IN_FLIGHT = 4;

/** The links every view of a table shows. */
export function tableLinks(table, current) {
  const links = [['', `← ${table}`], ['indexes', 'Indexes'], ['changes', 'Change feed'], ['sas', 'SAS']];
  return h('p', { class: 'links' }, h('a', { href: '#/tables' }, '← Tables'),
    ...links.map(([view, label]) => view === current ? null
      : h('a', { href: view ? `#/${view}/${enc(table)}` : `#/table/${enc(table)}`, id: `link-${view || 'table'}` }, label)));
}

/** "Default TTL 1 day · history kept 30 days", or what the table has not. */
export function settingsText(settings) {
  return [settings.ttl ? `Entities expire after ${duration(settings.ttl)} by default` : 'No default time-to-live',
    settings.retention ? `history kept ${duration(settings.retention)}`
      : 'no history (entity history and point-in-time views need a table created with a history retention)'].join(' · ');
}

export function tableView(account, table) {
  const state = Object.assign({ conditions: [], join: 'and', filter: '', select: '', top: '50', asOf: '', hidden: [] },
    loadState(account, table));
  const filter = h('textarea', { id: 'filter', rows: '2', spellcheck: 'false', 'aria-describedby': 'filter-help' });
  filter.value = state.filter;
  const select = h('input', { id: 'select', value: state.select, placeholder: 'all properties' });
  const top = h('select', { id: 'top' }, ...['10', '50', '100', '1000'].map(n => h('option', { value: n, selected: n === state.top }, n)));
  const asOf = h('input', { id: 'as-of', value: state.asOf, placeholder: 'now', size: '30', disabled: true,
    title: 'A UTC time such as 2026-11-24T11:00:00Z: the table as it was then (a table with history)' });
  const join = h('select', { id: 'join', 'aria-label': 'Join conditions with' },
    h('option', { value: 'and', selected: state.join === 'and' }, 'all (and)'),
    h('option', { value: 'or', selected: state.join === 'or' }, 'any (or)'));
  const rows = h('div', { id: 'conditions' });
  const known = h('datalist', { id: 'property-names' },
    ...['PartitionKey', 'RowKey', 'Timestamp'].map(n => h('option', { value: n })));
  const formMessage = h('p', { id: 'query-message', class: 'note' });
  const settingsLine = h('p', { id: 'table-settings', class: 'help' }, 'Reading the table’s settings…');

  const rebuild = () => {
    try {
      filter.value = buildFilter(state.conditions, join.value);
      filter.setCustomValidity('');
      note(formMessage, '');
    } catch (error) {
      filter.setCustomValidity(error.message);
      note(formMessage, error.message, 'error');
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
  const renderConditions = () => fill(rows, ...state.conditions.map(conditionRow));
  renderConditions();

  const results = h('div', { id: 'results', 'aria-live': 'polite' });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages of entities' });
  const countResult = h('span', { id: 'count-result', class: 'note' });
  const tools = h('div', { id: 'row-tools', class: 'inline' });
  const transferStatus = h('p', { id: 'transfer-status', class: 'note' });
  let pages = [null];
  let current = 0;
  let page = null;
  let names = [];
  let counting = null;

  /** The query as typed now (what Count and Export use; Run query remembers it once it ran). */
  const query = () => ({ filter: filter.value.trim(), select: select.value.trim(), asOf: asOf.value.trim() });

  const render = () => {
    const visible = names.filter(n => !state.hidden.includes(n));
    const selectAll = h('input', { type: 'checkbox', id: 'select-all', 'aria-label': 'Select every entity of the page',
      onchange: e => { for (const c of results.querySelectorAll('tbody input[type=checkbox]')) c.checked = e.target.checked; updateTools(); } });
    fill(results, h('table', { class: 'grid entities' },
      h('caption', {}, `${page.entities.length} entit${page.entities.length === 1 ? 'y' : 'ies'} on page ${current + 1}`
        + (state.asOf ? ` as of ${state.asOf}` : '')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'pick' }, selectAll),
        ...['PartitionKey', 'RowKey', 'Timestamp', ...visible].map(n => h('th', { scope: 'col' }, n)))),
      h('tbody', {}, ...page.entities.map((e, i) => h('tr', { dataset: { pk: e.PartitionKey, rk: e.RowKey } },
        h('td', { class: 'pick' }, h('input', { type: 'checkbox', 'aria-label': `Select ${e.PartitionKey} / ${e.RowKey}`,
          dataset: { index: String(i) }, onchange: updateTools })),
        h('th', { scope: 'row' }, h('a', { href: `#/entity/${enc(table)}/${enc(e.PartitionKey)}/${enc(e.RowKey)}`
          + (state.asOf ? `?asOf=${enc(state.asOf)}` : '') }, e.PartitionKey)),
        h('td', {}, e.RowKey), h('td', { class: 'timestamp' }, e.Timestamp || ''),
        ...visible.map(n => {
          const p = e.properties.find(q => q.name === n);
          return p ? h('td', { title: p.type, dataset: { type: p.type, property: n } }, h('span', { class: 'value' }, p.value),
            p.type === 'Edm.String' ? null : h('span', { class: 'type' }, p.type.slice(4))) : h('td', { class: 'absent' });
        }))))));
    updateTools();
  };

  const selected = () => [...results.querySelectorAll('tbody input[type=checkbox]:checked')]
    .map(c => page.entities[Number(c.dataset.index)]);

  const columns = h('details', { id: 'columns', class: 'columns' }, h('summary', {}, 'Columns'));
  const renderColumns = () => fill(columns, h('summary', {}, `Columns (${names.length - state.hidden.filter(n => names.includes(n)).length} of ${names.length})`),
    ...names.map(n => h('label', {}, h('input', { type: 'checkbox', checked: !state.hidden.includes(n), dataset: { column: n },
      onchange: e => {
        state.hidden = e.target.checked ? state.hidden.filter(x => x !== n) : [...state.hidden, n];
        saveState(account, table, state);
        render();
        renderColumns();
        columns.open = true;
      } }), ` ${n}`)));

  const deleteSelected = h('button', { type: 'button', class: 'danger', id: 'delete-selected', disabled: true,
    onclick: async () => {
      const chosen = selected();
      if (chosen.length === 0 || !confirm(`Delete ${chosen.length} selected entit${chosen.length === 1 ? 'y' : 'ies'}?`)) return;
      const byPartition = new Map();
      for (const e of chosen) {
        if (!byPartition.has(e.PartitionKey)) byPartition.set(e.PartitionKey, []);
        byPartition.get(e.PartitionKey).push(e);
      }
      let done = 0;
      try {
        for (const group of byPartition.values()) {
          for (let i = 0; i < group.length; i += 100) {
            const part = group.slice(i, i + 100);
            await account.batch(table, part.map(e => ({ method: 'DELETE', pk: e.PartitionKey, rk: e.RowKey, etag: e.etag || '*' })));
            done += part.length;
          }
        }
        say(`Deleted ${count(done)} entit${done === 1 ? 'y' : 'ies'}.`);
        await run();
      } catch (error) {
        const message = error.status === 412 ? 'Someone changed one of them since this page was read: nothing of its'
          + ' partition was deleted. Run the query again to see the current versions.' : describe(error);
        note(transferStatus, `${count(done)} deleted; then: ${message}`, 'error');
      }
    } }, 'Delete selected');
  const updateTools = () => {
    const n = results.querySelectorAll('tbody input[type=checkbox]:checked').length;
    deleteSelected.disabled = n === 0 || Boolean(state.asOf);
    deleteSelected.textContent = n ? `Delete ${n} selected` : 'Delete selected';
  };

  const run = async () => {
    const q = query();
    try {
      if (q.asOf && !/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,7})?)?Z$/.test(q.asOf)) {
        throw new Error(`asOf '${q.asOf}' is not a UTC time such as 2026-11-24T11:00:00Z.`);
      }
      page = await account.queryEntities(table, { ...q, top: top.value, next: pages[current] });
      // the query ran: remember it (a query that fails is not remembered, so reopening the table never re-runs it)
      Object.assign(state, q, { top: top.value, join: join.value });
      saveState(account, table, state);
      names = [];
      for (const e of page.entities) for (const p of e.properties) if (!names.includes(p.name)) names.push(p.name);
      for (const n of names) if (![...known.options].some(o => o.value === n)) known.append(h('option', { value: n }));
      render();
      renderColumns();
      pages = pages.slice(0, current + 1);
      if (page.next) pages.push(page.next);
      fill(pager,
        h('button', { type: 'button', id: 'previous-page', disabled: current === 0, onclick: () => { current--; run(); } }, 'Previous page'),
        h('span', {}, `Page ${current + 1}`),
        h('button', { type: 'button', id: 'next-page', disabled: !page.next, onclick: () => { current++; run(); } }, 'Next page'));
      note(formMessage, page.entities.length || current > 0 ? '' : 'No entity matches.');
      say('');
    } catch (error) {
      page = null;
      fill(pager);
      failIn(results, error, current > 0 ? h('button', { type: 'button', onclick: () => { current = 0; pages = [null]; run(); } },
        'Back to the first page') : null);
      updateTools();
    }
    ready('table');
  };

  const countButton = h('button', { type: 'button', id: 'count', onclick: async () => {
    if (counting) {
      counting.abort();
      return;
    }
    counting = new AbortController();
    countButton.textContent = 'Stop counting';
    note(countResult, 'Counting…');
    try {
      const r = await account.count(table, { ...query(), signal: counting.signal,
        progress: n => note(countResult, `Counting… ${count(n)} so far`) });
      note(countResult, r.partial ? `At least ${count(r.count)} match (stopped)`
        : `${count(r.count)} entit${r.count === 1 ? 'y matches' : 'ies match'}`);
    } catch (error) {
      note(countResult, describe(error), 'error');
    } finally {
      counting = null;
      countButton.textContent = 'Count matches';
      ready('count');
    }
  } }, 'Count matches');

  const exportAs = csv => async () => {
    const q = query();
    const raws = [];
    let next = null;
    try {
      do {
        note(transferStatus, `Exporting… ${count(raws.length)} entities`);
        const p = await account.queryEntities(table, { ...q, top: EXPORT_PAGE, next });
        raws.push(...p.raw);
        next = p.next;
      } while (next);
      const base = `${table}${q.asOf ? '-' + q.asOf.replace(/[:.]/g, '') : ''}`;
      if (csv) download(`${base}.csv`, toCsv(raws), 'text/csv');
      else download(`${base}.jsonl`, raws.map(r => toLine(r) + '\n'), 'application/x-ndjson');
      note(transferStatus, `Exported ${count(raws.length)} entities to ${base}.${csv ? 'csv' : 'jsonl'}.`);
    } catch (error) {
      note(transferStatus, `Export failed after ${count(raws.length)} entities, no file made: ${describe(error)}`, 'error');
    }
    ready('export');
  };

  const importFile = h('input', { type: 'file', id: 'import-file', accept: '.jsonl,.json,.ndjson,.csv,text/csv',
    onchange: async e => {
      const file = e.target.files[0];
      if (!file) return;
      await importEntities(account, table, file, transferStatus);
      e.target.value = '';
      current = 0;
      pages = [null];
      await run();
      ready('import');
    } });

  const partitionKey = h('input', { id: 'partition-pk', required: true, 'aria-label': 'PartitionKey to delete' });
  const partitionMessage = h('span', { class: 'note', id: 'partition-message' });
  const deletePartition = h('form', { id: 'delete-partition', class: 'inline', onsubmit: async e => {
    e.preventDefault();
    const pk = partitionKey.value;
    if (!confirm(`Delete every entity of the partition '${pk}' in ${table}?`)) return;
    try {
      await account.deletePartition(table, pk);
      note(partitionMessage, `Deleted the partition '${pk}'.`);
      await run();
    } catch (error) {
      note(partitionMessage, describe(error), 'error');
    }
    ready('partition-deleted');
  } }, h('label', { for: 'partition-pk' }, 'Delete partition'), partitionKey,
  h('button', { type: 'submit', class: 'danger' }, 'Delete partition'), partitionMessage);

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
    h('code', {}, "PartitionKey eq 'p1' and Total gt 10.5"),
    '. Literals are typed: a Double property matches 100.0, not 100 (an Int32), as in Azure.'),
  h('div', { class: 'inline' }, h('label', { for: 'select' }, '$select'), select,
    h('label', { for: 'top' }, 'Page size'), top, h('label', { for: 'as-of' }, 'As of'), asOf),
  h('div', { class: 'inline' }, h('button', { type: 'submit', id: 'run-query' }, 'Run query'), countButton, countResult),
  formMessage, known);
  join.addEventListener('change', rebuild);

  fill(tools, columns, deleteSelected,
    h('button', { type: 'button', id: 'export-jsonl', onclick: exportAs(false) }, 'Export JSON Lines'),
    h('button', { type: 'button', id: 'export-csv', onclick: exportAs(true) }, 'Export CSV'),
    h('label', { class: 'file' }, 'Import a file ', importFile));

  show(table, tableLinks(table, ''), settingsLine,
    h('p', { class: 'links' }, h('a', { href: `#/new/${enc(table)}`, id: 'new-entity' }, 'New entity')),
    form, tools, transferStatus, results, pager, h('div', { class: 'card danger-zone' }, deletePartition,
      ...jobForms(account, table, () => filter.value.trim(), async () => { current = 0; pages = [null]; await run(); })));

  account.getTable(table).then(settings => {
    fill(settingsLine, settingsText(settings));
    asOf.disabled = !settings.retention;
    if (!settings.retention) asOf.title = 'Point-in-time views need a table created with a history retention';
  }).catch(error => note(settingsLine, describe(error), 'error'));
  run();
}

/**
 * Imports a JSON Lines or CSV file into {@code table}: its entities grouped by PartitionKey (the
 * file may be in any order) into entity group transactions of up to 100 (Insert Or Replace), a few
 * at once, one partition's in file order. Progress and the first refusal go to {@code where}.
 */
async function importEntities(account, table, file, where) {
  let entities;
  try {
    entities = readEntities(await file.text(), /\.csv$/i.test(file.name) || file.type === 'text/csv');
  } catch (error) {
    note(where, `${file.name}: ${describe(error)}`, 'error');
    return;
  }
  const groups = new Map();
  for (const b of batches(entities)) {
    if (!groups.has(b[0].pk)) groups.set(b[0].pk, []);
    groups.get(b[0].pk).push(b);
  }
  const queue = [...groups.values()];
  let written = 0;
  let failure = null;
  const worker = async () => {
    while (queue.length && !failure) {
      for (const b of queue.shift()) {
        if (failure) return;
        try {
          await account.batch(table, b.map(e => ({ method: 'PUT', pk: e.pk, rk: e.rk, entity: e.entity, body: e.body })));
          written += b.length;
          note(where, `Importing ${file.name}… ${count(written)} of ${count(entities.length)} entities`);
        } catch (error) {
          failure = `${file.name}, line ${b[0].line}${b.length > 1 ? ` (a batch of ${b.length} from that line)` : ''}: ${describe(error)}`;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: IMPORT_IN_FLIGHT }, worker));
  if (failure) note(where, `Imported ${count(written)} of ${count(entities.length)} entities; stopped at ${failure}`, 'error');
  else note(where, `Imported ${count(written)} entities from ${file.name}.`);
}
