// SQL of the retrieval reads that answers are composed from (service-retrieval.ts): names to
// people and committees, a council's sittings and what passed at them, votes on matters, the
// largest contributors to a committee, lobbyists' reported contacts and contributions, and ranked
// passages across the record. Search terms reach SQL only as single words of letters and digits
// (`words`), so a tsquery built from them can never be malformed.
import { type RawBuilder, sql } from 'kysely';
import type { Db } from './repo-sql.ts';
import { publicPersonKinds } from './schema-people.ts';

const plainWord = /^[a-z0-9]{1,40}$/;
/** A word of a topical search, or a group of words that mean the same there (`ban|prohibit`), counted as one word. */
const topicWord = /^[a-z0-9]{1,40}(\|[a-z0-9]{1,40}){0,7}$/;
const kept = (terms: readonly string[], pattern: RegExp, max: number) => [...new Set(terms.filter((t) => pattern.test(t)))].slice(0, max);

/** Only single words of lower-case letters and digits become tsquery operands; at most `max` of them. */
export function words(terms: readonly string[], max = 12): string[] {
  return kept(terms, plainWord, max);
}

/** The words of a topical search (mattersMatching, passages, matterWordCounts): plain words and synonym groups. */
const topicWords = (terms: readonly string[]) => kept(terms, topicWord, 12);

/** One word of a tsquery: a group as the choice of its words. */
const asQueryWord = (w: string) => (w.includes('|') ? `(${w.split('|').join(' | ')})` : w);

/** A name can come late in a long question: names are looked for among this many of its words. */
const NAME_WORDS = 80;

/**
 * Rows holding at least `k` of the words: an OR of every k-word AND (the words are few), in
 * either parse (prose is stemmed, names and numbers are not). The GIN index answers it, so only
 * rows about enough of the question are ever read.
 */
function atLeast(terms: readonly string[], k: number): RawBuilder<unknown> {
  const w = terms.slice(0, 8);
  const need = Math.max(1, Math.min(k, w.length));
  const groups: string[] = [];
  const pick = (start: number, chosen: string[]) => {
    if (chosen.length === need) groups.push(`(${chosen.map(asQueryWord).join(' & ')})`);
    else for (let i = start; i <= w.length - (need - chosen.length); i++) pick(i + 1, [...chosen, w[i]!]);
  };
  pick(0, []);
  const q = groups.join(' | ');
  return sql`(to_tsquery('english', ${q}) || to_tsquery('simple', ${q}))`;
}

/** Topical words (and groups) a record must hold at least `k` of: a subject to narrow a count to. */
export interface WordsHeld {
  words: readonly string[];
  k: number;
}

/** That a row's search vector holds at least `k` of the topical words; true when there are none. */
export function holdsWords(searchRef: string, about: WordsHeld): RawBuilder<boolean> {
  const w = topicWords(about.words);
  return w.length ? sql<boolean>`${sql.ref(searchRef)} @@ ${atLeast(w, about.k)}` : sql<boolean>`true`;
}

/** How many of the words a row's search vector holds: the passage's coverage of the question. */
function matched(searchRef: string, terms: readonly string[]): RawBuilder<number> {
  return sql<number>`(select count(*)::int from unnest(${[...terms]}::text[]) as question_word(w)
    where ${sql.ref(searchRef)} @@ (to_tsquery('english', w) || to_tsquery('simple', w)))`;
}

/** Public people whose names hold any of the words; alderpersons first, then the best matches. */
export async function peopleNamed(db: Db, terms: readonly string[], limit: number) {
  const w = words(terms, NAME_WORDS);
  if (w.length === 0) return [];
  const q = w.join(' | ');
  const { rows } = await sql<{ id: string; name: string; kind: string; ward: number | null; current: boolean }>`
    select p.id, p.name, p.kind, p.ward, p.current from people p
    where p.kind in (${sql.join([...publicPersonKinds])}) and p.search @@ to_tsquery('simple', ${q})
    order by (p.kind = 'alderperson') desc, ts_rank(p.search, to_tsquery('simple', ${q})) desc, p.current desc, p.sort_name
    limit ${limit}`.execute(db);
  return rows;
}

export async function allBodies(db: Db) {
  return db.selectFrom('bodies').select(['id', 'name', 'abbreviation', 'kind', 'active']).orderBy('name').limit(1000).execute();
}

