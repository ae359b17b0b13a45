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
for (const sub of ['elms', 'lobbying', 'campaign-finance']) rmSync(join(out, sub), { recursive: true, force: true });

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

// Lobbying: the portal's CSV exports. The 2023 snapshot replaces the 2015 files it has. To keep
// the first start fast, the two largest 2015 files keep only their 2014 and 2015 rows (verbatim
// lines); every other file is copied whole.
const SUBSET: Record<string, (row: Record<string, string>) => boolean> = {
  'Lobbyist_Data_-_Lobbyist__Employer__Client_Combinations.csv': (r) => r.Year === '2014' || r.Year === '2015',
  'Lobbyist_Data_-_Compensation.csv': (r) => /\/(2014|2015)$/.test(r.PERIOD_START ?? ''),
};
for (const snap of ['chicago_2015_snapshot', 'chicago_2023_snapshot']) {
  for (const f of readdirSync(join(dataDir, 'lobbying', snap))) {
    mkdirSync(join(out, 'lobbying'), { recursive: true });
    const keep = SUBSET[f];
    if (!keep) {
      copyFileSync(join(dataDir, 'lobbying', snap, f), join(out, 'lobbying', f));
      continue;
    }
    const text = read(join('lobbying', snap, f));
    const records = parse(text, { columns: true, raw: true, skip_empty_lines: true }) as Array<{ record: Record<string, string>; raw: string }>;
    const header = text.slice(0, text.indexOf('\n') + 1);
    write(
      join('lobbying', f),
      header +
        records
          .filter((r) => keep(r.record))
          .map((r) => r.raw.replace(/\r?\n$/, ''))
          .join('\n') +
        '\n',
    );
  }
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
