// Seeds a small set of real public records (test/fixtures/public-data) straight through Kysely,
// the way ingest stores them: eLMS GUIDs as ids, `lobbyist-<id>`, `client-<id>`, `employer-<id>`,
// `committee-<ISBE id>`.
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db-schema.ts';
import type { VoteValue } from '../../src/modules/public-data/tables.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/public-data/${name}`, import.meta.url), 'utf8'));

export const COUNCIL_ID = 'BAA9B630-573B-EC11-B6E5-001DD804D4DD';
export const LOBBYIST_ID = 'lobbyist-27083';
export const COMMITTEE_ID = 'committee-34616';

export interface Seeded {
  alders: { id: string; ward: number; name: string }[];
  rollCalls: { id: string; matterId: string; recordNumber: string; yea: number; nay: number }[];
  matters: { id: string; recordNumber: string; introductionDate: string | null; type: string }[];
  meetings: { id: string; bodyId: string; startTime: string; status: string }[];
}

const usDate = (s: string) => {
  const [m, d, y] = s.split('/');
  return `${y}-${m}-${d}`;
};
const dollars = (s: string) => s.replace(/[$,]/g, '');
const personName = (display: string) => {
  const [last, first] = display.split(', ');
  return first ? `${first} ${last}` : display;
};
const typeByPrefix: Record<string, string> = {
  A: 'Appointment',
  CL: 'Claim',
  O: 'Ordinance',
  SO: 'Ordinance',
  Or: 'Order',
  SOr: 'Order',
  R: 'Resolution',
  SR: 'Resolution',
};