/** Campaign committees of these people, or whose names hold any of the words. */
export async function committeesFor(db: Db, personIds: readonly string[], terms: readonly string[]) {
  const w = words(terms, NAME_WORDS);
  // Committee names are few and short: matched on the fly, no index needed.
  const byName = w.length ? sql`to_tsvector('simple', c.name) @@ to_tsquery('simple', ${w.join(' | ')})` : sql`false`;
  const byPerson = personIds.length ? sql`c.person_id = any(${[...personIds]}::text[])` : sql`false`;
  const { rows } = await sql<{ id: string; name: string; person_id: string | null; ward: number | null }>`
    select c.id, c.name, c.person_id, c.ward from committees c where ${byPerson} or ${byName} order by c.name limit 200`.execute(db);
  return rows;
}

/** Matters a person is listed as sponsoring, newest first. */
export async function sponsoredBy(db: Db, personId: string, range: Range, limit: number) {
  const { rows } = await sql<{ record_number: string; type: string; title: string; introduction_date: string | null; role: string; status: string | null }>`
    select m.record_number, m.type, m.title, m.introduction_date::text as introduction_date, s.role, m.status
    from matter_sponsors s join matters m on m.id = s.matter_id
    where s.person_id = ${personId} ${within('m.introduction_date', range)}
    order by m.introduction_date desc nulls last, m.record_number limit ${limit}`.execute(db);
  return rows;
}

interface Range {
  from?: string | undefined;
  to?: string | undefined;
}
/** `and <expr> between the range's days`, for a date expression written here (never from input). */
const within = (expr: string, r: Range) =>
  sql`${r.from ? sql`and ${sql.raw(expr)} >= ${r.from}::date` : sql``} ${r.to ? sql`and ${sql.raw(expr)} <= ${r.to}::date` : sql``}`;

export async function topContributors(db: Db, committeeIds: readonly string[], range: Range, limit: number) {
  const { rows } = await sql<{ contributor: string; total: string; receipts: number; first: string; last: string }>`
    select r.contributor, sum(r.amount)::text as total, count(*)::int as receipts, min(r.received_date)::text as first, max(r.received_date)::text as last
    from receipts r where r.committee_id = any(${[...committeeIds]}::text[]) ${within('r.received_date', range)}
    group by r.contributor order by sum(r.amount) desc, r.contributor limit ${limit}`.execute(db);
  return rows;
}

/** The committees' largest single receipts in the range, largest first. */
export async function largestReceipts(db: Db, committeeIds: readonly string[], range: Range, limit: number) {
  const { rows } = await sql<{ committee_id: string; contributor: string; amount: string; received_date: string }>`
    select r.committee_id, r.contributor, r.amount::text as amount, r.received_date::text as received_date
    from receipts r where r.committee_id = any(${[...committeeIds]}::text[]) ${within('r.received_date', range)}
    order by r.amount desc, r.received_date desc, r.contributor limit ${limit}`.execute(db);
  return rows;
}

export async function receiptTotals(db: Db, committeeIds: readonly string[], range: Range) {
  const { rows } = await sql<{ committee_id: string; total: string; receipts: number; first: string | null; last: string | null }>`
    select r.committee_id, sum(r.amount)::text as total, count(*)::int as receipts, min(r.received_date)::text as first, max(r.received_date)::text as last
    from receipts r where r.committee_id = any(${[...committeeIds]}::text[]) ${within('r.received_date', range)}
    group by r.committee_id`.execute(db);
  return rows;
}

/** Lobbyists whose activity reports name this official, most reports first. */
export async function lobbyistContacts(db: Db, personId: string, range: Range, limit: number) {
  const { rows } = await sql<{
    lobbyist_id: string;
    name: string;
    reports: number;
    clients: string[];
    sought: string[];
    first: string | null;
    last: string | null;
  }>`
    select a.lobbyist_id, p.name, count(*)::int as reports,
      coalesce(array_agg(distinct c.name) filter (where c.name is not null), '{}') as clients,
      coalesce(array_agg(distinct a.action_sought) filter (where a.action_sought is not null), '{}') as sought,
      min(a.period_start)::text as first, max(a.period_end)::text as last
    from lobbying_activity a join people p on p.id = a.lobbyist_id left join lobbying_clients c on c.id = a.client_id
    where a.official_person_id = ${personId} ${within('a.period_end', { from: range.from })} ${within('a.period_start', { to: range.to })}
    group by a.lobbyist_id, p.name order by count(*) desc, p.name limit ${limit}`.execute(db);
  return rows;
}

