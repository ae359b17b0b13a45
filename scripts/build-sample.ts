// Rebuilds sample/ (the bundled Chicago sample) from the shared real-data folder:
//   node scripts/build-sample.ts <data-folder> [out-folder]
// Raw files are copied as they are; derived eLMS files are reshaped into the eLMS API's list
// shapes (documented in sample/README.md) so the sample loads through the eLMS adapter's --from.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parseTable } from '../src/modules/public-data/ingest/csv.ts';

const [dataDir, outArg] = process.argv.slice(2);
if (!dataDir || !existsSync(dataDir)) {
  process.stderr.write('usage: node scripts/build-sample.ts <data-folder> [out-folder]\n');
  process.exit(2);
}
const out = outArg ?? new URL('../sample/', import.meta.url).pathname;
const read = (p: string) => readFileSync(join(dataDir, p), 'utf8');
const json = (p: string) => JSON.parse(read(p));
const write = (p: string, body: unknown) => {
  mkdirSync(join(out, p, '..'), { recursive: true });
  writeFileSync(join(out, p), typeof body === 'string' ? body : `${JSON.stringify(body, null, 1)}\n`);
};
const list = (data: unknown[]) => ({ meta: { skip: 0, top: data.length, count: data.length, pages: 1 }, data });
for (const sub of ['elms', 'lobbying', 'campaign-finance', 'committee-history']) rmSync(join(out, sub), { recursive: true, force: true });

// eLMS: the meeting list is the raw API response, copied verbatim.
const meetings = json('elms/meeting_list_2023-10_city-bureau.json');
write('elms/meeting.json', meetings);

// People and the City Council body from the current roster (eLMS personIds and names).
interface Alder {
  ward: string;
  person_id: string;
  display_name: string;
  photo_url: string | null;
  site: string | null;
  council_start_date: string | null;
}
const alders: Alder[] = json('elms_derived/lukeleisman_chicago_council/alders.json');
const wardAlder = new Map(alders.map((a) => [a.ward, a]));
write('elms/person.json', list(alders.map((a) => ({ personId: a.person_id, displayName: a.display_name, ward: a.ward, photo: a.photo_url, site: a.site }))));
const bodies = new Map<string, { bodyId: string; body: string; bodyAbbreviation: string | null; members?: unknown[] }>();
for (const m of meetings.data) if (m.bodyId) bodies.set(m.bodyId, { bodyId: m.bodyId, body: m.body, bodyAbbreviation: m.bodyAbbreviation ?? null });
const council = [...bodies.values()].find((b) => b.body === 'City Council');
if (!council) throw new Error('no City Council body in the meeting list');
council.members = alders.map((a) => ({ displayName: a.display_name, personId: a.person_id, startDate: a.council_start_date, endDate: null }));
// Committees, sub-committees and joint committees with their chairs, vice chairs and members (the
// same repo's export of eLMS /body). A body the meeting list names keeps its name as listed there.
// The export lists a few memberships twice, and ward 18 both as chair and as member of two joint
// committees: one membership per person and body is kept, with the highest role.
interface ExportedCommittee {
  body_id: string;
  name: string;
}
const exported: { committees: ExportedCommittee[]; by_ward: Record<string, Array<[number, string]>> } = json(
  'elms_derived/lukeleisman_chicago_council/committees.json',
);
const RANK: Record<string, number> = { Chair: 0, 'Vice Chair': 1, Member: 2 };
const roles = new Map<string, { index: number; ward: string; role: string }>();
for (const [ward, list] of Object.entries(exported.by_ward)) {
  for (const [index, role] of list) {
    const key = `${index}|${ward}`;
    const had = roles.get(key);
    if (!had || (RANK[role] ?? 3) < (RANK[had.role] ?? 3)) roles.set(key, { index, ward, role });
  }
}
exported.committees.forEach((c, index) => {
  const body = bodies.get(c.body_id) ?? { bodyId: c.body_id, body: c.name, bodyAbbreviation: null };
  body.members = [...roles.values()]
    .filter((r) => r.index === index)
    .sort((a, b) => a.ward.localeCompare(b.ward))
    .map((r) => {
      const a = wardAlder.get(r.ward)!;
      return { displayName: a.display_name, personId: a.person_id, memberType: r.role, startDate: null, endDate: null };
    });
  bodies.set(c.body_id, body);
});
write('elms/body.json', list([...bodies.values()]));

