// Legistar Web API objects (https://webapi.legistar.com/v1/{client}/…) → rows. Ids follow
// `legistar-<client>-<kind>-<Id>`. Vote words map through names.voteValue: Yes/Aye/Affirmative
// → Yea, No/Negative → Nay, Excused/Medical/Maternity/Parental → Absent, Abstain/Non-voting →
// Not Voting, Conflict → Recused; Present, Recused, Vacant and Absent keep their names.
import type { MeetingStatus } from '../tables.ts';
import { splitName } from './names.ts';
import type { Row } from './store.ts';

export type L = Record<string, any>;

export const legistarId = (client: string, kind: string, id: unknown) => `legistar-${client}-${kind}-${id}`;

// Legistar writes local wall-clock times without a zone; these clients' zones are known.
const ZONES: Record<string, string> = {
  chicago: 'America/Chicago',
  nyc: 'America/New_York',
  sanjose: 'America/Los_Angeles',
  metro: 'America/Los_Angeles',
  seattle: 'America/Los_Angeles',
  oakland: 'America/Los_Angeles',
};

/** UTC instant of a wall-clock time in a time zone (two passes settle DST edges). */
export function zonedToUtc(local: string, zone: string): Date {
  const asUtc = new Date(`${local}Z`);
  const offset = (at: Date) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(at);
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
    return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - at.getTime();
  };
  const first = new Date(asUtc.getTime() - offset(asUtc));
  return new Date(asUtc.getTime() - offset(first));
}

/** "2017-09-12T00:00:00" + "1:30 PM" → the meeting's instant. */
export function eventStart(client: string, date: string, time: string | null): string {
  const d = (date ?? '').slice(0, 10);
  const m = /^(\d{1,2}):(\d{2})\s*([AP]M)$/i.exec((time ?? '').trim());
  let hh = 0;
  let mm = 0;
  if (m) {
    hh = (Number(m[1]) % 12) + (m[3]!.toUpperCase() === 'PM' ? 12 : 0);
    mm = Number(m[2]);
  }
  const local = `${d}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00`;
  return zonedToUtc(local, ZONES[client] ?? 'UTC').toISOString();
}

export const day = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? v.slice(0, 10) : null);
const blank = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

export function bodyRow(client: string, b: L, url: string): Row {
  const type = String(b.BodyTypeName ?? '');
  const name = String(b.BodyName ?? '').trim();
  const kind =
    /primary legislative/i.test(type) || /^city council$/i.test(name)
      ? 'council'
      : /joint/i.test(name)
        ? 'joint_committee'
        : /committee/i.test(type + name)
          ? 'committee'
          : 'other';
  return {
    id: legistarId(client, 'body', b.BodyId),
    name,
    abbreviation: null,
    kind,
    active: b.BodyActiveFlag === undefined ? true : b.BodyActiveFlag === 1,
    source: `legistar:${client}`,
    source_id: String(b.BodyId),
    source_url: url,
  };
}

export function personRow(client: string, p: L, url: string, council: { current: boolean } | undefined): Row {
  const full = blank(p.PersonFullName) ?? [p.PersonFirstName, p.PersonLastName].filter(Boolean).join(' ');
  const n = splitName(full);
  return {
    id: legistarId(client, 'person', p.PersonId),
    name: n.name,
    sort_name: blank(p.PersonLastName) ? `${p.PersonLastName}, ${p.PersonFirstName ?? ''}`.replace(/, $/, '') : n.sortName,
    given_name: blank(p.PersonFirstName) ?? n.given,
    family_name: blank(p.PersonLastName) ?? n.family,
    // Council members are the alderpersons of any Legistar city; Legistar does not give wards.
    kind: council ? 'alderperson' : 'official',
    ward: null,
    current: council?.current ?? false,
    email: blank(p.PersonEmail),
    phone: blank(p.PersonPhone),
    website: blank(p.PersonWWW),
    photo_url: null,
    address: [p.PersonAddress1, p.PersonCity1, p.PersonState1, p.PersonZip1].map(blank).filter(Boolean).join(', ') || null,
    source: `legistar:${client}`,
    source_id: String(p.PersonId),
    source_url: url,
  };
}

export function matterRow(client: string, m: L, url: string, sponsorNames: string[], bodyKnown: boolean): Row {
  return {
    id: legistarId(client, 'matter', m.MatterId),
    // Record numbers are unique across the table; prefix them per client so cities never collide.
    record_number: client === 'chicago' ? String(m.MatterFile ?? m.MatterId) : `${client}:${m.MatterFile ?? m.MatterId}`,
    legacy_record_number: null,
    type: blank(m.MatterTypeName) ?? 'Unknown',
    title: blank(m.MatterTitle) ?? blank(m.MatterName) ?? String(m.MatterFile ?? m.MatterId),
    status: blank(m.MatterStatusName),
    category: null,
    key_legislation: false,
    introduction_date: day(m.MatterIntroDate),
    final_action_date: day(m.MatterPassedDate) ?? day(m.MatterEnactmentDate),
    controlling_body_id: bodyKnown ? legistarId(client, 'body', m.MatterBodyId) : null,
    sponsor_names: sponsorNames.join(' '),
    source: `legistar:${client}`,
    source_id: String(m.MatterId),
    source_url: url,
  };
}

export function actionRow(client: string, matterId: string, h: L, sort: number, bodyKnown: boolean): Row {
  const id = legistarId(client, 'action', h.MatterHistoryId);
  return {
    id,
    matter_id: matterId,
    sort,
    action_date: day(h.MatterHistoryActionDate),
    action_name: blank(h.MatterHistoryActionName) ?? 'Action',
    action_text: blank(h.MatterHistoryActionText),
    body_id: bodyKnown ? legistarId(client, 'body', h.MatterHistoryActionBodyId) : null,
    body_name: blank(h.MatterHistoryActionBodyName),
    meeting_id: h.MatterHistoryEventId ? legistarId(client, 'event', h.MatterHistoryEventId) : null,
    result: blank(h.MatterHistoryPassedFlagName),
    source: `legistar:${client}`,
    source_id: String(h.MatterHistoryId),
  };
}

export function meetingRow(client: string, e: L, url: string, now: Date, bodyKnown: boolean): Row {
  const start = eventStart(client, e.EventDate, e.EventTime ?? null);
  const text = `${e.EventLocation ?? ''} ${e.EventComment ?? ''} ${e.EventAgendaStatusName ?? ''}`;
  const status: MeetingStatus = /\bcancel(?:l?ed|lation)\b/i.test(text) ? 'cancelled' : new Date(start) < now ? 'held' : 'scheduled';
  return {
    id: legistarId(client, 'event', e.EventId),
    body_id: bodyKnown ? legistarId(client, 'body', e.EventBodyId) : null,
    body_name: blank(e.EventBodyName) ?? 'Unknown body',
    start_time: start,
    location: blank(e.EventLocation),
    status,
    status_detail: blank(e.EventAgendaStatusName),
    comment: blank(e.EventComment),
    video_url: blank(e.EventVideoPath),
    transcript_url: null,
    source: `legistar:${client}`,
    source_id: String(e.EventId),
    source_url: blank(e.EventInSiteURL) ?? url,
  };
}
