// SQL of the aggregates answers state: sums of campaign receipts (by committee, year and
// contributor), lobbyists' compensation and contributions (by lobbyist and client), a person's
// voting record and agreement between two people in a period, the extent of each source in the
// database (what the record can and cannot tell), and committee chairs.
import { sql } from 'kysely';
import { recordColumns, type VotingRecordRow } from './repo-record.ts';
import { holdsWords, type WordsHeld } from './repo-retrieval.ts';
import type { Db } from './repo-sql.ts';

export interface Range {
  from?: string | undefined;
  to?: string | undefined;
}

const within = (expr: string, r: Range) =>
  sql`${r.from ? sql`and ${sql.raw(expr)} >= ${r.from}::date` : sql``} ${r.to ? sql`and ${sql.raw(expr)} <= ${r.to}::date` : sql``}`;
/** A reporting period inside the range (lobbying reports cover a quarter or a year). */
const periodWithin = (r: Range, alias = 'c') =>
  sql`${r.from ? sql`and ${sql.ref(`${alias}.period_start`)} >= ${r.from}::date` : sql``} ${r.to ? sql`and ${sql.ref(`${alias}.period_end`)} <= ${r.to}::date` : sql``}`;

export interface Extent {
  first: string | null;
  last: string | null;
  count: number;
}

/** The first and last day, and how many records, of each dated source. */
export async function extents(db: Db): Promise<Record<'receipts' | 'compensation' | 'contributions' | 'contacts' | 'gifts' | 'rollCalls', Extent>> {
  const { rows } = await sql<{ source: string } & Extent>`
    select 'receipts' as source, min(received_date)::text as first, max(received_date)::text as last, count(*)::int as count from receipts
    union all select 'compensation', min(period_start)::text, max(period_end)::text, count(*)::int from lobbying_compensation
    union all select 'contributions', min(period_start)::text, max(period_end)::text, count(*)::int from lobbying_contributions
    union all select 'contacts', min(period_start)::text, max(period_end)::text, count(*)::int from lobbying_activity where official_person_id is not null
    union all select 'gifts', min(period_start)::text, max(period_end)::text, count(*)::int from lobbying_gifts where recipient_person_id is not null
    union all select 'rollCalls', min(date)::text, max(date)::text, count(*)::int from roll_calls`.execute(db);
  const of = (s: string) => rows.find((r) => r.source === s) ?? { first: null, last: null, count: 0 };
  return {
    receipts: of('receipts'),
    compensation: of('compensation'),
    contributions: of('contributions'),
    contacts: of('contacts'),
    gifts: of('gifts'),
    rollCalls: of('rollCalls'),
  };
}

/** Whether the record lists any sponsor at all (a source may give none: then it cannot tell who sponsored what). */
export async function sponsorshipsHeld(db: Db): Promise<boolean> {
  const { rows } = await sql<{ held: boolean }>`select exists (select 1 from matter_sponsors) as held`.execute(db);
  return rows[0]!.held;
}

export interface CommitteeSum {
  committee_id: string;
  name: string;
  person_id: string | null;
  total: string;
  receipts: number;
}

/** Campaign committees by what they received in the range, most first. */
export async function committeeRanking(db: Db, range: Range, limit: number): Promise<CommitteeSum[]> {
  const { rows } = await sql<CommitteeSum>`
    select c.id as committee_id, c.name, c.person_id, sum(r.amount)::text as total, count(*)::int as receipts
    from receipts r join committees c on c.id = r.committee_id where true ${within('r.received_date', range)}
    group by c.id, c.name, c.person_id order by sum(r.amount) desc, c.id limit ${limit}`.execute(db);
  return rows;
}

/** What each of these committees received, year by year. */
export async function receiptsByYear(db: Db, committeeIds: readonly string[], range: Range) {
  const { rows } = await sql<{ committee_id: string; year: number; total: string; receipts: number }>`
    select r.committee_id, extract(year from r.received_date)::int as year, sum(r.amount)::text as total, count(*)::int as receipts
    from receipts r where r.committee_id = any(${[...committeeIds]}::text[]) ${within('r.received_date', range)}
    group by 1, 2 order by 1, 2`.execute(db);
  return rows;
}

