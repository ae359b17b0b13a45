// Committee history of the Legistar era: DataMade's council-flow (MIT), derived from its Open Civic
// Data API for Chicago. committee_terms_clean.csv (no header: alderman, body, start, end; dates
// M/D/YY; 2007–2019) and attendance_clean.csv (committee, date, alderman, status: 1 recorded
// present, 0 on the committee but not recorded; 2011–2017). Both files end their lines with a bare
// carriage return, which the CSV reader takes as a record delimiter like any other.
// People are matched to the alderpersons already stored by name; a former alderperson no record
// names yet becomes a person of their own (`council-flow-<name>`), never a guess. Bodies are matched
// by name, else kept as bodies of their own, no longer active.
import { createHash } from 'node:crypto';
import { AppError } from '../../../kernel/errors.ts';
import { type AdapterOutcome, type AdapterRun, counter } from './adapter.ts';
import { cell, parseTable } from './csv.ts';
import { bodyKind } from './elms-map.ts';
import { loadMatcher, splitName } from './names.ts';
import { chunks, type Db, type Row, upsertRows } from './store.ts';

/** The repository at the commit the files were taken from (their public address). */
export const COMMITTEE_HISTORY_BASE_URL = 'https://raw.githubusercontent.com/datamade/council-flow/b8176fdb46efb59b6b672251b7d88be84709c9b6';
const SOURCE = 'council_flow';
const FILES = { terms: '/council-attendance/committee_terms_clean.csv', attendance: '/council-attendance/final_files/attendance_clean.csv' };

/** "5/16/11" or "8/31/16 0:00" → "2011-05-16". Two-digit years: 50–99 are 19xx (terms start in 1969), else 20xx. */
export function shortUsDate(value: string | null): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})\b/.exec(value?.trim() ?? '');
  if (!m) return null;
  const year = m[3]!.length === 4 ? m[3]! : `${Number(m[3]) >= 50 ? '19' : '20'}${m[3]}`;
  return `${year}-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}`;
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\u001f')).digest('hex').slice(0, 16);

async function file(run: AdapterRun, kind: keyof typeof FILES): Promise<string> {
  // Recorded: the files side by side (--from); live: the repository's paths.
  const text = await run.transport.text(run.transport.recorded ? `/${FILES[kind].split('/').pop()}` : FILES[kind]);
  if (text === null) throw new AppError('invalid_request', `committee history: ${FILES[kind].split('/').pop()} not found`);
  return text;
}

/** Finds or makes the person and body each row names; returns their ids by printed name. */
async function parties(db: Db, names: Set<string>, bodies: Set<string>, url: string) {
  const people = await loadMatcher(db, ['alderperson']);
  const personOf = new Map<string, string>();
  const newPeople: Row[] = [];
  for (const printed of names) {
    const id = people.match(printed);
    if (id) {
      personOf.set(printed, id);
      continue;
    }
    const n = splitName(printed);
    const own = `council-flow-${slug(printed)}`;
    personOf.set(printed, own);
    newPeople.push({
      id: own,
      name: n.name,
      sort_name: n.sortName,
      given_name: n.given,
      family_name: n.family,
      kind: 'alderperson',
      ward: null,
      current: false,
      source: SOURCE,
      source_id: printed,
      source_url: url,
    });
  }
  const stored = await db.selectFrom('bodies').select(['id', 'name']).orderBy('id').execute();
  const byName = new Map<string, string>();
  // eLMS bodies first: a name both sources use is today's body.
  for (const b of stored.sort((a, b) => Number(a.id.startsWith('council-flow-')) - Number(b.id.startsWith('council-flow-')))) {
    const key = b.name.toLowerCase().replace(/\s+/g, ' ').trim();
    if (!byName.has(key)) byName.set(key, b.id);
  }
  const bodyOf = new Map<string, string>();
  const newBodies: Row[] = [];
  for (const name of bodies) {
    const known = byName.get(name.toLowerCase().replace(/\s+/g, ' ').trim());
    if (known && !known.startsWith('council-flow-')) {
      bodyOf.set(name, known);
      continue;
    }
    const own = `council-flow-body-${slug(name)}`;
    bodyOf.set(name, own);
    newBodies.push({ id: own, name, abbreviation: null, kind: bodyKind(name), active: false, source: SOURCE, source_id: name, source_url: url });
  }
  return { personOf, bodyOf, newPeople, newBodies };
}