export async function seedPublicData(db: Kysely<DB>): Promise<Seeded> {
  const elms = (id: string, url?: string) => ({ source: 'elms', source_id: id, source_url: url ?? null });
  const meetings: any[] = fixture('meetings.json');
  const bodies = new Map<string, any>();
  for (const m of meetings) {
    const kind = m.body === 'City Council' ? 'council' : m.body.startsWith('Joint') ? 'joint_committee' : 'committee';
    bodies.set(m.bodyId, { id: m.bodyId, name: m.body, abbreviation: m.bodyAbbreviation || null, kind, ...elms(m.bodyId) });
  }
  await db
    .insertInto('bodies')
    .values([...bodies.values()])
    .execute();

  const aldersRaw: any[] = fixture('alders.json');
  const alders = aldersRaw.map((a) => ({ id: a.person_id as string, ward: Number(a.ward), name: personName(a.display_name) }));
  await db
    .insertInto('people')
    .values(
      aldersRaw.map((a, i) => ({
        id: a.person_id,
        name: alders[i]!.name,
        sort_name: a.display_name,
        kind: 'alderperson' as const,
        ward: Number(a.ward),
        current: true,
        website: a.site || null,
        photo_url: a.photo_url || null,
        ...elms(a.person_id),
      })),
    )
    .execute();
  await db
    .insertInto('person_terms')
    .values(aldersRaw.map((a) => ({ person_id: a.person_id, office: 'Alderperson', ward: Number(a.ward), start_date: a.council_start_date })))
    .execute();
  await db
    .insertInto('body_memberships')
    .values(alders.map((a) => ({ body_id: COUNCIL_ID, person_id: a.id, role: 'Member' })))
    .execute();

  // Matters from the QA report (with introduction dates) and those voted on in the roll calls.
  const matters: Seeded['matters'] = [];
  for (const m of fixture('matters-2023.json') as any[]) {
    const type = typeByPrefix[/^[A-Za-z]+/.exec(m.identifier)![0]]!;
    matters.push({ id: m.matter_id, recordNumber: m.identifier, introductionDate: m.introduction_date, type });
    await db
      .insertInto('matters')
      .values({
        id: m.matter_id,
        record_number: m.identifier,
        type,
        title: m.title,
        status: 'Introduced',
        introduction_date: m.introduction_date,
        controlling_body_id: COUNCIL_ID,
        ...elms(m.matter_id),
      })
      .execute();
  }
  const wardToPerson = new Map(alders.map((a) => [a.ward, a.id]));
  const rollCalls: Seeded['rollCalls'] = [];
  for (const e of fixture('roll-calls.json') as any[]) {
    if (!matters.some((m) => m.id === e.matter_id)) {
      matters.push({ id: e.matter_id, recordNumber: e.record_number, introductionDate: null, type: e.matter_type });
      await db
        .insertInto('matters')
        .values({
          id: e.matter_id,
          record_number: e.record_number,
          type: e.matter_type,
          title: e.title,
          status: e.action_name,
          final_action_date: e.action_date,
          controlling_body_id: COUNCIL_ID,
          ...elms(e.matter_id),
        })
        .execute();
      await db
        .insertInto('matter_attachments')
        .values(e.attachments.map((a: any, i: number) => ({ matter_id: e.matter_id, sort: i, name: a.file_name, kind: a.attachment_type, url: a.url })))
        .execute();
    }
    const t = e.tallies;
    await db
      .insertInto('roll_calls')
      .values({
        id: e.event_id,
        matter_id: e.matter_id,
        body_id: COUNCIL_ID,
        date: e.action_date,
        action_name: e.action_name,
        result: e.action_name,
        yea: t.count_yea,
        nay: t.count_nay,
        absent: t.count_absent,
        not_voting: t.count_not_voting,
        present: t.count_present,
        recused: t.count_recused,
        vacant: t.count_vacant,
        rising_vote: t.count_rising_vote,
        ...elms(e.event_id),
      })
      .execute();
    await db
      .insertInto('votes')
      .values(
        Object.entries(e.votes_by_ward as Record<string, VoteValue>).map(([ward, value]) => ({
          roll_call_id: e.event_id,
          person_id: wardToPerson.get(Number(ward))!,
          value,
          date: e.action_date,
          matter_id: e.matter_id,
        })),
      )
      .execute();
    rollCalls.push({ id: e.event_id, matterId: e.matter_id, recordNumber: e.record_number, yea: t.count_yea, nay: t.count_nay });
  }

  for (const m of meetings) {
    await db
      .insertInto('meetings')
      .values({
        id: m.meetingId,
        body_id: m.bodyId,
        body_name: m.body,
        start_time: m.date,
        location: m.location,
        status: m.status.toLowerCase(),
        status_detail: m.status,
        comment: m.comment || null,
        video_url: m.videoLink || null,
        transcript_url: m.transcriptLink || null,
        ...elms(m.meetingId),
      })
      .execute();
    if (m.files.length) {
      await db
        .insertInto('meeting_documents')
        .values(m.files.map((f: any) => ({ meeting_id: m.meetingId, sort: f.sort, name: f.fileName, kind: f.attachmentType, url: f.path })))
        .execute();
    }
  }

  await seedMoneyAndLobbying(db, alders);
  await db
    .insertInto('source_sync')
    .values([
      { source: 'elms', last_started_at: '2026-10-01T05:00:00Z', last_success_at: '2026-10-01T05:03:00Z', records_seen: 120, records_changed: 7 },
      { source: 'lobbying', last_started_at: '2026-10-01T06:00:00Z', last_error: 'HTTP 503 from data portal', last_error_at: '2026-10-01T06:00:05Z' },
    ])
    .execute();
  return {
    alders,
    rollCalls,
    matters,
    meetings: meetings.map((m) => ({ id: m.meetingId, bodyId: m.bodyId, startTime: m.date, status: m.status.toLowerCase() })),
  };
}

