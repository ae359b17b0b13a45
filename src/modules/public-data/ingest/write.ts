// Writing mapped council records (matters with their children and roll calls, meetings with
// theirs, people, bodies) in one transaction per batch. Shared by the eLMS and Legistar adapters.
import { sql } from 'kysely';
import type { MatterRows, MeetingRows } from './elms-map.ts';
import { type Db, type Row, replaceChildren, touch, upsertRows } from './store.ts';

const SPONSOR_COLS = ['matter_id', 'person_id', 'name', 'role', 'sort'];
const ACTION_COLS = [
  'id',
  'matter_id',
  'sort',
  'action_date',
  'action_name',
  'action_text',
  'body_id',
  'body_name',
  'meeting_id',
  'result',
  'source',
  'source_id',
];
const ATTACHMENT_COLS = ['matter_id', 'sort', 'name', 'kind', 'url'];
const RELATION_COLS = ['matter_id', 'related_record_number'];
const VOTE_COLS = ['roll_call_id', 'person_id', 'value', 'date', 'matter_id'];

/**
 * Writes a batch of matters; returns how many matters were new or changed in any part.
 * `rollCallsFromMatters`: the source lists a matter's roll calls with the matter (eLMS), so roll
 * calls it no longer lists are dropped; Legistar lists them with events instead.
 */
export async function writeMatters(db: Db, batch: MatterRows[], rollCallsFromMatters = true): Promise<number> {
  if (batch.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const ids = batch.map((b) => String(b.matter.id));
    const changed = await upsertRows(
      trx,
      'matters',
      batch.map((b) => b.matter),
    );
    const childChanged = new Set<string>();
    const add = (s: Set<string>) => {
      for (const id of s) childChanged.add(id);
    };
    add(
      await replaceChildren(
        trx,
        'matter_sponsors',
        'matter_id',
        ids,
        batch.flatMap((b) => b.sponsors),
        SPONSOR_COLS,
      ),
    );
    add(
      await replaceChildren(
        trx,
        'matter_actions',
        'matter_id',
        ids,
        batch.flatMap((b) => b.actions),
        ACTION_COLS,
      ),
    );
    add(
      await replaceChildren(
        trx,
        'matter_attachments',
        'matter_id',
        ids,
        batch.flatMap((b) => b.attachments),
        ATTACHMENT_COLS,
      ),
    );
    add(
      await replaceChildren(
        trx,
        'matter_relations',
        'matter_id',
        ids,
        batch.flatMap((b) => b.relations),
        RELATION_COLS,
      ),
    );
    const rollCalls = batch.flatMap((b) => b.rollCalls);
    const calls = await writeRollCalls(
      trx,
      rollCalls,
      batch.flatMap((b) => b.votes),
      rollCallsFromMatters ? ids : [],
      String(batch[0]!.matter.source),
    );
    for (const matterId of calls.matters) childChanged.add(matterId);
    // The latest action upstream, kept with the actions just written.
    const lastAction = await sql<{ id: string }>`
      update matters m set last_action_date = x.last, updated_at = now()
      from (select mm.id, (select max(a.action_date) from matter_actions a where a.matter_id = mm.id) as last
            from matters mm where mm.id in (${sql.join(ids)})) x
      where m.id = x.id and m.last_action_date is distinct from x.last
      returning m.id`.execute(trx);
    for (const r of lastAction.rows) changed.add(r.id);
    // A substitute ("SO…") names its original ("O…") among its relations.
    const substitutes = await sql<{ id: string }>`
      update matters m set substitute_of_id = o.id, updated_at = now()
      from matter_relations r join matters o on o.record_number = r.related_record_number
      where m.id in (${sql.join(ids)}) and r.matter_id = m.id and m.record_number ~ '^S'
        and o.record_number = substr(m.record_number, 2) and m.substitute_of_id is distinct from o.id
      returning m.id`.execute(trx);
    for (const r of substitutes.rows) changed.add(r.id);
    const onlyChildren = [...childChanged].filter((id) => !changed.has(id));
    await touch(trx, 'matters', onlyChildren);
    return new Set([...changed, ...childChanged]).size;
  });
}

/**
 * Upserts roll calls, replaces their votes, and drops roll calls of these matters (from the same
 * source) that the source no longer lists. Returns the matters and roll calls that changed.
 */
