// Chicago City Clerk eLMS (https://api.chicityclerkelms.chicago.gov): people and bodies, then
// matters (list + detail: sponsors, actions with per-action votes, attachments, relations), then
// meetings (list + detail: agenda, attendance). Incremental through the API's `filter` parameter
// from the watermark, which is the latest matter action or introduction date seen.
import { type AdapterOutcome, type AdapterRun, counter, daysBefore, pages } from './adapter.ts';
import {
  bodyKind,
  day,
  ELMS,
  type ElmsBody,
  type ElmsMatter,
  type ElmsMeeting,
  type ElmsPerson,
  type MatterRows,
  type MeetingRows,
  matterRows,
  meetingRows,
  personRow,
} from './elms-map.ts';
import { loadMatcher } from './names.ts';
import { replaceChildren, type Row, upsertRows } from './store.ts';
import { later } from './sync-state.ts';
import { bodyIdsByName, ensureBodies, existingIds, writeMatters, writeMeetings } from './write.ts';

export const ELMS_BASE_URL = 'https://api.chicityclerkelms.chicago.gov';
const PAGE = { top: 'top', skip: 'skip', size: 100, max: 100_000 };
/** Meetings change after they are listed (status, files, video); look back this far. */
const MEETING_LOOKBACK_DAYS = 60;

/** eLMS filter timestamps are written without a zone ("2023-01-01T00:00:00"). */
function filterTime(iso: string): string {
  return iso.length === 10 ? `${iso}T00:00:00` : iso.slice(0, 19);
}

export async function syncElms(run: AdapterRun): Promise<AdapterOutcome> {
  const people = await syncPeopleAndBodies(run);
  const matters = await syncMatters(run);
  const meetings = await syncMeetings(run);
  return {
    seen: people.seen + matters.seen + meetings.seen,
    changed: people.changed + matters.changed + meetings.changed,
    highWater: matters.highWater,
  };
}

async function listAll<T>(run: AdapterRun, path: string): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages<T>(run.transport, path, {}, PAGE)) all.push(...page);
  return all;
}

async function syncPeopleAndBodies(run: AdapterRun): Promise<{ seen: number; changed: number }> {
  const { db, transport } = run;
  const tally = counter(run, 'people and bodies');
  const persons = await listAll<ElmsPerson>(run, '/person');
  const bodies = await listAll<ElmsBody>(run, '/body');
  const now = run.clock.now().toISOString().slice(0, 10);
  // Council membership makes an alderperson; an open or future end date makes a current one.
  const council = new Map<string, { ward: number | null; current: boolean; terms: Row[] }>();
  for (const b of bodies.filter((x) => bodyKind(x.body) === 'council')) {
    for (const m of b.members ?? []) {
      if (!m.personId) continue;
      const entry = council.get(m.personId) ?? { ward: null, current: false, terms: [] };
      const end = day(m.endDate);
      entry.current ||= end === null || end >= now;
      entry.terms.push({ start_date: day(m.startDate), end_date: end });
      council.set(m.personId, entry);
    }
  }
  const byId = new Map<string, ElmsPerson>();
  for (const b of bodies) for (const m of b.members ?? []) if (m.personId) byId.set(m.personId, { personId: m.personId, displayName: m.displayName ?? null });
  for (const p of persons) {
    const detail = await transport.json<ElmsPerson>(`/person/${encodeURIComponent(p.personId)}`);
    byId.set(p.personId, { ...p, ...(detail ?? {}) });
  }
  const rows = [...byId.values()].filter((p) => p.displayName).map((p) => personRow(p, transport.url(`/person/${p.personId}`), council.get(p.personId)));
  const changed = await db.transaction().execute(async (trx) => {
    const people = await upsertRows(trx, 'people', rows);
    const alders = rows.filter((r) => r.kind === 'alderperson').map((r) => String(r.id));
    const terms = alders.flatMap((id) => {
      const seen = new Set<string>();
      return (council.get(id)?.terms ?? [])
        .filter((t) => !seen.has(String(t.start_date)) && seen.add(String(t.start_date)))
        .map((t) => ({ person_id: id, office: 'Alderperson', ward: rows.find((r) => r.id === id)?.ward ?? null, ...t }));
    });
    const termChanged = await replaceChildren(trx, 'person_terms', 'person_id', alders, terms, ['person_id', 'office', 'ward', 'start_date', 'end_date']);
    const bodyRows = bodies.map((b) => ({
      id: b.bodyId,
      name: b.body.trim(),
      abbreviation: b.bodyAbbreviation?.trim() || null,
      kind: bodyKind(b.body),
      source: ELMS,
      source_id: b.bodyId,
      source_url: transport.url(`/body/${b.bodyId}`),
    }));
    const bodyChanged = await upsertRows(trx, 'bodies', bodyRows);
    const known = new Set(byId.keys());
    const memberships = bodies.flatMap((b) => {
      const seen = new Set<string>();
      return (b.members ?? [])
        .filter((m) => m.personId && known.has(m.personId) && byId.get(m.personId)?.displayName)
        .map((m) => ({
          body_id: b.bodyId,
          person_id: m.personId!,
          role: m.memberType?.trim() || 'Member',
          start_date: day(m.startDate),
          end_date: day(m.endDate),
        }))
        .filter((m) => {
          const key = `${m.person_id}|${m.role}|${m.start_date}`;
          return !seen.has(key) && seen.add(key);
        });
    });
    const cols = ['body_id', 'person_id', 'role', 'start_date', 'end_date'];
    const memberChanged = await replaceChildren(
      trx,
      'body_memberships',
      'body_id',
      bodyRows.map((b) => b.id),
      memberships,
      cols,
    );
    return new Set([...people, ...termChanged]).size + new Set([...bodyChanged, ...memberChanged]).size;
  });
  tally.add(rows.length + bodies.length, changed);
  return tally.done();
}

