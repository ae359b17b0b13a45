// Chicago lobbyist disclosures from the City's data portal (https://data.cityofchicago.org).
// Live: the SODA API, paged with $limit/$offset and, after the first run, only rows the portal
// changed since the watermark (`:updated_at`). Recorded: the portal's CSV exports, either layout.
import { sql } from 'kysely';
import { type AdapterOutcome, type AdapterRun, counter } from './adapter.ts';
import { type CsvRow, cell, parseTable } from './csv.ts';
import {
  activityRow,
  clientId,
  compensationRow,
  contributionRow,
  DATASETS,
  type Dataset,
  employerId,
  expenditureRow,
  LOBBYING,
  lobbyistId,
  lobbyistRow,
  organisationRows,
} from './lobbying-map.ts';
import { nameTokens } from './names.ts';
import { chunks, type Db, insertMissing, type Row, upsertRows } from './store.ts';

export const LOBBYING_BASE_URL = 'https://data.cityofchicago.org';
const PAGE = 50_000;
const TX_ROWS = 2_000;

async function fetchRows(run: AdapterRun, ds: Dataset): Promise<CsvRow[] | null> {
  if (run.transport.recorded) {
    const text = await run.transport.text(`/${ds.file}`);
    return text === null ? null : parseTable(text);
  }
  const all: CsvRow[] = [];
  // Pages until an empty one: a portal may cap a page below the $limit asked for.
  for (let offset = 0; ; ) {
    const text = await run.transport.text(`/resource/${ds.id}.csv`, {
      $limit: PAGE,
      $offset: offset,
      $order: ':id',
      $where: run.since ? `:updated_at > '${run.since.slice(0, 19)}'` : undefined,
    });
    if (text === null) return offset === 0 ? null : all;
    const rows = parseTable(text);
    if (rows.length === 0) return all;
    all.push(...rows);
    offset += rows.length;
  }
}

/** Inserts the parents (lobbyists, employers, clients) a batch points at that are not stored yet. */
async function ensureParents(db: Db, rows: CsvRow[], url: string, currentYear: number): Promise<void> {
  const lobbyists = new Map<string, Row>();
  const orgs = { lobbying_employers: new Map<string, Row>(), lobbying_clients: new Map<string, Row>() };
  for (const r of rows) {
    const l = cell(r, 'LOBBYIST_ID');
    if (l && !lobbyists.has(lobbyistId(l))) {
      const person = lobbyistRow(r, url, currentYear);
      if (person) lobbyists.set(String(person.id), { ...person, current: false });
    }
    for (const [table, idCol, nameCol, makeId] of [
      ['lobbying_employers', 'EMPLOYER_ID', 'EMPLOYER_NAME', employerId],
      ['lobbying_clients', 'CLIENT_ID', 'CLIENT_NAME', clientId],
    ] as const) {
      const raw = cell(r, idCol);
      const name = cell(r, nameCol);
      if (!raw || !name) continue;
      const org: Row = { id: makeId(raw), name, source: LOBBYING, source_id: raw, source_url: url };
      orgs[table].set(makeId(raw), org);
    }
  }
  for (const [table, map] of [['people', lobbyists] as const, ...Object.entries(orgs)]) {
    const ids = [...map.keys()];
    const known = new Set<string>();
    for (const part of chunks(ids, 1000)) {
      const have = await sql<{ id: string }>`select id from ${sql.table(table)} where id in (${sql.join(part)})`.execute(db);
      for (const h of have.rows) known.add(h.id);
    }
    await upsertRows(
      db,
      table,
      [...map.values()].filter((r) => !known.has(String(r.id))),
    );
  }
}

// Words that may stand right before an alderperson's family name in a recipient's text.
const LEAD_INS = new Set(['for', 'of', 'to', 'the', 'alderman', 'alderwoman', 'alderperson', 'ald', 'elect', 'committee', 'friends', 'citizens']);

/**
 * Links a contribution's recipient text ("Citizens for Alderman Reilly", "Alderman Nick Sposato")
 * to a current alderperson when exactly one fits. The word before the family name must be that
 * person's given name (or its first three letters, for short forms) or a lead-in word, so
 * "Citizens for Joe Moore" does not link to a current alderperson named David Moore.
 */
export async function recipientMatcher(db: Db): Promise<(recipient: string) => string | null> {
  const alders = await sql<{ id: string; family_name: string | null; given_name: string | null }>`
    select id, family_name, given_name from people where kind = 'alderperson' and current order by id`.execute(db);
  const people = alders.rows
    .filter((a) => a.family_name)
    .map((a) => ({ id: a.id, family: nameTokens(a.family_name!), given: nameTokens(a.given_name ?? '')[0] ?? null }));
  return (recipient) => {
    const words = nameTokens(recipient);
    const fits = new Set<string>();
    for (const p of people) {
      for (let i = 0; i + p.family.length <= words.length; i++) {
        if (p.family.some((t, k) => words[i + k] !== t)) continue;
        const before = words[i - 1];
        if (
          before === undefined ||
          LEAD_INS.has(before) ||
          (p.given && (before === p.given || (before.length >= 3 && p.given.startsWith(before.slice(0, 3)))))
        ) {
          fits.add(p.id);
        }
      }
    }
    return fits.size === 1 ? [...fits][0]! : null;
  };
}

