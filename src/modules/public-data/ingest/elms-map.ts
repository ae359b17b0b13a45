// Chicago City Clerk eLMS records → table rows. Field names follow the eLMS API as read by the
// production Chicago scraper (matter, meeting, body, person); see the fixtures' README.
import type { MeetingStatus, VoteValue } from '../tables.ts';
import { type PersonMatcher, publishedTallies, splitName, tallies, voteValue } from './names.ts';
import type { Row } from './store.ts';

export const ELMS = 'elms';

export interface ElmsVote {
  voterName?: string | null;
  vote?: string | null;
}
export interface ElmsAction {
  actionDate?: string | null;
  actionName?: string | null;
  actionByName?: string | null;
  actionText?: string | null;
  sort?: number | null;
  votes?: ElmsVote[] | null;
  /**
   * The roll call's counts as published ({ yea, nay, absent, notVoting, present, recused, vacant,
   * risingVote }). The live API's name for them is not known; the bundled sample carries the counts
   * of the City Council roll-call export here. Without them the tally is counted from `votes`.
   */
  tallies?: Record<string, unknown> | null;
}
export interface ElmsMatter {
  matterId: string;
  recordNumber: string;
  legacyRecordNumber?: string | null;
  introductionDate?: string | null;
  title?: string | null;
  type?: string | null;
  status?: string | null;
  matterCategory?: string | null;
  keyLegislation?: string | null;
  attachments?: Array<{ fileName?: string | null; path?: string | null; attachmentType?: string | null }> | null;
  relations?: Array<string | { recordNumber?: string | null }> | null;
  sponsors?: Array<{ sponsorName?: string | null; sponsorType?: string | null }> | null;
  actions?: ElmsAction[] | null;
}
export interface ElmsMeeting {
  meetingId: string;
  status?: string | null;
  bodyId?: string | null;
  body?: string | null;
  bodyAbbreviation?: string | null;
  comment?: string | null;
  location?: string | null;
  videoLink?: string | null;
  transcriptLink?: string | null;
  date: string;
  files?: Array<{ path?: string | null; fileName?: string | null; attachmentType?: string | null; sort?: number | null }> | null;
  agenda?: Array<{ matterId?: string | null; matterTitle?: string | null; recordNumber?: string | null; actionText?: string | null }> | null;
  attendance?: Array<{ votes?: ElmsVote[] | null }> | null;
}
export interface ElmsMember {
  displayName?: string | null;
  personId?: string | null;
  memberType?: string | null;
  startDate?: string | null;
  endDate?: string | null;
}
export interface ElmsBody {
  bodyId: string;
  body: string;
  bodyAbbreviation?: string | null;
  members?: ElmsMember[] | null;
}
export interface ElmsPerson {
  personId: string;
  displayName?: string | null;
  ward?: string | number | null;
  photo?: string | null;
  site?: string | null;
  email?: string | null;
  phone?: string | null;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
}

/** 'YYYY-MM-DD' from an eLMS timestamp ("2023-10-12T15:00:00+00:00") or date. */
export function day(value: string | null | undefined): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(value ?? '');
  return m ? m[1]! : null;
}

const blank = (v: string | null | undefined) => (v && v.trim() !== '' ? v.trim() : null);

export function bodyKind(name: string): 'council' | 'committee' | 'joint_committee' | 'other' {
  if (/^city council$/i.test(name.trim())) return 'council';
  if (/^joint committee/i.test(name.trim())) return 'joint_committee';
  if (/^(committee|subcommittee)\b/i.test(name.trim())) return 'committee';
  return 'other';
}

// Cancellations also hide in free text: the status may be empty while the location or comment
// says "CANCELLATION of Meeting" or "Meeting … Cancelled".
const CANCELLED = /\bcancel(?:l?ed|lation|s)?\b/i;

export function meetingStatus(m: ElmsMeeting, now: Date): { status: MeetingStatus; detail: string | null } {
  const word = blank(m.status);
  const text = `${m.location ?? ''} ${m.comment ?? ''}`;
  if ((word && /cancel/i.test(word)) || CANCELLED.test(text)) return { status: 'cancelled', detail: word };
  const lower = word?.toLowerCase();
  if (lower === 'rescheduled' || lower === 'recessed' || lower === 'reconvened') return { status: lower, detail: word };
  // eLMS keeps "Scheduled" (or nothing) on meetings after they take place.
  return { status: new Date(m.date).getTime() < now.getTime() ? 'held' : 'scheduled', detail: word };
}

