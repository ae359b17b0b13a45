// Chicago lobbyist disclosures from the City's data portal (https://data.cityofchicago.org).
// Live: the SODA API, paged with $limit/$offset and, after the first run, only rows the portal
// changed since the watermark (`:updated_at`). Recorded: the portal's CSV exports, either layout.
import { sql } from 'kysely';
import { type AdapterOutcome, type AdapterRun, counter } from './adapter.ts';
import { type CsvRow, cell, parseTable } from './csv.ts';
import { CurrentIndex, isLegacy, legacyEra, recordedSnapshots, type Snapshot } from './lobbying-eras.ts';
import {
  activityRow,
  CURRENT_ERA,
  clientId,
  compensationRow,
  contributionRow,
  DATASETS,
  type Dataset,
  type Era,
  employerId,
  expenditureRow,
  giftRow,
  LOBBYING,
  lobbyistRow,
  organisationRows,
  type RowContext,
  repeatedIds,
} from './lobbying-map.ts';
import { nameTokens } from './names.ts';
import { chunks, type Db, insertMissing, type Row, upsertRows } from './store.ts';

export const LOBBYING_BASE_URL = 'https://data.cityofchicago.org';
const PAGE = 50_000;
const TX_ROWS = 2_000;

async function fetchRows(run: AdapterRun, ds: Dataset, folder: string): Promise<CsvRow[] | null> {
  if (run.transport.recorded) {
    for (const file of ds.files) {
      const text = await run.transport.text(`${folder}/${file}`);
      if (text !== null) return parseTable(text);
    }
    return null;
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

/**
 * Inserts the parents (lobbyists, employers, clients) a batch points at that are not stored yet.
 * `combos`: a Combinations file of the current numbering, whose employer and client ids may be
 * legacy ones (resolved through this run's current exports, else kept as legacy keys).
 */
async function ensureParents(db: Db, rows: CsvRow[], url: string, currentYear: number, era: Era, combos: CurrentIndex | null): Promise<void> {
  const lobbyists = new Map<string, Row>();
  const orgs = { lobbying_employers: new Map<string, Row>(), lobbying_clients: new Map<string, Row>() };
  for (const r of rows) {
    const person = lobbyistRow(r, url, currentYear, era);
    if (person && !lobbyists.has(String(person.id))) lobbyists.set(String(person.id), { ...person, current: false });
    for (const [table, idCol, nameCol, kind] of [
      ['lobbying_employers', 'EMPLOYER_ID', 'EMPLOYER_NAME', 'employer'],
      ['lobbying_clients', 'CLIENT_ID', 'CLIENT_NAME', 'client'],
    ] as const) {
      const raw = cell(r, idCol);
      const name = cell(r, nameCol);
      if (!raw || !name) continue;
      const own = kind === 'employer' ? employerId(raw) : clientId(raw);
      const { id, legacy } = combos ? combos.organisation(kind, raw, name, Number(cell(r, 'YEAR'))) : { id: own, legacy: era.legacy };
      // Resolved by name to an organisation of this run's exports: that one is stored already.
      if (id !== own) continue;
      orgs[table].set(id, { id, name, source: LOBBYING, source_id: legacy ? `legacy:${raw}` : raw, source_url: url });
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

const REPORT_TABLES: Record<string, string> = {
  compensation: 'lobbying_compensation',
  'expenditures-large': 'lobbying_expenditures',
  'expenditures-small': 'lobbying_expenditures',
  'expenditures-hosting': 'lobbying_expenditures',
  contributions: 'lobbying_contributions',
  gifts: 'lobbying_gifts',
  activity: 'lobbying_activity',
};

/**
 * Live: the portal's datasets, one export of the current numbering. Recorded: a directory of CSV
 * exports, or of dated snapshots (snapshots.json) read newest first, each in its own numbering
 * (lobbying-eras.ts). A record a newer export already wrote in this run is not written again from
 * an older one, so a second run over the same files changes nothing.
 */
export async function syncLobbying(run: AdapterRun): Promise<AdapterOutcome> {
  const snapshots = await recordedSnapshots(run.transport);
  const index = new CurrentIndex();
  const written = new Set<string>();
  let seen = 0;
  let changed = 0;
  for (const snap of snapshots ?? [null]) {
    const done = await syncExport(run, snap, index, written);
    seen += done.seen;
    changed += done.changed;
  }
  return { seen, changed, highWater: run.clock.now().toISOString() };
}

async function syncExport(run: AdapterRun, snap: Snapshot | null, index: CurrentIndex, written: Set<string>): Promise<{ seen: number; changed: number }> {
  const { db } = run;
  const currentYear = run.clock.now().getUTCFullYear();
  const folder = snap ? `/${snap.folder}` : '';
  const files = new Map<string, CsvRow[] | null>();
  for (const ds of DATASETS) files.set(ds.key, await fetchRows(run, ds, folder));
  let era: Era = CURRENT_ERA;
  if (snap && isLegacy(snap.exported)) {
    const legacy = legacyEra(
      [...files.values()].filter((f): f is CsvRow[] => f !== null),
      index,
    );
    run.progress(
      `${run.source}: ${snap.folder} uses the ids from before the City's 2020 renumbering: ${legacy.reconciled} lobbyists matched by name to one current lobbyist, ${legacy.apart} kept apart`,
    );
    era = legacy;
  }
  /** Rows not yet written in this run (a newer export wins), marked as written now. */
  const fresh = (table: string, rows: Row[]) =>
    rows.filter((r) => {
      const key = `${table}|${r.id}`;
      return !written.has(key) && written.add(key);
    });
  let seen = 0;
  let changed = 0;
  for (const ds of DATASETS) {
    const rows = files.get(ds.key)!;
    const label = snap ? `${ds.key} (${snap.folder})` : ds.key;
    if (rows === null) {
      run.progress(`${run.source}: ${label}: not available, skipped`);
      continue;
    }
    const url = run.transport.url(`/resource/${ds.id}`);
    const tally = counter(run, label, 5_000);
    const toRecipient = ds.key === 'contributions' || ds.key === 'gifts' ? await recipientMatcher(db) : null;
    if (ds.key === 'lobbyists') {
      // One row per lobbyist and registration year: the latest year must win across the file.
      const people = latestLobbyists(rows, url, currentYear, era);
      if (!era.legacy) {
        for (const r of rows) {
          const raw = cell(r, 'LOBBYIST_ID');
          if (raw) index.addLobbyist(era.lobbyist(raw), cell(r, 'FIRST_NAME'), cell(r, 'LAST_NAME'), cell(r, 'EMPLOYER_NAME'));
        }
      }
      for (const part of chunks(fresh('people', people), TX_ROWS)) {
        tally.add(part.length, (await db.transaction().execute((trx) => upsertRows(trx, 'people', part))).size);
      }
    } else if (ds.key === 'employers' || ds.key === 'clients') {
      // Years are gathered across all rows of an organisation, so map the whole file at once.
      const kind = ds.key === 'employers' ? 'employer' : 'client';
      const orgs = organisationRows(rows, kind, url, era);
      if (!era.legacy) for (const o of orgs) index.addOrganisation(kind, String(o.id), o.name as string, o.years as number[]);
      const table = ds.key === 'employers' ? 'lobbying_employers' : 'lobbying_clients';
      for (const part of chunks(fresh(table, orgs), TX_ROWS)) {
        tally.add(part.length, (await db.transaction().execute((trx) => upsertRows(trx, table, part))).size);
      }
    } else {
      const combos = ds.key === 'combinations' && !era.legacy ? index : null;
      const at: RowContext = {
        url,
        era,
        repeated: ds.record ? repeatedIds(rows, ds.record) : new Set(),
        recipient: toRecipient ?? (() => null),
      };
      for (const part of chunks(rows, TX_ROWS)) {
        const n = await db.transaction().execute(async (trx) => {
          await ensureParents(trx, part, url, currentYear, era, combos);
          if (ds.key === 'combinations') return writeEngagements(trx, part, era, combos);
          const mapped = part
            .map((r) => {
              if (ds.key === 'compensation') return compensationRow(r, at);
              if (ds.key === 'expenditures-large') return expenditureRow(r, at, 'large');
              if (ds.key === 'expenditures-small') return expenditureRow(r, at, 'small');
              if (ds.key === 'expenditures-hosting') return expenditureRow(r, at, 'hosting');
              if (ds.key === 'contributions') return contributionRow(r, at);
              if (ds.key === 'gifts') return giftRow(r, at);
              return activityRow(r, at);
            })
            .filter((r): r is Row => r !== null);
          const table = REPORT_TABLES[ds.key]!;
          return (await upsertRows(trx, table, fresh(table, dedupe(mapped)))).size;
        });
        tally.add(part.length, n);
      }
    }
    const done = tally.done();
    seen += done.seen;
    changed += done.changed;
  }
  return { seen, changed };
}

function dedupe(rows: Row[]): Row[] {
  return [...new Map(rows.map((r) => [String(r.id), r])).values()];
}

/** Lobbyists: one row per lobbyist and registration year; the latest year describes them. */
function latestLobbyists(rows: CsvRow[], url: string, currentYear: number, era: Era): Row[] {
  const latest = new Map<string, { year: number; row: Row }>();
  for (const r of rows) {
    const person = lobbyistRow(r, url, currentYear, era);
    if (!person) continue;
    const year = Number(cell(r, 'YEAR') ?? 0) || 0;
    const had = latest.get(String(person.id));
    if (!had || year >= had.year) latest.set(String(person.id), { year, row: person });
  }
  return [...latest.values()].map((v) => v.row);
}

async function writeEngagements(db: Db, rows: CsvRow[], era: Era, combos: CurrentIndex | null): Promise<number> {
  const org = (kind: 'employer' | 'client', raw: string, name: string | null, year: number) =>
    combos ? combos.organisation(kind, raw, name, year).id : kind === 'employer' ? employerId(raw) : clientId(raw);
  const links = rows
    .map((r) => ({ r, l: cell(r, 'LOBBYIST_ID'), e: cell(r, 'EMPLOYER_ID'), c: cell(r, 'CLIENT_ID'), y: Number(cell(r, 'YEAR')) }))
    .filter((x) => x.l && x.e && x.c && Number.isInteger(x.y) && x.y > 0)
    .map((x) => ({
      lobbyist_id: era.lobbyist(x.l!),
      employer_id: org('employer', x.e!, cell(x.r, 'EMPLOYER_NAME'), x.y),
      client_id: org('client', x.c!, cell(x.r, 'CLIENT_NAME'), x.y),
      year: x.y,
    }));
  const unique = [...new Map(links.map((k) => [`${k.lobbyist_id}|${k.employer_id}|${k.client_id}|${k.year}`, k])).values()];
  return insertMissing(db, 'lobbying_engagements', unique);
}