/** Political contributions lobbyists reported giving this official, largest totals first. */
export async function lobbyistContributions(db: Db, personId: string, range: Range, limit: number) {
  const { rows } = await sql<{ lobbyist_id: string; name: string; total: string; contributions: number; first: string | null; last: string | null }>`
    select c.lobbyist_id, p.name, sum(c.amount)::text as total, count(*)::int as contributions,
      min(coalesce(c.contribution_date, c.period_start))::text as first, max(coalesce(c.contribution_date, c.period_end))::text as last
    from lobbying_contributions c join people p on p.id = c.lobbyist_id
    where c.recipient_person_id = ${personId} ${within('coalesce(c.contribution_date, c.period_end)', range)}
    group by c.lobbyist_id, p.name order by sum(c.amount) desc, p.name limit ${limit}`.execute(db);
  return rows;
}

/** Gifts lobbyists reported giving this official, largest totals first (reporting periods in the range). */
export async function lobbyistGifts(db: Db, personId: string, range: Range, limit: number) {
  const { rows } = await sql<{ lobbyist_id: string; name: string; total: string; gifts: number; what: string[]; first: string | null; last: string | null }>`
    select g.lobbyist_id, p.name, sum(g.amount)::text as total, count(*)::int as gifts,
      array_agg(distinct g.description) filter (where g.description is not null) as what,
      min(g.period_start)::text as first, max(g.period_end)::text as last
    from lobbying_gifts g join people p on p.id = g.lobbyist_id
    where g.recipient_person_id = ${personId} ${within('g.period_end', { from: range.from })} ${within('g.period_start', { to: range.to })}
    group by g.lobbyist_id, p.name order by sum(g.amount) desc, p.name limit ${limit}`.execute(db);
  return rows;
}

/**
 * The body an action belongs to: its id, or, where the source gave only a name, that name (any
 * letter case) or the name with "Chicago " before it (the clerk's older rows say "Chicago City
 * Council"). Both are index range scans (matter_actions_body_date, matter_actions_unlinked_body).
 */
function actionOfBody(body: { ids: readonly string[]; names: readonly string[] }): RawBuilder<boolean> {
  const names = body.names.flatMap((n) => [n.toLowerCase(), `chicago ${n.toLowerCase()}`]);
  return sql<boolean>`(a.body_id = any(${[...body.ids]}::text[]) or (a.body_id is null and lower(a.body_name) = any(${names}::text[])))`;
}

/**
 * The body's latest day of business on or before `day`: an action or a roll call, or (unless only
 * days with recorded business are wanted) a held meeting.
 */
export async function lastSitting(db: Db, body: { ids: readonly string[]; names: readonly string[] }, day: string, businessOnly: boolean) {
  const names = body.names.flatMap((n) => [n.toLowerCase(), `chicago ${n.toLowerCase()}`]);
  const meetings = businessOnly
    ? sql``
    : sql`union all select max((g.start_time at time zone 'America/Chicago')::date) from meetings g
        where g.body_id = any(${[...body.ids]}::text[]) and g.status = 'held' and (g.start_time at time zone 'America/Chicago')::date <= ${day}::date`;
  const { rows } = await sql<{ day: string | null }>`
    select max(d)::text as day from (
      select max(a.action_date) as d from matter_actions a where a.body_id = any(${[...body.ids]}::text[]) and a.action_date <= ${day}::date
      union all select max(a.action_date) from matter_actions a where a.body_id is null and lower(a.body_name) = any(${names}::text[]) and a.action_date <= ${day}::date
      union all select max(r.date) from roll_calls r where r.body_id = any(${[...body.ids]}::text[]) and r.date <= ${day}::date
      ${meetings}
    ) x`.execute(db);
  return rows[0]?.day ?? null;
}

