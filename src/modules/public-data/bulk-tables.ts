// The public record as bulk tables (modules/bulk writes them as CSV and SQLite): one entry per
// table, with its documented columns, the SQL that reads it and what a SQLite copy indexes and
// searches. This module owns the tables, so the SQL lives here. Rows are exactly those the public
// API shows, columns are the fields of the API's resources (snake_case), and nothing private
// leaves: only public people (alderpersons, officials, lobbyists) and their terms and committee
// seats; testimony only of those who spoke in a public capacity (officials, staff, lobbyists), as
// meeting details show it; no `address`, `search` or ingest bookkeeping columns.
// Bump BULK_SCHEMA_VERSION when a column is renamed, retyped or removed (adding one is compatible).
import { publicPersonKinds } from './schema-people.ts';

export const BULK_SCHEMA_VERSION = 1;

/** How a column is written: CSV as text, SQLite with the matching storage class. */
export type BulkType = 'text' | 'integer' | 'boolean' | 'date' | 'timestamp' | 'money' | 'json';

export interface BulkColumn {
  name: string;
  type: BulkType;
  description: string;
  /** The SQL expression read (over the table's aliases). */
  expr: string;
  /** The table whose `id` this column holds (a foreign key in the SQLite copy). */
  references?: string;
}

export interface BulkTable {
  name: string;
  description: string;
  columns: readonly BulkColumn[];
  /** `from … [where …]`: which rows, exactly those the API shows. */
  from: string;
  /** A total order (the primary key's), so two exports of the same data are the same bytes. */
  orderBy: string;
  primaryKey: readonly string[];
  /** Further indexes of the SQLite copy (foreign keys and common filters). */
  indexes: readonly (readonly string[])[];
  /** Columns of its full-text index in the SQLite copy (FTS5 table `<name>_fts`). */
  search?: readonly string[];
}

/** A table as the export reads it: plain data (it crosses to a worker thread), with its statement. */
export interface BulkTableRead extends BulkTable {
  /** The statement that reads its rows, in their order (no parameters). */
  select: string;
}

const column =
  (type: BulkType) =>
  (name: string, expr: string, description: string, references?: string): BulkColumn => ({
    name,
    type,
    description,
    expr,
    ...(references ? { references } : {}),
  });
const text = column('text');
const int = column('integer');
const bool = column('boolean');
const date = column('date');
const json = column('json');
const money = (name: string, ref: string, description: string) => column('money')(name, `${ref}::numeric(14, 2)::text`, description);
/** ISO 8601 in UTC with milliseconds, as the API writes timestamps. */
const stamp = (name: string, ref: string, description: string) =>
  column('timestamp')(name, `to_char(${ref} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`, description);

const provenance = (a: string) => [
  text('source_url', `${a}.source_url`, 'The record at its source.'),
  stamp('updated_at', `${a}.updated_at`, 'When the record last changed here (ISO 8601, UTC).'),
];

const publicKinds = publicPersonKinds.map((k) => `'${k}'`).join(', ');
/** Speakers whose testimony a meeting's detail names (presenters-meetings.ts): a public capacity. */
const publicSpeakers = "'official', 'staff', 'lobbyist'";

const place = (a: string) => [text('city', `${a}.city`, 'City.'), text('state', `${a}.state`, 'State.')];

const organisation = (name: string, what: string): BulkTable => ({
  name,
  description: `${what} named in lobbying disclosures (as /api/v1/lobbying/${name.replace('lobbying_', '')}).`,
  columns: [
    text('id', 'o.id', 'Id.'),
    text('name', 'o.name', 'Name.'),
    ...place('o'),
    text('country', 'o.country', 'Country.'),
    json('years', 'to_json(o.years)::text', 'Years it appears in the disclosures (a JSON array).'),
    ...provenance('o'),
  ],
  from: `${name} o`,
  orderBy: 'o.id',
  primaryKey: ['id'],
  indexes: [],
  search: ['name'],
});