export interface CommitteeName {
  id: string;
  name: string;
}

export interface ContributorSum {
  contributor: string;
  total: string;
  receipts: number;
  committees: CommitteeName[];
}

/** `id<TAB>name` pairs (array_agg of both keeps them apart) as committees. */
const named = (pairs: string[] | null): CommitteeName[] =>
  (pairs ?? []).map((p) => {
    const [id = '', name = ''] = p.split('\t');
    return { id, name };
  });

/** Contributors by what they gave in the range (only those whose names hold every word, when words are given), most first. */
export async function contributorRanking(db: Db, range: Range, limit: number, words: readonly string[] = []): Promise<ContributorSum[]> {
  const having = words.map((w) => sql`and r.contributor ilike ${`%${w.replace(/[%_\\]/g, '\\$&')}%`}`);
  const { rows } = await sql<Omit<ContributorSum, 'committees'> & { pairs: string[] }>`
    select r.contributor, sum(r.amount)::text as total, count(*)::int as receipts, array_agg(distinct c.id || E'\t' || c.name) as pairs
    from receipts r join committees c on c.id = r.committee_id where true ${within('r.received_date', range)} ${sql.join(having, sql` `)}
    group by r.contributor order by sum(r.amount) desc, r.contributor limit ${limit}`.execute(db);
  return rows.map(({ pairs, ...row }) => ({ ...row, committees: named(pairs) }));
}

/** Every receipt in the range summed, with the committees that received them. */
export async function receiptsTotal(db: Db, range: Range) {
  const { rows } = await sql<{ total: string | null; receipts: number; pairs: string[] | null }>`
    select sum(r.amount)::text as total, count(*)::int as receipts, array_agg(distinct c.id || E'\t' || c.name) as pairs
    from receipts r join committees c on c.id = r.committee_id where true ${within('r.received_date', range)}`.execute(db);
  const { pairs, ...row } = rows[0]!;
  return { ...row, committees: named(pairs) };
}

/** A lobbyist's sums are by name: the source registers a lobbyist anew each year, as a record of its own. */
export interface LobbyistSum {
  lobbyist_ids: string[];
  name: string;
  total: string;
  reports: number;
  clients: number;
}

/** Lobbyists by the compensation they reported for periods in the range (from these clients, when given), most first. */
export async function lobbyistCompensation(db: Db, range: Range, limit: number, clientIds?: readonly string[]): Promise<LobbyistSum[]> {
  if (clientIds?.length === 0) return [];
  const { rows } = await sql<LobbyistSum>`
    select array_agg(distinct c.lobbyist_id) as lobbyist_ids, p.name, sum(c.amount)::text as total, count(*)::int as reports, count(distinct c.client_id)::int as clients
    from lobbying_compensation c join people p on p.id = c.lobbyist_id
    where true ${periodWithin(range)} ${clientIds ? sql`and c.client_id in (${sql.join(clientIds)})` : sql``}
    group by p.name order by sum(c.amount) desc, p.name limit ${limit}`.execute(db);
  return rows;
}

/** Lobbying clients by the compensation their lobbyists reported for periods in the range, most first. */
export async function clientCompensation(db: Db, range: Range, limit: number) {
  const { rows } = await sql<{ client_id: string; name: string; total: string; lobbyists: number }>`
    select c.client_id, k.name, sum(c.amount)::text as total, count(distinct c.lobbyist_id)::int as lobbyists
    from lobbying_compensation c join lobbying_clients k on k.id = c.client_id where true ${periodWithin(range)}
    group by c.client_id, k.name order by sum(c.amount) desc, c.client_id limit ${limit}`.execute(db);
  return rows;
}