export async function writeRollCalls(
  db: Db,
  rollCalls: Row[],
  votes: Row[],
  matterIds: string[],
  source: string,
): Promise<{ matters: Set<string>; rollCalls: Set<string> }> {
  const matterOf = new Map(rollCalls.map((r) => [String(r.id), r.matter_id === null ? null : String(r.matter_id)]));
  const touched = new Set<string>();
  const changed = await upsertRows(db, 'roll_calls', rollCalls);
  const voteChanged = await replaceChildren(db, 'votes', 'roll_call_id', [...matterOf.keys()], votes, VOTE_COLS);
  await touch(
    db,
    'roll_calls',
    [...voteChanged].filter((id) => !changed.has(id)),
  );
  for (const id of [...changed, ...voteChanged]) {
    const matterId = matterOf.get(id);
    if (matterId) touched.add(matterId);
  }
  if (matterIds.length > 0) {
    const keep = rollCalls.map((r) => String(r.id));
    const stale = await sql<{ matter_id: string }>`
      delete from roll_calls where matter_id in (${sql.join(matterIds)})
        and source = ${source}
        ${keep.length ? sql`and id not in (${sql.join(keep)})` : sql``}
      returning matter_id`.execute(db);
    for (const r of stale.rows) touched.add(r.matter_id);
  }
  return { matters: touched, rollCalls: new Set([...changed, ...voteChanged]) };
}

/** Writes a batch of meetings with documents, agenda items and attendance. */
export async function writeMeetings(db: Db, batch: MeetingRows[]): Promise<number> {
  if (batch.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const ids = batch.map((b) => String(b.meeting.id));
    const changed = await upsertRows(
      trx,
      'meetings',
      batch.map((b) => b.meeting),
    );
    const children = new Set<string>();
    const docs = await replaceChildren(
      trx,
      'meeting_documents',
      'meeting_id',
      ids,
      batch.flatMap((b) => b.documents),
      ['meeting_id', 'sort', 'name', 'kind', 'url'],
    );
    // A meeting listed without its agenda or attendance (list rows carry null) keeps what is stored.
    const withAgenda = batch.filter((b) => b.agenda.length > 0).map((b) => String(b.meeting.id));
    const agenda = await replaceChildren(
      trx,
      'agenda_items',
      'meeting_id',
      withAgenda,
      batch.flatMap((b) => b.agenda),
      ['id', 'meeting_id', 'sort', 'matter_id', 'record_number', 'title', 'action_text', 'minutes_note'],
    );
    const withAttendance = batch.filter((b) => b.attendance.length > 0).map((b) => String(b.meeting.id));
    const attendance = await replaceChildren(
      trx,
      'attendance',
      'meeting_id',
      withAttendance,
      batch.flatMap((b) => b.attendance),
      ['meeting_id', 'person_id', 'value'],
    );
    for (const s of [docs, agenda, attendance]) for (const id of s) children.add(id);
    await touch(
      trx,
      'meetings',
      [...children].filter((id) => !changed.has(id)),
    );
    return new Set([...changed, ...children]).size;
  });
}

/** Ensures bodies named by other records exist, without overwriting a fuller stored record. */
export async function ensureBodies(db: Db, bodies: Row[]): Promise<number> {
  if (bodies.length === 0) return 0;
  const ids = bodies.map((b) => String(b.id));
  const have = await sql<{ id: string }>`select id from bodies where id in (${sql.join(ids)})`.execute(db);
  const known = new Set(have.rows.map((r) => r.id));
  const missing = bodies.filter((b) => !known.has(String(b.id)));
  return (await upsertRows(db, 'bodies', missing)).size;
}

/** Lower-cased body name → id, for actions that name their body. */
export async function bodyIdsByName(db: Db, source: string): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; name: string }>`select id, name from bodies where source = ${source} order by id`.execute(db);
  return new Map(rows.rows.map((r) => [r.name.toLowerCase(), r.id]));
}

export async function existingIds(db: Db, table: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await sql<{ id: string }>`select id from ${sql.table(table)} where id in (${sql.join(ids)})`.execute(db);
  return new Set(rows.rows.map((r) => r.id));
}