/** A matter's or a meeting's documents: links in order, one per URL. */
const documents = (name: string, parent: 'matter' | 'meeting', description: string): BulkTable => ({
  name,
  description,
  columns: [
    text(`${parent}_id`, `d.${parent}_id`, `The ${parent}.`, `${parent}s`),
    int('sort', 'd.sort', `Order on the ${parent}.`),
    text('name', 'd.name', 'Name.'),
    text('kind', 'd.kind', 'Kind.'),
    text('url', 'd.url', 'Where it is.'),
  ],
  from: `${name} d`,
  orderBy: `d.${parent}_id, d.url`,
  primaryKey: [`${parent}_id`, 'url'],
  indexes: [],
});

/** Receipts and expenditures: a committee's money on a day, with the other side's columns. */
const committeeMoney = (name: string, what: string, dateColumn: string, dateMeaning: string, party: BulkColumn[]): BulkTable => ({
  name,
  description: `${what} (as /api/v1/money/${name}).`,
  columns: [
    text('id', 'x.id', 'Id.'),
    text('committee_id', 'x.committee_id', 'The committee.', 'committees'),
    date('date', `x.${dateColumn}`, dateMeaning),
    money('amount', 'x.amount', 'Dollars, two decimals.'),
    ...party,
    ...place('x'),
    text('zip', 'x.zip', 'ZIP code.'),
    ...provenance('x'),
  ],
  from: `${name} x`,
  orderBy: 'x.id',
  primaryKey: ['id'],
  indexes: [['committee_id', 'date']],
  search: party.map((c) => c.name),
});

const period = (a: string) => [
  date('period_start', `${a}.period_start`, 'First day of the reporting period.'),
  date('period_end', `${a}.period_end`, 'Last day of the reporting period.'),
];
const lobbyist = (a: string) => text('lobbyist_id', `${a}.lobbyist_id`, 'The lobbyist (a person).', 'people');
const client = (a: string) => text('client_id', `${a}.client_id`, 'The client.', 'lobbying_clients');

/** A lobbying disclosure: a lobbyist's report for a period (for a client), with its own columns. */
const report = (name: string, what: string, forClient: boolean, own: BulkColumn[]): BulkTable => ({
  name,
  description: `${what} (as /api/v1/lobbying/${name.replace('lobbying_', '')}).`,
  columns: [text('id', 'x.id', 'Id.'), lobbyist('x'), ...(forClient ? [client('x')] : []), ...period('x'), ...own, ...provenance('x')],
  from: `${name} x`,
  orderBy: 'x.id',
  primaryKey: ['id'],
  // Indexes on the columns that point at other tables.
  indexes: [['lobbyist_id'], ...[...(forClient ? [client('x')] : []), ...own].filter((c) => c.references).map((c) => [c.name])],
});

/** A table whose rows each have an `id`: its primary key, and the order rows are written in. */
function byId(
  name: string,
  alias: string,
  description: string,
  columns: BulkColumn[],
  more: { where?: string; indexes?: string[][]; search?: string[] } = {},
): BulkTable {
  return {
    name,
    description,
    columns,
    from: `${name} ${alias}${more.where ? ` where ${more.where}` : ''}`,
    orderBy: `${alias}.id`,
    primaryKey: ['id'],
    indexes: more.indexes ?? [],
    ...(more.search ? { search: more.search } : {}),
  };
}