/** Lobbying clients whose names hold every one of these words, those with most compensation reported first. */
export async function clientsNamed(db: Db, words: readonly string[], limit: number) {
  if (words.length === 0) return [];
  const named = words.map((w) => sql`and k.name ~* ${`\\m${w.replace(/[^\p{L}\p{N}]/gu, '')}\\M`}`);
  const { rows } = await sql<{ id: string; name: string; total: string | null }>`
    select k.id, k.name, (select sum(c.amount)::text from lobbying_compensation c where c.client_id = k.id) as total
    from lobbying_clients k where true ${sql.join(named, sql` `)}
    order by (select sum(c.amount) from lobbying_compensation c where c.client_id = k.id) desc nulls last, k.id limit ${limit}`.execute(db);
  return rows;
}

/** Lobbyists (by name, as LobbyistSum) by the political contributions they reported in the range, most first. */
export async function lobbyistGiving(db: Db, range: Range, limit: number) {
  const { rows } = await sql<{ lobbyist_ids: string[]; name: string; total: string; contributions: number }>`
    select array_agg(distinct c.lobbyist_id) as lobbyist_ids, p.name, sum(c.amount)::text as total, count(*)::int as contributions
    from lobbying_contributions c join people p on p.id = c.lobbyist_id where true ${periodWithin(range)}
    group by p.name order by sum(c.amount) desc, p.name limit ${limit}`.execute(db);
  return rows;
}

/** The officials lobbyists reported political contributions to, most first (reporting periods in the range). */
export async function lobbyistMoneyByRecipient(db: Db, range: Range, limit: number) {
  const { rows } = await sql<{ person_id: string; name: string; kind: string; ward: number | null; total: string; contributions: number; lobbyists: number }>`
    select c.recipient_person_id as person_id, p.name, p.kind, p.ward, sum(c.amount)::text as total, count(*)::int as contributions,
      count(distinct c.lobbyist_id)::int as lobbyists
    from lobbying_contributions c join people p on p.id = c.recipient_person_id where true ${periodWithin(range)}
    group by c.recipient_person_id, p.name, p.kind, p.ward order by sum(c.amount) desc, p.name limit ${limit}`.execute(db);
  return rows;
}

/** The officials lobbyists reported giving gifts to, most gifts first, then the largest value (reporting periods in the range). */
export async function lobbyistGiftsByRecipient(db: Db, range: Range, limit: number) {
  const { rows } = await sql<{ person_id: string; name: string; kind: string; ward: number | null; total: string; gifts: number; lobbyists: number }>`
    select g.recipient_person_id as person_id, p.name, p.kind, p.ward, sum(g.amount)::text as total, count(*)::int as gifts,
      count(distinct g.lobbyist_id)::int as lobbyists
    from lobbying_gifts g join people p on p.id = g.recipient_person_id where true ${periodWithin(range, 'g')}
    group by g.recipient_person_id, p.name, p.kind, p.ward order by count(*) desc, sum(g.amount) desc, p.name limit ${limit}`.execute(db);
  return rows;
}

/**
 * The lobbyists who reported the most gifts (each lobbyist's registrations together, as
 * lobbyistGiving), to anyone the reports name: a City official or employee whom the record may not
 * hold as a person, so recipients are counted by their published names.
 */
export async function lobbyistGiftGiving(db: Db, range: Range, limit: number) {
  const { rows } = await sql<{ lobbyist_ids: string[]; name: string; total: string; gifts: number; recipients: number }>`
    select array_agg(distinct g.lobbyist_id) as lobbyist_ids, p.name, sum(g.amount)::text as total, count(*)::int as gifts,
      count(distinct lower(g.recipient))::int as recipients
    from lobbying_gifts g join people p on p.id = g.lobbyist_id where true ${periodWithin(range, 'g')}
    group by p.name order by count(*) desc, sum(g.amount) desc, p.name limit ${limit}`.execute(db);
  return rows;
}