export function personRow(p: ElmsPerson, url: string, council: { ward: number | null; current: boolean } | undefined): Row {
  const n = splitName(p.displayName ?? '');
  const wardRaw = p.ward ?? null;
  const ward = wardRaw === null || wardRaw === '' ? (council?.ward ?? null) : Number(wardRaw);
  const address = [p.address, p.city, p.state, p.zip].map(blank).filter(Boolean).join(', ');
  return {
    id: p.personId,
    name: n.name,
    sort_name: n.sortName,
    given_name: n.given,
    family_name: n.family,
    kind: ward !== null || council ? 'alderperson' : 'official',
    ward: ward !== null && Number.isInteger(ward) && ward >= 1 && ward <= 50 ? ward : null,
    current: council?.current ?? false,
    email: blank(p.email),
    phone: blank(p.phone),
    website: blank(p.site),
    photo_url: blank(p.photo),
    address: address || null,
    source: ELMS,
    source_id: p.personId,
    source_url: url,
  };
}

const ROLES: Record<string, 'sponsor' | 'cosponsor' | 'filing_sponsor'> = {
  sponsor: 'sponsor',
  cosponsor: 'cosponsor',
  'co-sponsor': 'cosponsor',
  'filing sponsor': 'filing_sponsor',
};

const FINAL = /^(passed|adopted|approved|failed|placed on file|repealed|withdrawn|vetoed|accepted)/i;

export interface MatterRows {
  matter: Row;
  sponsors: Row[];
  actions: Row[];
  attachments: Row[];
  relations: Row[];
  rollCalls: Row[];
  votes: Row[];
  /** Printed names the matcher could not place (reported, not stored). */
  unmatched: string[];
}

export function matterRows(m: ElmsMatter, url: string, people: PersonMatcher, bodyIds: Map<string, string>): MatterRows {
  const id = m.matterId;
  const unmatched: string[] = [];
  const seenSponsor = new Set<string>();
  const sponsors: Row[] = [];
  for (const s of m.sponsors ?? []) {
    const name = blank(s.sponsorName);
    if (!name) continue;
    const role = ROLES[(s.sponsorType ?? '').trim().toLowerCase()] ?? 'other';
    if (seenSponsor.has(`${name}|${role}`)) continue;
    seenSponsor.add(`${name}|${role}`);
    sponsors.push({ matter_id: id, person_id: people.match(name), name, role, sort: sponsors.length });
  }
  const ordered = (m.actions ?? []).map((a, i) => ({ a, i })).sort((x, y) => (x.a.sort ?? x.i) - (y.a.sort ?? y.i) || x.i - y.i);
  const actions: Row[] = [];
  const rollCalls: Row[] = [];
  const votes: Row[] = [];
  let finalDate: string | null = null;
  let lastName: string | null = null;
  ordered.forEach(({ a }, position) => {
    const actionId = `${id}:${position + 1}`;
    const name = blank(a.actionName) ?? 'Action';
    const date = day(a.actionDate);
    const bodyName = blank(a.actionByName);
    const bodyId = bodyName ? (bodyIds.get(bodyName.toLowerCase()) ?? null) : null;
    actions.push({
      id: actionId,
      matter_id: id,
      sort: position + 1,
      action_date: date,
      action_name: name,
      action_text: blank(a.actionText),
      body_id: bodyId,
      body_name: bodyName,
      meeting_id: null,
      result: null,
      source: ELMS,
      source_id: actionId,
    });
    lastName = name;
    if (FINAL.test(name) && date) finalDate = date;
    const values: VoteValue[] = [];
    const voters = new Set<string>();
    const rollCallId = `${id}:${position + 1}:roll-call`;
    for (const v of a.votes ?? []) {
      const value = voteValue(v.vote);
      const personId = v.voterName ? people.match(v.voterName) : null;
      if (!value || !personId) {
        unmatched.push(`${v.voterName ?? '(no name)'}=${v.vote ?? ''}`);
        continue;
      }
      if (voters.has(personId)) continue;
      voters.add(personId);
      values.push(value);
      votes.push({ roll_call_id: rollCallId, person_id: personId, value, date, matter_id: id });
    }
    const published = publishedTallies(a.tallies);
    // A published tally makes a roll call even when none of its votes is listed person by person.
    if ((values.length > 0 || published) && date) {
      rollCalls.push({
        id: rollCallId,
        matter_id: id,
        action_id: actionId,
        meeting_id: null,
        body_id: bodyId,
        date,
        action_name: name,
        result: null,
        ...(published ?? tallies(values)),
        tallies_published: published !== null,
        source: ELMS,
        source_id: rollCallId,
        source_url: url,
      });
    }
  });
  const relations = [
    ...new Set((m.relations ?? []).map((r) => (typeof r === 'string' ? r : (r.recordNumber ?? ''))).filter((r): r is string => r.trim() !== '')),
  ].map((r) => ({ matter_id: id, related_record_number: r.trim() }));
  const seenUrl = new Set<string>();
  const attachments: Row[] = [];
  for (const f of m.attachments ?? []) {
    const link = blank(f.path);
    if (!link || seenUrl.has(link)) continue;
    seenUrl.add(link);
    attachments.push({ matter_id: id, sort: attachments.length + 1, name: blank(f.fileName) ?? link, kind: blank(f.attachmentType), url: link });
  }
  const matter: Row = {
    id,
    record_number: m.recordNumber.trim(),
    legacy_record_number: blank(m.legacyRecordNumber),
    type: blank(m.type) ?? 'Unknown',
    title: blank(m.title) ?? m.recordNumber,
    // eLMS has no status field on the records we know of; the latest action says where it stands.
    status: blank(m.status) ?? lastName,
    category: blank(m.matterCategory),
    key_legislation: (m.keyLegislation ?? '').toUpperCase() === 'YES',
    introduction_date: day(m.introductionDate),
    final_action_date: finalDate,
    sponsor_names: sponsors.map((s) => s.name).join(' '),
    source: ELMS,
    source_id: id,
    source_url: url,
  };
  return { matter, sponsors, actions, attachments, relations, rollCalls, votes, unmatched };
}