export async function syncLobbying(run: AdapterRun): Promise<AdapterOutcome> {
  const { db } = run;
  const currentYear = run.clock.now().getUTCFullYear();
  let seen = 0;
  let changed = 0;
  for (const ds of DATASETS) {
    const rows = await fetchRows(run, ds);
    if (rows === null) {
      run.progress(`${run.source}: ${ds.key}: not available, skipped`);
      continue;
    }
    const url = run.transport.url(`/resource/${ds.id}`);
    const tally = counter(run, ds.key, 5_000);
    const toRecipient = ds.key === 'contributions' ? await recipientMatcher(db) : null;
    if (ds.key === 'lobbyists') {
      // One row per lobbyist and registration year: the latest year must win across the file.
      const people = latestLobbyists(rows, url, currentYear);
      for (const part of chunks(people, TX_ROWS)) {
        tally.add(part.length, (await db.transaction().execute((trx) => upsertRows(trx, 'people', part))).size);
      }
    } else if (ds.key === 'employers' || ds.key === 'clients') {
      // Years are gathered across all rows of an organisation, so map the whole file at once.
      const orgs = organisationRows(rows, ds.key === 'employers' ? 'employer' : 'client', url);
      const table = ds.key === 'employers' ? 'lobbying_employers' : 'lobbying_clients';
      for (const part of chunks(orgs, TX_ROWS)) {
        tally.add(part.length, (await db.transaction().execute((trx) => upsertRows(trx, table, part))).size);
      }
    } else {
      for (const part of chunks(rows, TX_ROWS)) {
        const n = await db.transaction().execute(async (trx) => {
          await ensureParents(trx, part, url, currentYear);
          if (ds.key === 'combinations') return writeEngagements(trx, part);
          const mapped = part
            .map((r) => {
              if (ds.key === 'compensation') return compensationRow(r, url);
              if (ds.key === 'expenditures-large') return expenditureRow(r, url, 'large');
              if (ds.key === 'expenditures-small') return expenditureRow(r, url, 'small');
              if (ds.key === 'contributions') return contributionRow(r, url, toRecipient!);
              return activityRow(r, url);
            })
            .filter((r): r is Row => r !== null);
          const table = {
            compensation: 'lobbying_compensation',
            'expenditures-large': 'lobbying_expenditures',
            'expenditures-small': 'lobbying_expenditures',
            contributions: 'lobbying_contributions',
            activity: 'lobbying_activity',
          }[ds.key]!;
          return (await upsertRows(trx, table, dedupe(mapped))).size;
        });
        tally.add(part.length, n);
      }
    }
    const done = tally.done();
    seen += done.seen;
    changed += done.changed;
  }
  return { seen, changed, highWater: run.clock.now().toISOString() };
}

function dedupe(rows: Row[]): Row[] {
  return [...new Map(rows.map((r) => [String(r.id), r])).values()];
}

/** Lobbyists: one row per lobbyist and registration year; the latest year describes them. */
function latestLobbyists(rows: CsvRow[], url: string, currentYear: number): Row[] {
  const latest = new Map<string, { year: number; row: Row }>();
  for (const r of rows) {
    const person = lobbyistRow(r, url, currentYear);
    if (!person) continue;
    const year = Number(cell(r, 'YEAR') ?? 0) || 0;
    const had = latest.get(String(person.id));
    if (!had || year >= had.year) latest.set(String(person.id), { year, row: person });
  }
  return [...latest.values()].map((v) => v.row);
}

async function writeEngagements(db: Db, rows: CsvRow[]): Promise<number> {
  const links = rows
    .map((r) => ({ l: cell(r, 'LOBBYIST_ID'), e: cell(r, 'EMPLOYER_ID'), c: cell(r, 'CLIENT_ID'), y: Number(cell(r, 'YEAR')) }))
    .filter((x) => x.l && x.e && x.c && Number.isInteger(x.y) && x.y > 0)
    .map((x) => ({ lobbyist_id: lobbyistId(x.l!), employer_id: employerId(x.e!), client_id: clientId(x.c!), year: x.y }));
  const unique = [...new Map(links.map((k) => [`${k.lobbyist_id}|${k.employer_id}|${k.client_id}|${k.year}`, k])).values()];
  return insertMissing(db, 'lobbying_engagements', unique);
}