/** The officials lobbyists' activity reports name as contacted in the range, most reports first. */
export async function lobbyingContactsByOfficial(db: Db, range: Range, limit: number) {
  const { rows } = await sql<{ person_id: string; name: string; kind: string; ward: number | null; reports: number; lobbyists: number; clients: number }>`
    select a.official_person_id as person_id, p.name, p.kind, p.ward, count(*)::int as reports,
      count(distinct a.lobbyist_id)::int as lobbyists, count(distinct a.client_id)::int as clients
    from lobbying_activity a join people p on p.id = a.official_person_id
    where true ${within('a.period_end', { from: range.from })} ${within('a.period_start', { to: range.to })}
    group by a.official_person_id, p.name, p.kind, p.ward order by count(*) desc, p.name limit ${limit}`.execute(db);
  return rows;
}

export type VotingRecord = VotingRecordRow;

/** A person's roll calls in the range, counted as their page counts them (repo-record.ts `recordColumns`). */
export async function votingRecordIn(db: Db, personId: string, range: Range): Promise<VotingRecord> {
  const { rows } = await sql<VotingRecord>`
    select ${recordColumns}
    from votes v join roll_calls r on r.id = v.roll_call_id where v.person_id = ${personId} ${within('r.date', range)}`.execute(db);
  return rows[0]!;
}

export interface RankedVotingRecord extends VotingRecordRow {
  person_id: string;
  name: string;
  ward: number | null;
}

/**
 * Every alderperson's roll calls in the range, counted as their page counts them (repo-record.ts
 * `recordColumns`), for the people who cast any vote in it: what "who missed the most votes in
 * 2026" ranks. One grouped pass over the range's votes; with `about`, only the roll calls on
 * matters holding `k` of those words ("who voted against the most settlements?").
 */
export async function votingRecordsIn(db: Db, range: Range, about: WordsHeld | null = null): Promise<RankedVotingRecord[]> {
  const onMatters = about ? sql`and r.matter_id in (select m.id from matters m where ${holdsWords('m.search', about)})` : sql``;
  const { rows } = await sql<RankedVotingRecord>`
    select v.person_id, p.name, p.ward, ${recordColumns}
    from votes v join roll_calls r on r.id = v.roll_call_id join people p on p.id = v.person_id
    where p.kind = 'alderperson' ${within('r.date', range)} ${onMatters}
    group by v.person_id, p.name, p.ward, p.sort_name
    order by p.sort_name, v.person_id`.execute(db);
  return rows;
}

/**
 * The alderpersons who sponsored the most matters introduced in the range (of these types, when
 * given, as the source types them: "Ordinance"), counting each matter once whatever their role,
 * with how many of those they were the lead (not a co-) sponsor of (more of those first, in a tie).
 */
export async function sponsorRanking(db: Db, range: Range, types: readonly string[], limit: number) {
  const { rows } = await sql<{ person_id: string; name: string; ward: number | null; sponsored: number; lead: number }>`
    select s.person_id, p.name, p.ward, count(distinct s.matter_id)::int as sponsored,
      count(distinct s.matter_id) filter (where s.role <> 'cosponsor')::int as lead
    from matter_sponsors s join matters m on m.id = s.matter_id join people p on p.id = s.person_id
    where p.kind = 'alderperson' ${within('m.introduction_date', range)}
      ${types.length ? sql`and lower(m.type) = any(${[...types]}::text[])` : sql``}
    group by s.person_id, p.name, p.ward, p.sort_name
    order by count(distinct s.matter_id) desc, count(distinct s.matter_id) filter (where s.role <> 'cosponsor') desc, p.sort_name, s.person_id limit ${limit}`.execute(
    db,
  );
  return rows;
}

/**
 * Matters introduced in the range, of these types (any when none) and, with `about`, holding `k`
 * of those words: the latest `limit`, how many there are, how many of every type and subject, and
 * the first and last introduction day among them; and what the record dates at all (matters known
 * from a roll call alone come without an introduction day).
 */