/** The body's actions on matters between two days, with the roll call of each where there was one. */
export async function actionsBetween(
  db: Db,
  body: { ids: readonly string[]; names: readonly string[] },
  range: { from: string; to: string },
  limit: number,
  /** Only actions whose name this matches (case-insensitive, as PostgreSQL's `~*` reads it). */
  named?: RegExp,
) {
  const { rows } = await sql<{
    matter_id: string;
    record_number: string;
    type: string;
    title: string;
    action: string;
    date: string;
    meeting_id: string | null;
    roll_call_id: string | null;
    yea: number | null;
    nay: number | null;
  }>`
    select * from (
      select m.id as matter_id, m.record_number, m.type, m.title, a.action_name as action, a.action_date::text as date, a.meeting_id,
        r.id as roll_call_id, r.yea, r.nay
      from matter_actions a join matters m on m.id = a.matter_id
      left join lateral (select * from roll_calls r where r.matter_id = a.matter_id and r.action_id = a.id order by r.date desc, r.id limit 1) r on true
      where ${actionOfBody(body)} and a.action_date between ${range.from}::date and ${range.to}::date
      -- Roll calls the source gave without their action row are actions too.
      union all
      select m.id, m.record_number, m.type, m.title, r.action_name, r.date::text, r.meeting_id, r.id, r.yea, r.nay
      from roll_calls r join matters m on m.id = r.matter_id
      where r.body_id = any(${[...body.ids]}::text[]) and r.date between ${range.from}::date and ${range.to}::date
        and (r.action_id is null or not exists (select 1 from matter_actions x where x.id = r.action_id))
    ) acted ${named ? sql`where acted.action ~* ${named.source}` : sql``} order by acted.date desc, acted.record_number limit ${limit}`.execute(db);
  return rows;
}

/** The span of the days on which the record holds actions or roll calls of the body, and how many. */
export async function actionsExtent(db: Db, body: { ids: readonly string[]; names: readonly string[] }) {
  const { rows } = await sql<{ first: string | null; last: string | null; count: number }>`
    select min(d)::text as first, max(d)::text as last, count(*)::int as count from (
      select a.action_date as d from matter_actions a where ${actionOfBody(body)} and a.action_date is not null
      union all
      select r.date from roll_calls r where r.body_id = any(${[...body.ids]}::text[])
    ) acted`.execute(db);
  return rows[0]!;
}

/** Meetings of the body held on these days (Chicago dates). */
export async function meetingsOn(db: Db, bodyIds: readonly string[], days: readonly string[]) {
  if (bodyIds.length === 0 || days.length === 0) return [];
  const { rows } = await sql<{ id: string; body_name: string; day: string }>`
    select g.id, g.body_name, (g.start_time at time zone 'America/Chicago')::date::text as day from meetings g
    where g.body_id = any(${[...bodyIds]}::text[]) and (g.start_time at time zone 'America/Chicago')::date = any(${[...days]}::date[])
    order by g.start_time`.execute(db);
  return rows;
}

/** Meetings of the bodies from a Chicago day on (`next`, soonest first) or up to it (`last`, latest first). */
export async function meetingsAround(db: Db, bodyIds: readonly string[], day: string, direction: 'next' | 'last', limit: number) {
  if (bodyIds.length === 0) return [];
  const local = sql`(g.start_time at time zone 'America/Chicago')::date`;
  const { rows } = await sql<{ id: string; body_name: string; day: string; time: string; status: string; location: string | null }>`
    select g.id, g.body_name, ${local}::text as day, to_char(g.start_time at time zone 'America/Chicago', 'HH24:MI') as time, g.status, g.location
    from meetings g
    where g.body_id = any(${[...bodyIds]}::text[]) and ${local} ${direction === 'next' ? sql`>=` : sql`<=`} ${day}::date
    order by g.start_time ${direction === 'next' ? sql`asc` : sql`desc`}, g.id limit ${limit}`.execute(db);
  return rows;
}

/** Meetings of the bodies between two Chicago days, in order, with how many there are in all. */
export async function meetingsIn(db: Db, bodyIds: readonly string[], range: Range, limit: number) {
  if (bodyIds.length === 0) return [];
  const local = "(g.start_time at time zone 'America/Chicago')::date";
  const { rows } = await sql<{ id: string; body_name: string; day: string; time: string; status: string; location: string | null; total: number }>`
    select g.id, g.body_name, ${sql.raw(local)}::text as day, to_char(g.start_time at time zone 'America/Chicago', 'HH24:MI') as time, g.status, g.location,
      count(*) over ()::int as total
    from meetings g
    where g.body_id = any(${[...bodyIds]}::text[]) ${within(local, range)}
    order by g.start_time, g.id limit ${limit}`.execute(db);
  return rows;
}

/**
 * How many meetings of these bodies the record holds in the range (held or scheduled, and
 * cancelled), and the first and last day of all their meetings in the record: what it can tell.
 */
