// Campaign money of aldermanic committees: Illinois State Board of Elections data as served by
// Illinois Sunshine (https://illinoissunshine.org/api/receipts/?committee_id=N&datatype=csv).
// Recorded layout (--from): committees.csv (ward, alderman_name, isbe_committee_id, optionally
// committee_name), then receipts/<isbe id>.tsv|csv and expenditures/<isbe id>.tsv|csv, in Illinois
// Sunshine's column shape (receipts: last_name, received_date, amount, …; expenditures: id,
// last_name, expended_date, amount, purpose, address1, …).
// A row with Illinois Sunshine's `id` keeps it; the derived receipts files have none, so each of
// their rows gets a stable one: a hash of its source fields plus an occurrence number for identical
// rows; re-reading the same rows gives the same ids.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { AppError } from '../../../kernel/errors.ts';
import { type AdapterOutcome, type AdapterRun, counter } from './adapter.ts';
import { type CsvRow, cell, isoDate, money, parseTable } from './csv.ts';
import { loadMatcher } from './names.ts';
import { chunks, type Row, upsertRows } from './store.ts';
import { later } from './sync-state.ts';

export const CAMPAIGN_FINANCE_BASE_URL = 'https://illinoissunshine.org';
const SOURCE = 'campaign_finance';
const RECEIPT_FIELDS = ['LAST_NAME', 'FIRST_NAME', 'RECEIVED_DATE', 'AMOUNT', 'OCCUPATION', 'EMPLOYER', 'ADDRESS1', 'ADDRESS2', 'CITY', 'STATE', 'ZIPCODE'];
const EXPENDITURE_FIELDS = ['LAST_NAME', 'FIRST_NAME', 'EXPENDED_DATE', 'AMOUNT', 'PURPOSE', 'ADDRESS1', 'ADDRESS2', 'CITY', 'STATE', 'ZIPCODE'];

interface Committee {
  isbeId: string;
  ward: number | null;
  aldermanName: string | null;
  /** The committee's own name, where the map gives one (else it is named after its alderperson). */
  committeeName: string | null;
}

function table(text: string): CsvRow[] {
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  return parseTable(text, firstLine.includes('\t') ? '\t' : ',');
}

async function committeeList(run: AdapterRun): Promise<Committee[]> {
  if (run.transport.recorded) {
    const text = await run.transport.text('/committees.csv');
    if (text === null) throw new AppError('invalid_request', '--from: committees.csv (ward, alderman_name, isbe_committee_id) not found');
    const byId = new Map<string, Committee>();
    for (const r of table(text)) {
      const isbeId = cell(r, 'ISBE_COMMITTEE_ID', 'COMMITTEE_ID');
      const ward = Number(cell(r, 'WARD'));
      if (isbeId) {
        byId.set(isbeId, {
          isbeId,
          ward: Number.isInteger(ward) && ward >= 1 && ward <= 50 ? ward : null,
          aldermanName: cell(r, 'ALDERMAN_NAME'),
          committeeName: cell(r, 'COMMITTEE_NAME'),
        });
      }
    }
    return [...byId.values()];
  }
  // Live runs refresh the committees already known (loaded from a committee map with --from).
  const rows = await sql<{ isbe_id: string; ward: number | null }>`
    select isbe_id, ward from committees where source = ${SOURCE} and isbe_id is not null order by isbe_id`.execute(run.db);
  if (rows.rows.length === 0) {
    throw new AppError('invalid_request', 'no aldermanic committees known yet: load a committee map first with --from');
  }
  return rows.rows.map((r) => ({ isbeId: r.isbe_id, ward: r.ward, aldermanName: null, committeeName: null }));
}

async function fetchTable(run: AdapterRun, kind: 'receipts' | 'expenditures', isbeId: string): Promise<CsvRow[] | null> {
  if (run.transport.recorded) {
    const text = (await run.transport.text(`/${kind}/${isbeId}.tsv`)) ?? (await run.transport.text(`/${kind}/${isbeId}.csv`));
    return text === null ? null : table(text);
  }
  const text = await run.transport.text(`/api/${kind}/`, { committee_id: isbeId, datatype: 'csv' });
  return text === null ? null : table(text);
}