export async function introducedIn(db: Db, range: Range, types: readonly string[], limit: number, about: WordsHeld | null = null) {
  const ofTypes = sql`${types.length ? sql`and lower(m.type) = any(${[...types]}::text[])` : sql``} ${about ? sql`and ${holdsWords('m.search', about)}` : sql``}`;
  const inRange = sql`m.introduction_date is not null ${within('m.introduction_date', range)}`;
  const [latest, counts] = await Promise.all([
    sql<{ record_number: string; title: string; type: string; status: string | null; introduction_date: string }>`
      select m.record_number, m.title, m.type, m.status, m.introduction_date::text as introduction_date
      from matters m where ${inRange} ${ofTypes}
      order by m.introduction_date desc, m.record_number desc limit ${limit}`.execute(db),
    // One pass over the matters: the range's counts and what the record dates at all.
    sql<{
      total: number;
      all_types: number;
      first: string | null;
      last: string | null;
      dated: number;
      matters: number;
      dated_first: string | null;
      dated_last: string | null;
    }>`
      select count(*) filter (where ${inRange} ${ofTypes})::int as total, count(*) filter (where ${inRange})::int as all_types,
        (min(m.introduction_date) filter (where ${inRange} ${ofTypes}))::text as first,
        (max(m.introduction_date) filter (where ${inRange} ${ofTypes}))::text as last,
        count(m.introduction_date)::int as dated, count(*)::int as matters,
        min(m.introduction_date)::text as dated_first, max(m.introduction_date)::text as dated_last
      from matters m`.execute(db),
  ]);
  return { latest: latest.rows, ...counts.rows[0]! };
}

/**
 * The roll calls in the range with a Yea or Nay recorded (a rising vote has no tally), with their
 * matter and body and how many there are in all: the latest first, or (`margin`) those decided by
 * the fewest votes (|Yea − Nay|, then the latest): what "which votes were closest in 2026?" ranks.
 */
export async function rollCallsIn(db: Db, range: Range, order: 'latest' | 'margin' | 'unanimous', limit: number) {
  const { rows } = await sql<{
    id: string;
    date: string;
    action_name: string;
    yea: number;
    nay: number;
    record_number: string | null;
    title: string | null;
    type: string | null;
    body_name: string | null;
    total: number;
    all_total: number;
  }>`
    select r.id, r.date::text as date, r.action_name, r.yea, r.nay, m.record_number, m.title, m.type, b.name as body_name,
      count(*) over ()::int as total,
      ${order === 'unanimous' ? sql`(select count(*) from roll_calls a where a.yea + a.nay > 0 ${within('a.date', range)})::int` : sql`count(*) over ()::int`} as all_total
    from roll_calls r left join matters m on m.id = r.matter_id left join bodies b on b.id = r.body_id
    where r.yea + r.nay > 0 ${within('r.date', range)} ${order === 'unanimous' ? sql`and (r.yea = 0 or r.nay = 0)` : sql``}
    order by ${order === 'margin' ? sql`abs(r.yea - r.nay),` : sql``} r.date desc, r.id limit ${limit}`.execute(db);
  return rows;
}

/** Roll calls in the range on which both people voted Yea or Nay, and on how many they voted alike. */
export async function agreement(db: Db, a: string, b: string, range: Range) {
  const { rows } = await sql<{ both: number; same: number; first: string | null; last: string | null }>`
    select count(*)::int as both, count(*) filter (where x.value = y.value)::int as same, min(r.date)::text as first, max(r.date)::text as last
    from votes x join votes y on y.roll_call_id = x.roll_call_id join roll_calls r on r.id = x.roll_call_id
    where x.person_id = ${a} and y.person_id = ${b} and x.value in ('Yea', 'Nay') and y.value in ('Yea', 'Nay') ${within('r.date', range)}`.execute(db);
  return rows[0]!;
}