export async function meetingCount(db: Db, bodyIds: readonly string[], range: Range) {
  const local = "(g.start_time at time zone 'America/Chicago')::date";
  const { rows } = await sql<{ met: number; cancelled: number; count: number; first: string | null; last: string | null }>`
    select count(*) filter (where g.status <> 'cancelled' ${within(local, range)})::int as met,
      count(*) filter (where g.status = 'cancelled' ${within(local, range)})::int as cancelled,
      count(*)::int as count, min(${sql.raw(local)})::text as first, max(${sql.raw(local)})::text as last
    from meetings g where g.body_id = any(${[...bodyIds]}::text[])`.execute(db);
  return rows[0]!;
}

/** Votes of these people in the roll calls on these matters. */
export async function votesOn(db: Db, matterIds: readonly string[], personIds: readonly string[]) {
  if (matterIds.length === 0 || personIds.length === 0) return [];
  const { rows } = await sql<{ roll_call_id: string; person_id: string; value: string; date: string; matter_id: string }>`
    select v.roll_call_id, v.person_id, v.value, v.date::text as date, v.matter_id from votes v
    where v.matter_id = any(${[...matterIds]}::text[]) and v.person_id = any(${[...personIds]}::text[])
    order by v.date, v.roll_call_id`.execute(db);
  return rows;
}

/** A person's latest votes (index votes_person), with what each roll call was about. */
export async function recentVotes(db: Db, personId: string, range: Range, limit: number, values: readonly string[] = []) {
  const { rows } = await sql<{
    roll_call_id: string;
    value: string;
    date: string;
    action: string;
    yea: number;
    nay: number;
    matter_id: string | null;
    record_number: string | null;
    title: string | null;
    type: string | null;
  }>`
    select v.roll_call_id, v.value, v.date::text as date, r.action_name as action, r.yea, r.nay, m.id as matter_id, m.record_number, m.title, m.type
    from votes v join roll_calls r on r.id = v.roll_call_id left join matters m on m.id = v.matter_id
    where v.person_id = ${personId} ${within('v.date', range)} ${values.length ? sql`and v.value = any(${[...values]}::text[])` : sql``}
    order by v.date desc, v.roll_call_id limit ${limit}`.execute(db);
  return rows;
}

/**
 * Matters holding at least `k` of the words (the newest 300 such), with how many each holds, best
 * match first. `votedOnly`: those with a roll call alone, the latest voted on first among equal
 * matches: "the tax levy" someone asks a vote on is this year's, not the one of many that repeats
 * the words most.
 */
export async function mattersMatching(db: Db, terms: readonly string[], k: number, range: Range, limit: number, votedOnly = false) {
  const w = topicWords(terms);
  if (w.length === 0) return [];
  const { rows } = await sql<{
    id: string;
    record_number: string;
    type: string;
    title: string;
    status: string | null;
    introduction_date: string | null;
    voted: boolean;
    matched: number;
    rank: number;
  }>`
    select m.id, m.record_number, m.type, m.title, m.status, m.introduction_date::text as introduction_date,
      exists (select 1 from roll_calls r where r.matter_id = m.id) as voted, ${matched('m.search', w)} as matched,
      ts_rank(m.search, ${atLeast(w, 1)})::real as rank
    from (select * from matters m where m.search @@ ${atLeast(w, k)} ${within('m.introduction_date', range)}
      ${votedOnly ? sql`and exists (select 1 from roll_calls r where r.matter_id = m.id)` : sql``}
      order by m.introduction_date desc nulls last, m.id limit 300) m
    order by matched desc, ${votedOnly ? sql`(select max(r.date) from roll_calls r where r.matter_id = m.id) desc, rank desc` : sql`rank desc, m.introduction_date desc nulls last`} limit ${limit}`.execute(
    db,
  );
  return rows;
}

/** How many matters hold each word (or group): a word none holds is a subject the record lacks. */
export async function matterWordCounts(db: Db, terms: readonly string[]): Promise<Map<string, number>> {
  const w = topicWords(terms);
  if (w.length === 0) return new Map();
  const { rows } = await sql<{ w: string; n: number }>`
    select question_word.w, (select count(*)::int from matters m
      where m.search @@ (to_tsquery('english', question_word.w) || to_tsquery('simple', question_word.w))) as n
    from unnest(${w}::text[]) as question_word(w)`.execute(db);
  return new Map(rows.map((r) => [r.w, r.n]));
}

