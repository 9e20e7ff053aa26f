// Long-running operations: delete by filter, restore to a point in time, and the account's jobs
// ($jobs) with their progress.

import { h, fill, note, show, ready, onLeave, enc, count, describe } from './ui.js';

const JOB_POLL_MS = 500;

/** A job's state in words: "Running: 42,000 entities so far". */
export function jobText(job) {
  const what = job.Kind === 'Restore' ? `Restore of ${job.Table} into ${job.Target}${job.AsOf ? ` as of ${job.AsOf}` : ''}`
    : job.Kind === 'DeleteEntities' ? `Delete from ${job.Table} where ${job.Filter}` : `${job.Kind} on ${job.Table}`;
  const how = job.State === 'Running' ? `running: ${count(job.Entities)} entities so far`
    : job.State === 'Completed' ? `completed: ${count(job.Entities)} entities`
      : `failed after ${count(job.Entities)} entities: ${job.Error ? `${job.Error.Code}: ${job.Error.Message}` : 'no reason given'}`;
  return `${what} — ${how}`;
}

/**
 * Follows a job until it finishes, its progress in {@code where}; resolves with its last status.
 * Stops (resolving null) when {@code signal} is aborted.
 */
export async function followJob(account, job, where, signal = null) {
  let current = job;
  while (current.State === 'Running') {
    note(where, jobText(current));
    await new Promise(resolve => setTimeout(resolve, JOB_POLL_MS));
    if (signal && signal.aborted) return null;
    current = await account.job(current.Id);
  }
  note(where, jobText(current), current.State === 'Failed' ? 'error' : 'info');
  return current;
}

/** The account's jobs, newest first, refreshed while any runs. */
export function jobsView(account) {
  const list = h('div', { id: 'jobs' });
  const message = h('p', { class: 'note', id: 'jobs-message' });
  let timer = null;
  const refresh = async () => {
    try {
      const jobs = await account.jobs();
      fill(list, jobs.length === 0 ? h('p', {}, 'No job yet: delete by filter and restore (in a table’s view) run as jobs.')
        : h('table', { class: 'grid' }, h('caption', {}, 'Jobs, newest first'),
          h('thead', {}, h('tr', {}, ...['Kind', 'Table', 'State', 'Entities', 'Started', 'Finished', 'Details']
            .map(n => h('th', { scope: 'col' }, n)))),
          h('tbody', {}, ...jobs.map(j => h('tr', { dataset: { job: j.Id, state: j.State } },
            h('td', {}, j.Kind), h('td', {}, h('a', { href: `#/table/${enc(j.Table)}` }, j.Table)),
            h('td', { class: j.State === 'Failed' ? 'error' : '' }, j.State), h('td', {}, count(j.Entities)),
            h('td', { class: 'timestamp' }, j.StartedAt || ''), h('td', { class: 'timestamp' }, j.FinishedAt || ''),
            h('td', {}, j.Kind === 'Restore' ? `into ${j.Target}${j.AsOf ? ` as of ${j.AsOf}` : ''}`
              : j.Filter ? `where ${j.Filter}` : '', j.Error ? ` — ${j.Error.Code}: ${j.Error.Message}` : ''))))));
      note(message, '');
      if (jobs.some(j => j.State === 'Running')) timer = setTimeout(refresh, JOB_POLL_MS);
    } catch (error) {
      note(message, describe(error), 'error');
    }
    ready('jobs');
  };
  show('Jobs', message, list);
  onLeave(() => clearTimeout(timer));
  refresh();
}

/**
 * The table view's job forms: delete what the current filter matches, and restore the table (as
 * of a time) into a new one; each followed to its end.
 */
export function jobForms(account, table, currentFilter, afterwards) {
  const deleteMessage = h('span', { class: 'note', id: 'delete-matches-message' });
  const deleteMatches = h('button', { type: 'button', class: 'danger', id: 'delete-matches', onclick: async () => {
    const filter = currentFilter();
    if (!filter) {
      note(deleteMessage, 'Type a $filter first: deleting by filter needs one (Delete Table deletes a whole table).', 'error');
      return;
    }
    if (!confirm(`Delete every entity of ${table} that matches\n${filter}\n(as it stands now; a job)?`)) return;
    try {
      const job = await account.deleteByFilter(table, filter);
      const done = await followJob(account, job, deleteMessage);
      if (done && done.State === 'Completed') await afterwards();
    } catch (error) {
      note(deleteMessage, describe(error), 'error');
    }
    ready('job-done');
  } }, 'Delete every match');
  const target = h('input', { id: 'restore-target', required: true, pattern: '[A-Za-z][A-Za-z0-9]{2,62}',
    title: 'The new table: 3 to 63 letters and digits, starting with a letter' });
  const asOf = h('input', { id: 'restore-as-of', placeholder: 'now (a copy)', size: '30' });
  const restoreMessage = h('span', { class: 'note', id: 'restore-message' });
  const restore = h('form', { id: 'restore', class: 'inline', onsubmit: async e => {
    e.preventDefault();
    try {
      const job = await account.restore(table, target.value.trim(), asOf.value.trim());
      const done = await followJob(account, job, restoreMessage);
      if (done && done.State === 'Completed') {
        restoreMessage.append(' ', h('a', { href: `#/table/${enc(done.Target)}`, id: 'restored-table' }, `Open ${done.Target}`));
      }
    } catch (error) {
      note(restoreMessage, describe(error), 'error');
    }
    ready('job-done');
  } }, h('label', { for: 'restore-target' }, 'Restore into new table'), target,
  h('label', { for: 'restore-as-of' }, 'as of'), asOf, h('button', { type: 'submit' }, 'Restore'), restoreMessage);
  return [h('div', { class: 'inline' }, deleteMatches, deleteMessage), restore];
}