async function syncMatters(run: AdapterRun): Promise<{ seen: number; changed: number; highWater: string | null }> {
  const { db, transport } = run;
  const tally = counter(run, 'matters', 100);
  const people = await loadMatcher(db, ['alderperson', 'official', 'staff']);
  const bodyIds = await bodyIdsByName(db, ELMS);
  const since = run.since ? filterTime(run.since) : null;
  const query = {
    sort: 'introductionDate asc',
    filter: since ? `actions/any(a: a/actionDate gt ${since}) or introductionDate gt ${since} or recordCreateDate gt ${since}` : undefined,
  };
  let highWater: string | null = null;
  const unmatched = new Set<string>();
  for await (const page of pages<ElmsMatter>(transport, '/matter', query, PAGE)) {
    const batch: MatterRows[] = [];
    for (const row of page) {
      if (!row.matterId || !row.recordNumber) continue;
      // A matter whose detail is not served is kept with what its list row says.
      const detail = await transport.json<ElmsMatter>(`/matter/${encodeURIComponent(row.matterId)}`);
      const m = { ...row, ...(detail ?? {}) };
      const rows = matterRows(m, transport.url(`/matter/${m.matterId}`), people, bodyIds);
      for (const u of rows.unmatched) unmatched.add(u);
      batch.push(rows);
      for (const a of m.actions ?? []) highWater = later(highWater, day(a.actionDate));
      highWater = later(highWater, day(m.introductionDate));
    }
    tally.add(batch.length, await writeMatters(db, batch));
  }
  if (unmatched.size > 0)
    run.progress(`${run.source}: ${unmatched.size} votes not stored (voter or value not recognised): ${[...unmatched].slice(0, 5).join('; ')}`);
  return { ...tally.done(), highWater };
}

async function syncMeetings(run: AdapterRun): Promise<{ seen: number; changed: number }> {
  const { db, transport } = run;
  const tally = counter(run, 'meetings', 100);
  const people = await loadMatcher(db, ['alderperson', 'official', 'staff']);
  const since = run.since ? filterTime(daysBefore(run.since, MEETING_LOOKBACK_DAYS)) : null;
  const query = { sort: 'date asc', filter: since ? `date gt ${since}` : undefined };
  const now = run.clock.now();
  for await (const page of pages<ElmsMeeting>(transport, '/meeting', query, PAGE)) {
    const full: ElmsMeeting[] = [];
    for (const row of page) {
      if (!row.meetingId || !row.date) continue;
      const detail = await transport.json<ElmsMeeting>(`/meeting/${encodeURIComponent(row.meetingId)}`);
      full.push({ ...row, ...(detail ?? {}) });
    }
    const bodies = full
      .filter((m) => m.bodyId && m.body)
      .map((m) => ({
        id: m.bodyId!,
        name: m.body!.trim(),
        abbreviation: m.bodyAbbreviation?.trim() || null,
        kind: bodyKind(m.body!),
        source: ELMS,
        source_id: m.bodyId!,
        source_url: transport.url(`/body/${m.bodyId}`),
      }));
    const unique = [...new Map(bodies.map((b) => [b.id, b])).values()];
    const newBodies = await ensureBodies(db, unique);
    const matterIds = full.flatMap((m) => (m.agenda ?? []).map((a) => a.matterId).filter((x): x is string => !!x));
    const known = await existingIds(db, 'matters', [...new Set(matterIds)]);
    const batch: MeetingRows[] = full.map((m) => meetingRows(m, transport.url(`/meeting/${m.meetingId}`), now, people, known));
    // Bodies first met here are support records of the meetings, not counted on their own.
    void newBodies;
    tally.add(batch.length, await writeMeetings(db, batch));
  }
  return tally.done();
}
