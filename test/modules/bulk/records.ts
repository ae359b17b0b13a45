// The records test/helpers/seed.ts lacks, for the bulk export's tests: sponsors, actions,
// relations, agenda items, attendance, an expenditure, lobbying activity, and text that needs every
// rule of RFC 4180; and private people (a resident, a staff member) whose traces must never leave.
import type { Kysely } from 'kysely';
import type { DB } from '../../../src/db-schema.ts';
import { COMMITTEE_ID, LOBBYIST_ID, type Seeded } from '../../helpers/seed.ts';

// Text that needs every rule of RFC 4180 and UTF-8: a comma, quotes, a line break, non-ASCII.
export const TRICKY_TITLE = 'Café "Zoë", 2nd reading\r\nof the Ñandú — ordinance';
export const RESIDENT = { id: 'resident-secret-1', name: 'Rosalind Privateperson' };
export const RESIDENT_TESTIMONY = 'my home address is 123 Secret Street';

/** The parts the seed lacks (sponsors, actions, agenda, attendance, testimony…) and private people who must never leave. */
export async function addRecords(db: Kysely<DB>, seeded: Seeded): Promise<void> {
  const [m1, m2] = seeded.matters;
  const [g1] = seeded.meetings;
  const [a1, a2] = seeded.alders;
  const src = (id: string) => ({ source: 'test', source_id: id, source_url: null });
  await db
    .updateTable('matters')
    .set({ title: TRICKY_TITLE, topics: ['zoning', 'café'] })
    .where('id', '=', m1!.id)
    .execute();
  await db
    .insertInto('matter_sponsors')
    .values([
      { matter_id: m1!.id, person_id: a1!.id, name: a1!.name, role: 'sponsor', sort: 0 },
      { matter_id: m1!.id, person_id: null, name: 'Mayor’s Office', role: 'filing_sponsor', sort: 1 },
    ])
    .execute();
  await db
    .insertInto('matter_actions')
    .values([
      {
        id: 'act-1',
        matter_id: m1!.id,
        sort: 0,
        action_date: '2023-07-19',
        action_name: 'Introduced',
        action_text: 'Referred, to "Finance"',
        body_id: null,
        body_name: 'City Council',
        meeting_id: g1!.id,
        result: null,
        source: 'test',
        source_id: 'act-1',
      },
      {
        id: 'act-2',
        matter_id: m2!.id,
        sort: 0,
        action_date: null,
        action_name: 'Passed',
        action_text: null,
        body_id: null,
        body_name: null,
        meeting_id: null,
        result: 'Pass',
        source: 'test',
        source_id: 'act-2',
      },
    ])
    .execute();
  await db.insertInto('matter_relations').values({ matter_id: m1!.id, related_record_number: m2!.recordNumber }).execute();
  await db
    .insertInto('agenda_items')
    .values([
      {
        id: 'item-1',
        meeting_id: g1!.id,
        sort: 1,
        matter_id: m1!.id,
        record_number: m1!.recordNumber,
        title: TRICKY_TITLE,
        action_text: 'Passed',
        minutes_note: null,
      },
      {
        id: 'item-2',
        meeting_id: g1!.id,
        sort: 2,
        matter_id: null,
        record_number: null,
        title: 'Public comment',
        action_text: null,
        minutes_note: 'Three speakers',
      },
    ])
    .execute();
  await db
    .insertInto('attendance')
    .values([
      { meeting_id: g1!.id, person_id: a1!.id, value: 'Present' },
      { meeting_id: g1!.id, person_id: a2!.id, value: 'Absent' },
    ])
    .execute();
  await db
    .insertInto('people')
    .values([
      { id: RESIDENT.id, name: RESIDENT.name, sort_name: 'Privateperson, Rosalind', kind: 'resident', address: '123 Secret Street', ...src(RESIDENT.id) },
      { id: 'staff-1', name: 'Stanley Staffer', sort_name: 'Staffer, Stanley', kind: 'staff', ...src('staff-1') },
    ])
    .execute();
  // A resident's term and committee seat (nonsense, but a leak would show).
  await db.insertInto('person_terms').values({ person_id: RESIDENT.id, office: 'Resident', ward: 3, start_date: '2020-01-01', end_date: null }).execute();
  await db
    .insertInto('body_memberships')
    .values({ body_id: seeded.meetings[0]!.bodyId, person_id: RESIDENT.id, role: 'Member', start_date: null, end_date: null })
    .execute();
  const testimony = (id: string, person: string | null, name: string, kind: 'resident' | 'staff' | 'official', summary: string) => ({
    id,
    meeting_id: g1!.id,
    matter_id: m1!.id,
    person_id: person,
    speaker_name: name,
    speaker_kind: kind,
    organization: null,
    position: 'supports' as const,
    mode: 'in_person' as const,
    summary,
    ...src(id),
  });
  await db
    .insertInto('testimony')
    .values([
      testimony('tm-resident', RESIDENT.id, RESIDENT.name, 'resident', RESIDENT_TESTIMONY),
      testimony('tm-staff', 'staff-1', 'Stanley Staffer', 'staff', 'The department supports it.'),
      testimony('tm-official', null, 'Commissioner Olivia Official', 'official', 'Budget impact, "none".'),
    ])
    .execute();
  await db
    .insertInto('expenditures')
    .values({
      id: 'exp-1',
      committee_id: COMMITTEE_ID,
      expended_date: '2018-03-01',
      amount: '125.5',
      payee: 'Print Shop, Inc.',
      purpose: 'Flyers',
      ...src('exp-1'),
    })
    .execute();
  await db
    .insertInto('lobbying_activity')
    .values({
      id: 'activity-1',
      lobbyist_id: LOBBYIST_ID,
      client_id: null,
      period_start: '2015-01-01',
      period_end: '2015-03-31',
      action: 'Zoning',
      action_sought: 'Support',
      department: 'City Council',
      official_person_id: a1!.id,
      ...src('activity-1'),
    })
    .execute();
}