const definitions: readonly BulkTable[] = [
  byId(
    'bodies',
    'b',
    'The City Council and its committees (as /api/v1/bodies).',
    [
      text('id', 'b.id', 'Id.'),
      text('name', 'b.name', 'Name.'),
      text('abbreviation', 'b.abbreviation', 'Short name.'),
      text('kind', 'b.kind', 'council, committee, joint_committee or other.'),
      bool('active', 'b.active', 'Still sits.'),
      ...provenance('b'),
    ],
    { search: ['name', 'abbreviation'] },
  ),
  byId(
    'people',
    'p',
    'Public people: alderpersons, officials and lobbyists (as /api/v1/people).',
    [
      text('id', 'p.id', 'Id.'),
      text('name', 'p.name', 'Name, "First Last".'),
      text('sort_name', 'p.sort_name', 'Name, "Last, First".'),
      text('kind', 'p.kind', 'alderperson, official or lobbyist.'),
      int('ward', 'p.ward', 'Ward of an alderperson (1–50).'),
      bool('current', 'p.current', 'Holds office (or is registered) now.'),
      text('organization', 'p.organization', 'Employer of a lobbyist.'),
      text('email', 'p.email', 'Office email.'),
      text('phone', 'p.phone', 'Office phone.'),
      text('website', 'p.website', 'Website.'),
      text('photo_url', 'p.photo_url', 'Photo.'),
      ...provenance('p'),
    ],
    { where: `p.kind in (${publicKinds})`, indexes: [['kind'], ['ward']], search: ['name', 'organization'] },
  ),
  {
    name: 'person_terms',
    description: "Public people's terms of office (the `terms` of /api/v1/people/{id}).",
    columns: [
      text('person_id', 't.person_id', 'The person.', 'people'),
      text('office', 't.office', 'Office (Alderperson, Mayor, City Clerk, …).'),
      int('ward', 't.ward', 'Ward of an alderperson’s term.'),
      date('start_date', 't.start_date', 'First day.'),
      date('end_date', 't.end_date', 'Last day, empty while it lasts.'),
    ],
    from: `person_terms t join people p on p.id = t.person_id where p.kind in (${publicKinds})`,
    orderBy: 't.person_id, t.office, t.start_date nulls first, t.id',
    primaryKey: [],
    indexes: [['person_id']],
  },
  {
    name: 'body_memberships',
    description: 'Seats of public people on bodies (the `members` of /api/v1/bodies/{id}).',
    columns: [
      text('body_id', 'm.body_id', 'The body.', 'bodies'),
      text('person_id', 'm.person_id', 'The member.', 'people'),
      text('role', 'm.role', 'Chair, Vice Chair, Member, …'),
      date('start_date', 'm.start_date', 'First day.'),
      date('end_date', 'm.end_date', 'Last day, empty while it lasts.'),
    ],
    from: `body_memberships m join people p on p.id = m.person_id where p.kind in (${publicKinds})`,
    orderBy: 'm.body_id, m.person_id, m.role, m.start_date nulls first, m.id',
    primaryKey: [],
    indexes: [['body_id'], ['person_id']],
  },
  byId(
    'matters',
    'm',
    'Legislation (as /api/v1/matters).',
    [
      text('id', 'm.id', 'Id (the source’s matter id).'),
      text('record_number', 'm.record_number', 'Record number, e.g. O2023-0001234.'),
      text('legacy_record_number', 'm.legacy_record_number', 'Earlier record number.'),
      text('type', 'm.type', 'Ordinance, Resolution, Order, Claim, Appointment, …'),
      text('title', 'm.title', 'Title.'),
      text('status', 'm.status', 'Status.'),
      text('category', 'm.category', 'Category.'),
      bool('key_legislation', 'm.key_legislation', 'Marked as key legislation by the Clerk.'),
      date('introduction_date', 'm.introduction_date', 'Introduced on.'),
      date('final_action_date', 'm.final_action_date', 'Final action on.'),
      text('controlling_body_id', 'm.controlling_body_id', 'The body it is in.', 'bodies'),
      text('substitute_of_id', 'm.substitute_of_id', 'The matter this one substitutes.', 'matters'),
      json('topics', 'to_json(m.topics)::text', 'Topics (a JSON array).'),
      text('sponsor_names', 'm.sponsor_names', 'Sponsors’ names, for reading and search.'),
      ...provenance('m'),
    ],
    {
      indexes: [['record_number'], ['introduction_date'], ['controlling_body_id'], ['substitute_of_id']],
      search: ['record_number', 'title', 'sponsor_names', 'topics'],
    },
  ),
  {
    name: 'matter_sponsors',
    description: 'Sponsors of each matter (the `sponsors` of /api/v1/matters/{record}).',
    columns: [
      text('matter_id', 's.matter_id', 'The matter.', 'matters'),
      text('person_id', 's.person_id', 'The sponsor, when known as a person.', 'people'),
      text('name', 's.name', 'Name as the source gives it.'),
      text('role', 's.role', 'sponsor, cosponsor, filing_sponsor or other.'),
      int('sort', 's.sort', 'Order on the matter.'),
    ],
    from: 'matter_sponsors s',
    orderBy: 's.matter_id, s.name, s.role',
    primaryKey: ['matter_id', 'name', 'role'],
    indexes: [['person_id']],
  },
  byId(
    'matter_actions',
    'a',
    'What happened to each matter, in order (the `actions` of /api/v1/matters/{record}).',
    [
      text('id', 'a.id', 'Id.'),
      text('matter_id', 'a.matter_id', 'The matter.', 'matters'),
      int('sort', 'a.sort', 'Order on the matter.'),
      date('date', 'a.action_date', 'Day of the action.'),
      text('name', 'a.action_name', 'Action.'),
      text('text', 'a.action_text', 'Text of the action.'),
      text('body_id', 'a.body_id', 'The body that acted.', 'bodies'),
      text('body_name', 'a.body_name', 'Its name as the source gives it.'),
      text('meeting_id', 'a.meeting_id', 'The meeting.', 'meetings'),
      text('result', 'a.result', 'Result.'),
    ],
    { indexes: [['matter_id'], ['body_id', 'date'], ['meeting_id']] },
  ),
  documents('matter_attachments', 'matter', 'Documents of each matter (the `attachments` of /api/v1/matters/{record}).'),
  {
    name: 'matter_relations',
    description: 'Record numbers related to each matter (`relatedRecordNumbers` of /api/v1/matters/{record}).',
    columns: [text('matter_id', 'x.matter_id', 'The matter.', 'matters'), text('related_record_number', 'x.related_record_number', 'A related record number.')],
    from: 'matter_relations x',
    orderBy: 'x.matter_id, x.related_record_number',
    primaryKey: ['matter_id', 'related_record_number'],
    indexes: [],
  },
  byId(
    'meetings',
    'g',
    'Meetings of the council and its committees (as /api/v1/meetings).',
    [
      text('id', 'g.id', 'Id.'),
      text('body_id', 'g.body_id', 'The body meeting.', 'bodies'),
      text('body_name', 'g.body_name', 'Its name as the source gives it.'),
      stamp('start_time', 'g.start_time', 'Start (ISO 8601, UTC).'),
      text('location', 'g.location', 'Where.'),
      text('status', 'g.status', 'scheduled, cancelled, rescheduled, recessed, reconvened or held.'),
      text('status_detail', 'g.status_detail', 'More about the status.'),
      text('comment', 'g.comment', 'Comment.'),
      text('video_url', 'g.video_url', 'Video.'),
      text('transcript_url', 'g.transcript_url', 'Transcript.'),
      ...provenance('g'),
    ],
    { indexes: [['body_id'], ['start_time']], search: ['body_name', 'location', 'comment'] },
  ),
  documents('meeting_documents', 'meeting', 'Documents of each meeting (the `documents` of /api/v1/meetings/{id}).'),
  byId(
    'agenda_items',
    'i',
    'Each meeting’s agenda (the `agenda` of /api/v1/meetings/{id}).',
    [
      text('id', 'i.id', 'Id.'),
      text('meeting_id', 'i.meeting_id', 'The meeting.', 'meetings'),
      int('sort', 'i.sort', 'Order on the agenda.'),
      text('matter_id', 'i.matter_id', 'The matter, when known.', 'matters'),
      text('record_number', 'i.record_number', 'Record number as the agenda gives it.'),
      text('title', 'i.title', 'Title.'),
      text('action_text', 'i.action_text', 'What was done.'),
      text('minutes_note', 'i.minutes_note', 'Note in the minutes.'),
    ],
    { indexes: [['meeting_id'], ['matter_id']], search: ['record_number', 'title', 'action_text'] },
  ),
  {
    name: 'attendance',
    description: 'Who was present at each meeting (the `attendance` of /api/v1/meetings/{id}).',
    columns: [
      text('meeting_id', 'a.meeting_id', 'The meeting.', 'meetings'),
      text('person_id', 'a.person_id', 'The member.', 'people'),
      text('value', 'a.value', 'Present, Absent, …'),
    ],
    from: 'attendance a join people p on p.id = a.person_id',
    orderBy: 'a.meeting_id, a.person_id',
    primaryKey: ['meeting_id', 'person_id'],
    indexes: [['person_id']],
  },
  byId(
    'testimony',
    't',
    'Testimony given in a public capacity (officials, staff, lobbyists), as meeting details name it; residents and organization representatives are never named.',
    [
      text('id', 't.id', 'Id.'),
      text('meeting_id', 't.meeting_id', 'The meeting.', 'meetings'),
      text('matter_id', 't.matter_id', 'The matter spoken to.', 'matters'),
      text('speaker_name', 't.speaker_name', 'Speaker.'),
      text('speaker_kind', 't.speaker_kind', 'official, staff or lobbyist.'),
      text('organization', 't.organization', 'On behalf of.'),
      text('position', 't.position', 'supports, opposes or neutral.'),
      text('mode', 't.mode', 'in_person, virtual or written.'),
      text('summary', 't.summary', 'Summary.'),
    ],
    { where: `t.speaker_kind in (${publicSpeakers})`, indexes: [['meeting_id'], ['matter_id']], search: ['speaker_name', 'organization', 'summary'] },
  ),
  byId(
    'roll_calls',
    'r',
    'Roll calls with their tallies (as /api/v1/roll-calls).',
    [
      text('id', 'r.id', 'Id.'),
      text('matter_id', 'r.matter_id', 'The matter voted on.', 'matters'),
      text('meeting_id', 'r.meeting_id', 'The meeting.', 'meetings'),
      text('body_id', 'r.body_id', 'The body voting.', 'bodies'),
      date('date', 'r.date', 'Day of the vote.'),
      text('action_name', 'r.action_name', 'What was voted on.'),
      text('result', 'r.result', 'Result.'),
      ...(['yea', 'nay', 'absent', 'not_voting', 'present', 'recused', 'vacant', 'rising_vote'] as const).map((v) =>
        int(v, `r.${v}`, `Votes ${v.replace('_', ' ')}.`),
      ),
      ...provenance('r'),
    ],
    { indexes: [['matter_id'], ['meeting_id'], ['date']] },
  ),
  {
    name: 'votes',
    description: 'Every individual vote (as /api/v1/votes).',
    columns: [
      text('roll_call_id', 'v.roll_call_id', 'The roll call.', 'roll_calls'),
      text('person_id', 'v.person_id', 'Who voted.', 'people'),
      text('value', 'v.value', 'Yea, Nay, Absent, Not Voting, Present, Recused, Vacant or Rising Vote.'),
      date('date', 'v.date', 'Day of the vote.'),
      text('matter_id', 'v.matter_id', 'The matter voted on.', 'matters'),
      stamp('updated_at', 'v.updated_at', 'When the vote last changed here (ISO 8601, UTC).'),
    ],
    from: 'votes v',
    orderBy: 'v.roll_call_id, v.person_id',
    primaryKey: ['roll_call_id', 'person_id'],
    indexes: [['person_id', 'date'], ['matter_id']],
  },
  byId(
    'committees',
    'c',
    'Campaign committees of alderpersons (as /api/v1/money/committees).',
    [
      text('id', 'c.id', 'Id (committee-<ISBE id>).'),
      text('name', 'c.name', 'Name.'),
      text('isbe_id', 'c.isbe_id', 'Illinois State Board of Elections id.'),
      text('person_id', 'c.person_id', 'The alderperson.', 'people'),
      int('ward', 'c.ward', 'Ward.'),
      ...provenance('c'),
    ],
    { indexes: [['person_id']], search: ['name'] },
  ),
  committeeMoney('receipts', 'Contributions committees received', 'received_date', 'Received on.', [
    text('contributor', 'x.contributor', 'Contributor.'),
    text('contributor_type', 'x.contributor_type', 'Individual, business, …'),
    text('occupation', 'x.occupation', 'Contributor’s occupation.'),
    text('employer', 'x.employer', 'Contributor’s employer.'),
  ]),
  committeeMoney('expenditures', 'What committees spent', 'expended_date', 'Spent on.', [
    text('payee', 'x.payee', 'Payee.'),
    text('purpose', 'x.purpose', 'Purpose.'),
  ]),
  organisation('lobbying_employers', 'Firms that employ lobbyists'),
  organisation('lobbying_clients', 'Clients lobbyists work for'),
  {
    name: 'lobbying_engagements',
    description: 'Which lobbyist worked for which client through which employer, by year (the `engagements` of lobbying details).',
    columns: [lobbyist('e'), text('employer_id', 'e.employer_id', 'The employer.', 'lobbying_employers'), client('e'), int('year', 'e.year', 'Year.')],
    from: 'lobbying_engagements e',
    orderBy: 'e.lobbyist_id, e.employer_id, e.client_id, e.year',
    primaryKey: ['lobbyist_id', 'employer_id', 'client_id', 'year'],
    indexes: [['employer_id'], ['client_id']],
  },
  report('lobbying_compensation', 'Compensation lobbyists reported', true, [money('amount', 'x.amount', 'Dollars, two decimals.')]),
  report('lobbying_expenditures', 'Expenditures lobbyists reported', true, [
    date('date', 'x.expended_date', 'Spent on.'),
    money('amount', 'x.amount', 'Dollars, two decimals.'),
    text('kind', 'x.kind', 'large or small.'),
    text('action', 'x.action', 'Action lobbied on.'),
    text('purpose', 'x.purpose', 'Purpose.'),
    text('recipient', 'x.recipient', 'Recipient.'),
  ]),
  report('lobbying_contributions', 'Political contributions lobbyists reported', false, [
    date('date', 'x.contribution_date', 'Given on.'),
    text('recipient', 'x.recipient', 'Recipient as reported.'),
    text('recipient_person_id', 'x.recipient_person_id', 'The recipient, when a known person.', 'people'),
    money('amount', 'x.amount', 'Dollars, two decimals.'),
  ]),
  {
    ...report('lobbying_activity', 'Whom lobbyists sought action from', true, [
      text('action', 'x.action', 'Action.'),
      text('action_sought', 'x.action_sought', 'Action sought.'),
      text('department', 'x.department', 'Department.'),
      text('official_person_id', 'x.official_person_id', 'The official lobbied, when a known person.', 'people'),
    ]),
    search: ['action', 'action_sought', 'department'],
  },
];

/** The statement that reads a table's rows, in their order. */
function bulkSelect(table: BulkTable): string {
  return `select ${table.columns.map((c) => `${c.expr} as "${c.name}"`).join(', ')} from ${table.from} order by ${table.orderBy}`;
}

export const bulkTables: readonly BulkTableRead[] = definitions.map((t) => ({ ...t, select: bulkSelect(t) }));