/** Stable ids for rows without one: hash of the source fields + occurrence among equal rows. */
export function stableIds(prefix: string, rows: CsvRow[], fields: string[]): string[] {
  const occurrences = new Map<string, number>();
  return rows.map((r) => {
    const hash = createHash('sha256')
      .update(fields.map((f) => (r[f] ?? '').trim()).join('\u001f'))
      .digest('hex')
      .slice(0, 20);
    const n = (occurrences.get(hash) ?? 0) + 1;
    occurrences.set(hash, n);
    return `${prefix}-${hash}-${n}`;
  });
}

function party(r: CsvRow): string | null {
  const last = cell(r, 'LAST_NAME', 'NAME');
  const first = cell(r, 'FIRST_NAME');
  if (!last) return first;
  return first ? `${last}, ${first}` : last;
}

export async function syncCampaignFinance(run: AdapterRun): Promise<AdapterOutcome> {
  const { db, transport } = run;
  const committees = await committeeList(run);
  const alders = await loadMatcher(db, ['alderperson']);
  const since = run.since?.slice(0, 10) ?? null;
  let highWater: string | null = null;
  const tally = counter(run, 'committees and money', 2_000);
  for (const c of committees) {
    const committeeId = `committee-${c.isbeId}`;
    const url = transport.url('/api/receipts/', { committee_id: c.isbeId, datatype: 'csv' });
    if (c.aldermanName !== null || c.committeeName !== null) {
      const row: Row = {
        id: committeeId,
        name: c.committeeName ?? `${c.aldermanName} (aldermanic committee${c.ward ? `, Ward ${c.ward}` : ''})`,
        isbe_id: c.isbeId,
        person_id: c.aldermanName ? alders.match(c.aldermanName) : null,
        ward: c.ward,
        source: SOURCE,
        source_id: c.isbeId,
        source_url: transport.url('/committees/', { id: c.isbeId }),
      };
      tally.add(1, (await upsertRows(db, 'committees', [row])).size);
    }
    for (const kind of ['receipts', 'expenditures'] as const) {
      const rows = await fetchTable(run, kind, c.isbeId);
      if (rows === null) continue;
      const fields = kind === 'receipts' ? RECEIPT_FIELDS : EXPENDITURE_FIELDS;
      const prefix = `${kind === 'receipts' ? 'receipt' : 'expenditure'}-${c.isbeId}`;
      // Illinois Sunshine's own CSV carries the record's id; the derived receipts files do not.
      const hashed = stableIds(prefix, rows, fields);
      const ids = rows.map((r, i) => (cell(r, 'ID') ? `${prefix}-${cell(r, 'ID')}` : hashed[i]!));
      const mapped: Row[] = [];
      rows.forEach((r, i) => {
        const date = isoDate(cell(r, kind === 'receipts' ? 'RECEIVED_DATE' : 'EXPENDED_DATE'));
        const amount = money(cell(r, 'AMOUNT'));
        const name = party(r);
        if (!date || amount === null || !name) return;
        highWater = later(highWater, date);
        if (since && date < since) return;
        const address = [cell(r, 'ADDRESS1'), cell(r, 'ADDRESS2')].filter(Boolean).join(', ') || null;
        const common = {
          id: ids[i]!,
          committee_id: committeeId,
          amount,
          address,
          city: cell(r, 'CITY'),
          state: cell(r, 'STATE'),
          zip: cell(r, 'ZIPCODE', 'ZIP'),
          source: SOURCE,
          source_id: ids[i]!,
          source_url: url,
        };
        mapped.push(
          kind === 'receipts'
            ? { ...common, received_date: date, contributor: name, occupation: cell(r, 'OCCUPATION'), employer: cell(r, 'EMPLOYER') }
            : { ...common, expended_date: date, payee: name, purpose: cell(r, 'PURPOSE') },
        );
      });
      for (const part of chunks(mapped, 2_000)) {
        const n = await db.transaction().execute((trx) => upsertRows(trx, kind, part));
        tally.add(part.length, n.size);
      }
    }
  }
  return { ...tally.done(), highWater };
}