async function seedMoneyAndLobbying(db: Kysely<DB>, alders: Seeded['alders']): Promise<void> {
  const ward1 = alders.find((a) => a.ward === 1)!;
  const isbe = (id: string) => ({ source: 'campaign_finance', source_id: id, source_url: null });
  await db
    .insertInto('committees')
    .values({ id: COMMITTEE_ID, name: 'Friends of Daniel La Spata', isbe_id: '34616', person_id: ward1.id, ward: 1, ...isbe('34616') })
    .execute();
  const receipts: any[] = fixture('receipts-ward1.json');
  await db
    .insertInto('receipts')
    .values(
      receipts.map((r, i) => ({
        id: `receipt-34616-${i}`,
        committee_id: COMMITTEE_ID,
        received_date: r.received_date,
        amount: r.amount,
        contributor: r.first_name ? `${r.last_name}, ${r.first_name}` : r.last_name,
        contributor_type: r.donor_type || null,
        occupation: r.occupation || null,
        employer: r.employer || null,
        city: r.city || null,
        state: r.state || null,
        zip: r.zipcode || null,
        ...isbe(`34616-${i}`),
      })),
    )
    .execute();

  const l = fixture('lobbying-2015.json');
  const src = (id: string) => ({ source: 'lobbying', source_id: id, source_url: null });
  const first = l.combinations[0];
  await db
    .insertInto('people')
    .values({
      id: LOBBYIST_ID,
      name: `${first.LOBBYIST_FIRST_NAME} ${first.LOBBYIST_LAST_NAME}`,
      sort_name: `${first.LOBBYIST_LAST_NAME}, ${first.LOBBYIST_FIRST_NAME}`,
      kind: 'lobbyist',
      current: true,
      organization: first.EMPLOYER_NAME,
      ...src('lobbyist-27083'),
    })
    .execute();
  const place = (x: any) => ({
    name: x.NAME.trim(),
    address: x.ADDRESS_1 || null,
    city: x.CITY.trim() || null,
    state: x.STATE || null,
    zip: x.ZIP || null,
    country: x.COUNTRY || null,
    years: [Number(x.Year)],
  });
  await db
    .insertInto('lobbying_employers')
    .values(l.employers.map((x: any) => ({ id: `employer-${x.EMPLOYER_ID}`, ...place(x), phone: x.PHONE || null, ...src(`employer-${x.EMPLOYER_ID}`) })))
    .execute();
  await db
    .insertInto('lobbying_clients')
    .values(l.clients.map((x: any) => ({ id: `client-${x.CLIENT_ID}`, ...place(x), ...src(`client-${x.CLIENT_ID}`) })))
    .execute();
  await db
    .insertInto('lobbying_engagements')
    .values(
      l.combinations.map((x: any) => ({
        lobbyist_id: LOBBYIST_ID,
        employer_id: `employer-${x.EMPLOYER_ID}`,
        client_id: `client-${x.CLIENT_ID}`,
        year: Number(x.Year),
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
  const clientIds = new Set(l.clients.map((x: any) => `client-${x.CLIENT_ID}`));
  const client = (id: string) => (clientIds.has(`client-${id}`) ? `client-${id}` : null);
  const period = (x: any) => ({ period_start: usDate(x.PERIOD_START), period_end: usDate(x.PERIOD_END) });
  await db
    .insertInto('lobbying_compensation')
    .values(
      l.compensation.map((x: any) => ({
        id: `compensation-${x.COMPENSATION_ID}`,
        lobbyist_id: LOBBYIST_ID,
        client_id: client(x.CLIENT_ID),
        ...period(x),
        amount: dollars(x.COMPENSATION_AMOUNT),
        ...src(`compensation-${x.COMPENSATION_ID}`),
      })),
    )
    .execute();
  await db
    .insertInto('lobbying_expenditures')
    .values(
      l.expenditures_large.map((x: any) => ({
        id: `expenditure-${x.EXPENDITURE_ID}`,
        lobbyist_id: LOBBYIST_ID,
        client_id: client(x.CLIENT_ID),
        ...period(x),
        expended_date: usDate(x.EXPENDITURE_DATE),
        amount: dollars(x.AMOUNT),
        action: x.ACTION || null,
        purpose: x.PURPOSE || null,
        recipient: x.RECIPIENT || null,
        kind: 'large' as const,
        ...src(`expenditure-${x.EXPENDITURE_ID}`),
      })),
    )
    .execute();
  // The 8th Ward organisation's alderperson stands in as the linked official, as ingest links a
  // recipient that names one.
  const ward8 = alders.find((a) => a.ward === 8)!;
  await db
    .insertInto('lobbying_contributions')
    .values(
      l.contributions.map((x: any) => ({
        id: `contribution-${x.CONTRIBUTION_ID}`,
        lobbyist_id: LOBBYIST_ID,
        ...period(x),
        contribution_date: usDate(x.CONTRIBUTION_DATE),
        recipient: x.RECIPIENT,
        recipient_person_id: /8th Ward/.test(x.RECIPIENT) ? ward8.id : null,
        amount: dollars(x.AMOUNT),
        ...src(`contribution-${x.CONTRIBUTION_ID}`),
      })),
    )
    .execute();
}
