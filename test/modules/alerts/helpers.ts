// The alerts tests' world: recorded eLMS answers served locally (test/fixtures/elms) in two
// versions — before, without one matter, one roll call and one meeting of a committee, and after, with
// them — a real SMTP receiver, a local webhook receiver, and the whole service on a test database.
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { DB } from '../../../src/db-schema.ts';
import { FAST, FIXTURES, type Replay, startReplay } from '../public-data/ingest/replay-server.ts';

export const FOLLOWED_MATTER = 'SO2026-0025407';
const MATTER_ID = 'BEA1E2DD-5A54-F111-BEC6-001DD80B0E39';
/** Introduced only in the second version: "Redevelopment agreement with Foundry Park Properties …". */
export const NEW_MATTER = 'SO2026-0027166';
const NEW_MATTER_ID = '694AE95E-6680-F111-AB0E-001DD80F46AC';
export const SEARCH = 'Foundry Park';
export const COMMITTEE = 'Committee on Zoning, Landmarks and Building Standards';
/** A meeting of that committee the first version does not list. */
const NEW_MEETING = 'CCE202F4-472A-EE11-9965-001DD809C0A9';
export const VOTER = 'Hopkins, Brian';

const recorded = (name: string) => JSON.parse(readFileSync(`${FIXTURES}elms/${name}.json`, 'utf8'));

/** The eLMS replay, serving the record before the changes. */
export async function startElms(): Promise<Replay & { changeRecord(): void }> {
  const replay = await startReplay(`${FIXTURES}elms`);
  const matters = recorded('matter');
  const meetings = recorded('meeting');
  const detail = recorded(`matter/${MATTER_ID}`);
  // Five alderpersons (the voter among them) keep the sync short; votes of the others are kept by name.
  const people = recorded('person').data;
  replay.override('/person', { data: people.filter((p: { displayName: string }, i: number) => i < 4 || p.displayName === VOTER), meta: {} });
  replay.override('/matter', { ...matters, data: matters.data.filter((m: { matterId: string }) => m.matterId !== NEW_MATTER_ID) });
  replay.override(`/matter/${MATTER_ID}`, { ...detail, actions: [] });
  replay.override('/meeting', { data: meetings.data.slice(0, 2), meta: {} });
  return Object.assign(replay, {
    /** From now on the source has the new matter, the roll call on the followed one and the committee's meeting. */
    changeRecord() {
      replay.override('/matter', matters);
      replay.override(`/matter/${MATTER_ID}`, detail);
      replay.override('/meeting', {
        data: [...meetings.data.slice(0, 2), meetings.data.find((m: { meetingId: string }) => m.meetingId === NEW_MEETING)],
        meta: {},
      });
    },
  });
}

export const ingestOptions = { http: FAST };

export async function idsOf(db: Kysely<DB>) {
  const person = await db.selectFrom('people').select('id').where('name', 'like', '%Hopkins%').executeTakeFirstOrThrow();
  const body = await db.selectFrom('bodies').select('id').where('name', '=', COMMITTEE).executeTakeFirstOrThrow();
  return { personId: person.id, bodyId: body.id };
}