export interface PassageRow {
  type: 'matter' | 'meeting' | 'agenda_item' | 'testimony' | 'person' | 'body' | 'committee' | 'lobbying_client' | 'lobbying_employer';
  id: string;
  title: string;
  detail: string | null;
  date: string | null;
  /** The meeting of an agenda item or testimony; the record number of an agenda item's matter. */
  meeting_id: string | null;
  meeting_title: string | null;
  record_number: string | null;
  matched: number;
  rank: number;
}

/** Ranked passages of every kind of record holding at least `k` of the words (at most `each` per kind). */
export async function passages(db: Db, terms: readonly string[], k: number, range: Range, each: number): Promise<PassageRow[]> {
  const w = topicWords(terms);
  if (w.length === 0) return [];
  const q = atLeast(w, k);
  const day = "(g.start_time at time zone 'America/Chicago')::date";
  const meetingRange = within(day, range);
  const cols = (
    type: string,
    id: string,
    title: string,
    detail: string,
    date: string,
    meetingId: string,
    meetingTitle: string,
    record: string,
    search: string,
  ) =>
    sql`select ${type}::text as type, ${sql.raw(id)} as id, ${sql.raw(title)} as title, ${sql.raw(detail)} as detail, ${sql.raw(date)} as date,
      ${sql.raw(meetingId)} as meeting_id, ${sql.raw(meetingTitle)} as meeting_title, ${sql.raw(record)} as record_number,
      ${matched(search, w)} as matched, ts_rank(${sql.ref(search)}, ${q})::real as rank`;
  const branches = [
    sql`${cols('matter', 'm.id', 'm.title', "m.record_number || ' · ' || m.type || coalesce(' · ' || m.status, '')", 'm.introduction_date::text', 'null', 'null', 'm.record_number', 'm.search')}
      from (select * from matters m where m.search @@ ${q} ${within('m.introduction_date', range)} order by m.introduction_date desc nulls last, m.id limit 300) m`,
    sql`${cols('meeting', 'g.id', 'g.body_name', "coalesce(g.location, '') || coalesce(' · ' || g.comment, '')", `${day}::text`, 'g.id', 'g.body_name', 'null', 'g.search')}
      from meetings g where g.search @@ ${q} ${meetingRange}`,
    sql`${cols('agenda_item', 'i.id', "coalesce(i.title, i.record_number, 'agenda item')", "coalesce(i.action_text, '')", `${day}::text`, 'g.id', 'g.body_name', 'i.record_number', 'i.search')}
      from (select * from agenda_items i where i.search @@ ${q} limit 300) i join meetings g on g.id = i.meeting_id where true ${meetingRange}`,
    sql`${cols('testimony', 't.id', "coalesce(t.summary, '')", "t.speaker_name || coalesce(' (' || t.organization || ')', '') || coalesce(', ' || t.position, '')", `${day}::text`, 'g.id', 'g.body_name', 'null', 't.search')}
      from (select * from testimony t where t.search @@ ${q} and t.speaker_kind in ('official', 'staff', 'lobbyist') limit 300) t
      join meetings g on g.id = t.meeting_id where true ${meetingRange}`,
    sql`${cols('person', 'p.id', 'p.name', "p.kind || coalesce(', ward ' || p.ward::text, '') || coalesce(', ' || p.organization, '')", 'null', 'null', 'null', 'null', 'p.search')}
      from people p where p.search @@ ${q} and p.kind in (${sql.join([...publicPersonKinds])})`,
    sql`${cols('body', 'b.id', 'b.name', 'b.kind', 'null', 'null', 'null', 'null', 'b.search')} from bodies b where b.search @@ ${q}`,
    sql`${cols('lobbying_client', 'o.id', 'o.name', 'o.city', 'null', 'null', 'null', 'null', 'o.search')} from lobbying_clients o where o.search @@ ${q}`,
    sql`${cols('lobbying_employer', 'o.id', 'o.name', 'o.city', 'null', 'null', 'null', 'null', 'o.search')} from lobbying_employers o where o.search @@ ${q}`,
  ];
  const parts = branches.map((b) => sql`(select * from (${b}) s order by s.matched desc, s.rank desc, s.id limit ${each})`);
  const { rows } = await sql<PassageRow>`select * from (${sql.join(parts, sql` union all `)}) u order by u.matched desc, u.rank desc, u.type, u.id`.execute(db);
  return rows;
}