export interface MeetingRows {
  meeting: Row;
  documents: Row[];
  agenda: Row[];
  attendance: Row[];
}

export function meetingRows(m: ElmsMeeting, url: string, now: Date, people: PersonMatcher, knownMatters: Set<string>): MeetingRows {
  const { status, detail } = meetingStatus(m, now);
  const seenUrl = new Set<string>();
  const documents: Row[] = [];
  for (const f of [...(m.files ?? [])].sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0))) {
    const link = blank(f.path);
    if (!link || seenUrl.has(link)) continue;
    seenUrl.add(link);
    documents.push({ meeting_id: m.meetingId, sort: documents.length + 1, name: blank(f.fileName) ?? link, kind: blank(f.attachmentType), url: link });
  }
  const agenda = (m.agenda ?? []).map((item, i) => ({
    id: `${m.meetingId}:${i + 1}`,
    meeting_id: m.meetingId,
    sort: i + 1,
    // The matter may not be synced yet; the record number still names it.
    matter_id: item.matterId && knownMatters.has(item.matterId) ? item.matterId : null,
    record_number: blank(item.recordNumber),
    title: blank(item.matterTitle),
    action_text: blank(item.actionText),
    minutes_note: null,
  }));
  const present = new Map<string, string>();
  for (const call of m.attendance ?? []) {
    for (const v of call.votes ?? []) {
      const personId = v.voterName ? people.match(v.voterName) : null;
      const value = blank(v.vote);
      if (personId && value) present.set(personId, value);
    }
  }
  return {
    meeting: {
      id: m.meetingId,
      body_id: blank(m.bodyId),
      body_name: blank(m.body) ?? 'Unknown body',
      start_time: new Date(m.date).toISOString(),
      location: blank(m.location),
      status,
      status_detail: detail,
      comment: blank(m.comment),
      video_url: blank(m.videoLink),
      transcript_url: blank(m.transcriptLink),
      source: ELMS,
      source_id: m.meetingId,
      source_url: url,
    },
    documents,
    agenda,
    attendance: [...present].map(([person_id, value]) => ({ meeting_id: m.meetingId, person_id, value })),
  };
}