/** The roll calls in the range on which the two voted Yea or Nay and not alike. */
export async function splitRollCalls(db: Db, a: string, b: string, range: Range) {
  const { rows } = await sql<{ roll_call_id: string; date: string; record_number: string | null; a: string; b: string }>`
    select r.id as roll_call_id, r.date::text as date, m.record_number, x.value as a, y.value as b
    from votes x join votes y on y.roll_call_id = x.roll_call_id join roll_calls r on r.id = x.roll_call_id left join matters m on m.id = r.matter_id
    where x.person_id = ${a} and y.person_id = ${b} and x.value in ('Yea', 'Nay') and y.value in ('Yea', 'Nay') and x.value <> y.value ${within('r.date', range)}
    order by r.date desc, r.id limit 20`.execute(db);
  return rows;
}

/** The members of a body whose role names a chair (Chair, Vice Chair, Chairman…). */
export async function chairsOf(db: Db, bodyId: string) {
  const { rows } = await sql<{ person_id: string; name: string; role: string }>`
    select m.person_id, p.name, m.role from body_memberships m join people p on p.id = m.person_id
    where m.body_id = ${bodyId} and m.role ilike '%chair%' and (m.end_date is null or m.end_date >= current_date)
    order by m.role ilike 'vice%', p.sort_name`.execute(db);
  return rows;
}

/**
 * The alderpersons who chair the most active committees today (vice chairs apart): how many
 * standing and joint committees each chairs, the standing ones named.
 */
export async function chairRanking(db: Db, limit: number) {
  const chairRole = sql`m.role ilike '%chair%' and m.role not ilike 'vice%'`;
  const { rows } = await sql<{ person_id: string; name: string; ward: number | null; chairs: number; joint: number; standing: string[] }>`
    select p.id as person_id, p.name, p.ward, count(distinct b.id)::int as chairs,
      count(distinct b.id) filter (where b.kind = 'joint_committee')::int as joint,
      coalesce(array_agg(distinct b.name) filter (where b.kind <> 'joint_committee'), '{}') as standing
    from body_memberships m join bodies b on b.id = m.body_id join people p on p.id = m.person_id
    where ${chairRole} and b.active and b.kind <> 'council' and p.kind = 'alderperson' and (m.end_date is null or m.end_date >= current_date)
    group by p.id, p.name, p.ward, p.sort_name
    order by count(distinct b.id) desc, p.sort_name limit ${limit}`.execute(db);
  return rows;
}

/** The active bodies a person is a member of today, with the role (chairs first). */
export async function membershipsOf(db: Db, personId: string) {
  const { rows } = await sql<{ body_id: string; name: string; role: string }>`
    select s.* from (
      select distinct b.id as body_id, b.name, m.role from body_memberships m join bodies b on b.id = m.body_id
      where m.person_id = ${personId} and b.active and b.kind <> 'council' and (m.end_date is null or m.end_date >= current_date)
    ) s order by s.role ilike '%chair%' desc, s.role ilike 'vice%', s.name`.execute(db);
  return rows;
}

/** A meeting's agenda items in their order. */
/**
 * A meeting's testimony given in a public capacity (officials, staff, lobbyists: named, as the
 * meeting's page names them), and how many others testified (residents and community members:
 * counted, never named).
 */
export async function testimonyAt(db: Db, meetingId: string, limit: number) {
  const publicCapacity = sql`t.speaker_kind in ('official', 'staff', 'lobbyist')`;
  const [named, counted] = await Promise.all([
    sql<{ id: string; speaker_name: string; speaker_kind: string; organization: string | null; position: string | null; summary: string | null }>`
      select t.id, t.speaker_name, t.speaker_kind, t.organization, t.position, t.summary
      from testimony t where t.meeting_id = ${meetingId} and ${publicCapacity}
      order by t.speaker_name, t.id limit ${limit}`.execute(db),
    sql<{ others: number }>`select count(*)::int as others from testimony t where t.meeting_id = ${meetingId} and not (${publicCapacity})`.execute(db),
  ]);
  return { named: named.rows, others: counted.rows[0]!.others };
}

export async function agendaItems(db: Db, meetingId: string, limit: number) {
  return db.selectFrom('agenda_items').select(['sort', 'record_number', 'title']).where('meeting_id', '=', meetingId).orderBy('sort').limit(limit).execute();
}