// Matters: the City Council roll calls (with their votes by ward) and DataMade's record numbers.
// A ward's vote is given to the ward's alderperson of the roster only on or after the day that
// person joined the council; a ward the export leaves out (or one whose vote cannot be placed) is
// not reported: no vote is written for it, and the published tallies are kept as published.
interface Split {
  matter_id: string;
  record_number: string;
  action_date: string;
  title: string;
  matter_type: string;
  action_name: string;
  tallies: Record<string, number>;
  votes_by_ward: Record<string, string>;
  attachments: Array<{ attachment_type: string; file_name: string; url: string }>;
}
const TALLY_KEYS: Record<string, string> = {
  count_yea: 'yea',
  count_nay: 'nay',
  count_absent: 'absent',
  count_not_voting: 'notVoting',
  count_present: 'present',
  count_recused: 'recused',
  count_vacant: 'vacant',
  count_rising_vote: 'risingVote',
};
const matters = new Map<string, Record<string, any>>();
let notReported = 0;
const splits = json('elms_derived/lukeleisman_chicago_council/split_events.json') as Split[];
for (const e of splits) {
  const m = matters.get(e.matter_id) ?? {
    matterId: e.matter_id,
    recordNumber: e.record_number,
    title: e.title,
    type: e.matter_type,
    attachments: e.attachments.map((a) => ({ fileName: a.file_name, path: a.url, attachmentType: a.attachment_type })),
    actions: [],
  };
  const votes = Object.entries(e.votes_by_ward)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([ward, vote]) => {
      const alder = wardAlder.get(ward);
      return alder?.council_start_date && alder.council_start_date <= e.action_date ? [{ voterName: alder.display_name, vote }] : [];
    });
  const tallies = Object.fromEntries(Object.entries(e.tallies).map(([k, v]) => [TALLY_KEYS[k] ?? k, v]));
  notReported += Object.values(e.tallies).reduce((a, b) => a + b, 0) - votes.length;
  m.actions.push({ actionDate: `${e.action_date}T00:00:00`, actionName: e.action_name, actionByName: 'City Council', sort: 0, votes, tallies });
  matters.set(e.matter_id, m);
}
const TYPES: Array<[RegExp, string]> = [
  [/^S?O\d/, 'Ordinance'],
  [/^S?Or\d/i, 'Order'],
  [/^S?R\d/, 'Resolution'],
  [/^A\d/, 'Appointment'],
  [/^S?CL\d/, 'Claim'],
  [/^F\d/, 'Communication'],
];
const typeOf = (record: string) => TYPES.find(([re]) => re.test(record))?.[1] ?? 'Unknown';
const dm = 'elms_derived/datamade_chicago_council_scrapers';
const records = new Set([...matters.values()].map((m) => m.recordNumber));
const base = (row: Record<string, string>) => {
  const id = row.MATTER_ID!;
  if (!matters.has(id)) {
    if (records.has(row.IDENTIFIER!)) return null;
    records.add(row.IDENTIFIER!);
    matters.set(id, { matterId: id, recordNumber: row.IDENTIFIER, title: row.TITLE, type: typeOf(row.IDENTIFIER!), actions: [] });
  }
  return matters.get(id)!;
};
for (const file of ['bad_introductions.csv', 'bad_action_date.csv', 'bad_agenda_action.csv', 'missing_bill_text_pdfs.csv']) {
  for (const row of parseTable(read(join(dm, file)))) {
    const m = base(row);
    if (!m) continue;
    if (row.INTRODUCTION_DATE) m.introductionDate = `${row.INTRODUCTION_DATE}T00:00:00`;
    if (file === 'bad_action_date.csv' && row.ACTION && row.DATE) {
      const key = `${row.DATE}|${row.ACTION}|${row.NAME}`;
      if (!m.actions.some((a: any) => `${a.actionDate.slice(0, 10)}|${a.actionName}|${a.actionByName}` === key)) {
        m.actions.push({ actionDate: `${row.DATE}T00:00:00`, actionName: row.ACTION, actionByName: row.NAME, sort: 0 });
      }
    }
  }
}
for (const m of matters.values()) {
  m.actions.sort((a: any, b: any) => a.actionDate.localeCompare(b.actionDate));
  m.actions.forEach((a: any, i: number) => {
    a.sort = i + 1;
  });
}
write('elms/matter.json', list([...matters.values()]));

// Lobbying: the portal's CSV exports, one folder per snapshot with the day it was taken (its latest
// CREATED_DATE) in snapshots.json, so the adapter reads each in its own id numbering (the City
// renumbered the ids in 2020). Files are copied whole or as verbatim lines; to keep the first start
// fast some keep only a part, and no record is given twice across snapshots:
// - 2015: Combinations and Compensation keep their 2014 and 2015 rows.
// - 2021: Gifts and hosting expenditures whole; Contributions and expenditures only the reporting
//   periods after the 2015 snapshot's; Compensation, Clients and Combinations their 2021 rows;
//   Lobbyists and Employers only those the 2023 snapshot does not describe. Lobbyists_By_Client (no
//   ids, dataset not identified) is left out.
// - 2023: Lobbyists and Employers whole.
type Keep = (row: Record<string, string>) => boolean;
const year =
  (col: string, ...years: string[]): Keep =>
  (r) =>
    years.includes((r[col] ?? '').slice(-4));
const rowsOf = (file: string) => parse(read(file), { columns: true, bom: true, skip_empty_lines: true }) as Array<Record<string, string>>;
const idsOf = (file: string, col: string) => new Set(rowsOf(file).map((r) => r[col]));
const usDay = (d: string) => `${d.slice(6, 10)}-${d.slice(0, 2)}-${d.slice(3, 5)}`;
const lastPeriod = (file: string) => rowsOf(file).reduce((max, r) => (usDay(r.PERIOD_START ?? '') > max ? usDay(r.PERIOD_START!) : max), '');
const after =
  (day: string): Keep =>
  (r) =>
    usDay(r.PERIOD_START ?? '') > day;