export async function syncCommitteeHistory(run: AdapterRun): Promise<AdapterOutcome> {
  const { db, transport } = run;
  const termsUrl = transport.url(FILES.terms);
  const attendanceUrl = transport.url(FILES.attendance);
  // The terms file has no header row.
  const terms = parseTable(`alderman,body,start,end\r${await file(run, 'terms')}`);
  const attendance = parseTable(await file(run, 'attendance'));
  const names = new Set<string>();
  const bodies = new Set<string>();
  for (const r of terms) {
    if (cell(r, 'ALDERMAN') && cell(r, 'BODY')) {
      names.add(cell(r, 'ALDERMAN')!);
      bodies.add(cell(r, 'BODY')!);
    }
  }
  for (const r of attendance) {
    if (cell(r, 'ALDERMAN') && cell(r, 'COMMITTEE')) {
      names.add(cell(r, 'ALDERMAN')!);
      bodies.add(cell(r, 'COMMITTEE')!);
    }
  }
  const { personOf, bodyOf, newPeople, newBodies } = await parties(db, names, bodies, termsUrl);
  const tally = counter(run, 'committee history', 5_000);
  // Printed names that differ only in punctuation ("Joint Committee; Finance…" and "Joint Committee: Finance…") are one record.
  const [people, bodyRows] = [dedupe(newPeople), dedupe(newBodies)];
  tally.add(people.length + bodyRows.length, (await upsertRows(db, 'people', people)).size + (await upsertRows(db, 'bodies', bodyRows)).size);
  const termRows = dedupe(
    terms.flatMap((r): Row[] => {
      const [who, body] = [cell(r, 'ALDERMAN'), cell(r, 'BODY')];
      if (!who || !body) return [];
      const start = shortUsDate(cell(r, 'START'));
      const end = shortUsDate(cell(r, 'END'));
      const key = hash(who, body, start ?? '', end ?? '');
      return [
        {
          id: `committee-term-${key}`,
          person_id: personOf.get(who)!,
          body_id: bodyOf.get(body)!,
          start_date: start,
          end_date: end,
          source: SOURCE,
          source_id: key,
          source_url: termsUrl,
        },
      ];
    }),
  );
  const attendanceRows = dedupe(
    attendance.flatMap((r): Row[] => {
      const [who, body, date, status] = [cell(r, 'ALDERMAN'), cell(r, 'COMMITTEE'), shortUsDate(cell(r, 'DATE')), cell(r, 'STATUS')];
      if (!who || !body || !date || (status !== '0' && status !== '1')) return [];
      const key = hash(who, body, date);
      return [
        {
          id: `committee-attendance-${key}`,
          body_id: bodyOf.get(body)!,
          person_id: personOf.get(who)!,
          date,
          present: status === '1',
          source: SOURCE,
          source_id: key,
          source_url: attendanceUrl,
        },
      ];
    }),
  );
  for (const [table, rows] of [
    ['committee_terms', termRows],
    ['committee_attendance', attendanceRows],
  ] as const) {
    for (const part of chunks(rows, 2_000)) tally.add(part.length, (await db.transaction().execute((trx) => upsertRows(trx, table, part))).size);
  }
  return { ...tally.done(), highWater: null };
}

function dedupe(rows: Row[]): Row[] {
  return [...new Map(rows.map((r) => [String(r.id), r])).values()];
}