const l15 = 'lobbying/chicago_2015_snapshot/Lobbyist_Data_-_';
const lobbyists2023 = idsOf('lobbying/chicago_2023_snapshot/Lobbyist_Data_-_Lobbyists.csv', 'LOBBYIST_ID');
const employers2023 = idsOf('lobbying/chicago_2023_snapshot/Lobbyist_Data_-_Employers.csv', 'EMPLOYER_ID');
const snapshots: Array<{ dir: string; folder: string; exported: string; keep: Record<string, Keep | false> }> = [
  {
    dir: 'chicago_2015_snapshot',
    folder: '2015-11',
    exported: '2015-11-23',
    keep: {
      'Lobbyist_Data_-_Lobbyist__Employer__Client_Combinations.csv': year('Year', '2014', '2015'),
      'Lobbyist_Data_-_Compensation.csv': year('PERIOD_START', '2014', '2015'),
    },
  },
  {
    dir: 'chicago_2021_snapshot',
    folder: '2021-07',
    exported: '2021-07-24',
    keep: {
      'Contributions.csv': after(lastPeriod(`${l15}Contributions.csv`)),
      'Expenditures_Large.csv': after(lastPeriod(`${l15}Expenditures_-_Large.csv`)),
      'Expenditures_Small.csv': after(lastPeriod(`${l15}Expenditures_-_Small.csv`)),
      'Compensation.csv': year('PERIOD_START', '2021'),
      'Clients.csv': year('Year', '2021'),
      'Lobbyist_Employer_Client_Combinations.csv': year('Year', '2021'),
      'Lobbyists.csv': (r) => !lobbyists2023.has(r.LOBBYIST_ID!),
      'Employers.csv': (r) => !employers2023.has(r.EMPLOYER_ID!),
      'Lobbyists_By_Client.csv': false,
    },
  },
  { dir: 'chicago_2023_snapshot', folder: '2023-06', exported: '2023-06-08', keep: {} },
];
for (const snap of snapshots) {
  for (const f of readdirSync(join(dataDir, 'lobbying', snap.dir)).sort()) {
    const keep = snap.keep[f];
    if (keep === false) continue;
    const target = join('lobbying', snap.folder, f);
    mkdirSync(join(out, target, '..'), { recursive: true });
    if (!keep) {
      copyFileSync(join(dataDir, 'lobbying', snap.dir, f), join(out, target));
      continue;
    }
    const text = read(join('lobbying', snap.dir, f));
    const records = parse(text, { columns: true, raw: true, bom: true, skip_empty_lines: true }) as Array<{ record: Record<string, string>; raw: string }>;
    const header = text.slice(0, text.indexOf('\n') + 1);
    write(
      target,
      header +
        records
          .filter((r) => keep(r.record))
          .map((r) => r.raw.replace(/\r?\n$/, ''))
          .join('\n') +
        '\n',
    );
  }
}
write(
  'lobbying/snapshots.json',
  snapshots.map(({ folder, exported }) => ({ folder, exported })),
);

// Committee history of the Legistar era (datamade/council-flow, MIT): both files verbatim (bare CR line endings).
mkdirSync(join(out, 'committee-history'), { recursive: true });
for (const f of ['committee_terms_clean.csv', 'attendance_clean.csv']) {
  copyFileSync(join(dataDir, 'elms_derived/datamade_council_flow', f), join(out, 'committee-history', f));
}

// Campaign finance: both committee maps, and each ward's receipts under its committee id.
const cf = 'campaign_finance/chicago_aldermen_2019_illinois_sunshine';
const older = parseTable(read(join(cf, 'ward_committee_ids_2018-12.csv')));
const newer = parseTable(read(join(cf, 'ward_committee_ids_2019-05.csv')));
const csvLine = (vals: string[]) => vals.map((v) => (/[",]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v)).join(',');
write(
  'campaign-finance/committees.csv',
  ['ward,alderman_name,isbe_committee_id', ...[...older, ...newer].map((r) => csvLine([r.WARD!, r.ALDERMAN_NAME!, r.ISBE_COMMITTEE_ID!]))].join('\n') + '\n',
);
for (const r of older) {
  mkdirSync(join(out, 'campaign-finance/receipts'), { recursive: true });
  copyFileSync(join(dataDir, cf, 'receipts_by_ward', `Ward${r.WARD}.tsv`), join(out, 'campaign-finance/receipts', `${r.ISBE_COMMITTEE_ID}.tsv`));
}
process.stdout.write(
  `sample written to ${out}: ${alders.length} alderpersons, ${matters.size} matters, ${splits.length} roll calls (${notReported} votes not reported), ${exported.committees.length} committees (${roles.size} memberships), ${meetings.data.length} meetings\n`,
);
