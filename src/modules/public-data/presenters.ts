// Rows → the resources as presented: camelCase, ISO 8601 timestamps, dates as YYYY-MM-DD, money as
// decimal strings with two decimals. Detail documents arrive partly as JSON built by the database
// with these names already; the presenters only finish them.
import type {
  BodyActionOut,
  BodyDetailOut,
  BodyOut,
  CommitteeDetailOut,
  CommitteeOut,
  ExpenditureOut,
  LobbyistDetailOut,
  LobbyistOut,
  MatterDetailOut,
  MatterOut,
  MeetingOut,
  OrganisationDetailOut,
  OrganisationOut,
  PersonDetailOut,
  PersonOut,
  ReceiptOut,
  RollCallDetailOut,
  RollCallOut,
  VoteOut,
} from './schema.ts';

type Row = Record<string, any>;

export const iso = (v: Date | string | null | undefined): string | null => (v == null ? null : new Date(v).toISOString());
const isoReq = (v: Date | string): string => new Date(v).toISOString();
/** numeric(14,2) arrives as an exact string; make sure it always has two decimals. */
export const money = (v: string | number | null | undefined): string => {
  if (v == null) return '0.00';
  const s = String(v);
  return /^-?\d+\.\d{2}$/.test(s) ? s : Number(s).toFixed(2);
};

const provenance = (r: Row) => ({ sourceUrl: r.source_url ?? null, updatedAt: isoReq(r.updated_at) });

export const presentBody = (r: Row): BodyOut => ({
  id: r.id,
  name: r.name,
  abbreviation: r.abbreviation,
  kind: r.kind,
  active: r.active,
  ...provenance(r),
});
export const presentBodyDetail = (r: Row): BodyDetailOut => ({ ...presentBody(r), members: r.members });

/** A body's action on a matter (repo-actions.ts' row), with a reference to the matter. */
export const presentBodyAction = (r: Row): BodyActionOut => ({
  id: r.id,
  date: r.action_date,
  name: r.action_name,
  text: r.action_text,
  result: r.result,
  meetingId: r.meeting_id,
  matter: { id: r.matter_id, recordNumber: r.record_number, title: r.title },
  updatedAt: r.updated_at,
});

export const presentPerson = (r: Row): PersonOut => ({
  id: r.id,
  name: r.name,
  sortName: r.sort_name,
  kind: r.kind,
  ward: r.ward,
  current: r.current,
  organization: r.organization,
  email: r.email,
  phone: r.phone,
  website: r.website,
  photoUrl: r.photo_url,
  ...provenance(r),
});
export const presentPersonDetail = (r: Row): PersonDetailOut => ({ ...presentPerson(r), terms: r.terms, memberships: r.memberships });

export const presentMatter = (r: Row): MatterOut => ({
  id: r.id,
  recordNumber: r.record_number,
  legacyRecordNumber: r.legacy_record_number,
  type: r.type,
  title: r.title,
  status: r.status,
  category: r.category,
  keyLegislation: r.key_legislation,
  introductionDate: r.introduction_date,
  finalActionDate: r.final_action_date,
  lastActionDate: r.last_action_date,
  controllingBodyId: r.controlling_body_id,
  topics: r.topics ?? [],
  sponsorNames: r.sponsor_names,
  ...provenance(r),
});

export const presentMatterDetail = (r: Row): MatterDetailOut => ({
  ...presentMatter(r),
  sponsors: r.sponsors,
  actions: r.actions,
  attachments: r.attachments,
  substituteOf: r.substitute_of ?? null,
  substitutes: r.substitutes,
  relatedRecordNumbers: r.relations.map((x: { v: string }) => x.v),
  rollCalls: r.roll_calls.map((x: { j: RollCallOut }) => x.j),
});

export const presentRollCall = (r: Row): RollCallOut => ({
  id: r.id,
  matterId: r.matter_id,
  recordNumber: r.record_number ?? null,
  meetingId: r.meeting_id,
  bodyId: r.body_id,
  date: r.date,
  actionName: r.action_name,
  result: r.result,
  tallies: {
    yea: r.yea,
    nay: r.nay,
    absent: r.absent,
    notVoting: r.not_voting,
    present: r.present,
    recused: r.recused,
    vacant: r.vacant,
    risingVote: r.rising_vote,
  },
  talliesPublished: r.tallies_published,
  votesReported: r.votes_reported,
  ...provenance(r),
});

export const presentRollCallDetail = (r: Row): RollCallDetailOut => ({
  ...presentRollCall(r),
  matter: r.matter_id && r.record_number ? { id: r.matter_id, recordNumber: r.record_number, title: r.matter_title } : null,
  votes: r.votes,
});

export const presentVote = (r: Row): VoteOut => ({
  rollCallId: r.roll_call_id,
  personId: r.person_id,
  personName: r.person_name,
  ward: r.ward,
  value: r.value,
  date: r.date,
  matterId: r.matter_id,
  recordNumber: r.record_number ?? null,
  actionName: r.action_name,
  meetingId: r.meeting_id,
  updatedAt: isoReq(r.updated_at),
});

export const presentMeeting = (r: Row): MeetingOut => ({
  id: r.id,
  bodyId: r.body_id,
  bodyName: r.body_name,
  startTime: isoReq(r.start_time),
  location: r.location,
  status: r.status,
  statusDetail: r.status_detail,
  comment: r.comment,
  videoUrl: r.video_url,
  transcriptUrl: r.transcript_url,
  ...provenance(r),
});

export const presentCommittee = (r: Row): CommitteeOut => ({
  id: r.id,
  name: r.name,
  isbeId: r.isbe_id,
  personId: r.person_id,
  personName: r.person_name ?? null,
  ward: r.ward,
  ...provenance(r),
});
export const presentCommitteeDetail = (r: Row): CommitteeDetailOut => ({
  ...presentCommittee(r),
  receipts: { ...r.receipts, amount: money(r.receipts.amount) },
  expenditures: { ...r.expenditures, amount: money(r.expenditures.amount) },
});

const place = (r: Row) => ({ city: r.city, state: r.state, zip: r.zip });
export const presentReceipt = (r: Row): ReceiptOut => ({
  id: r.id,
  committeeId: r.committee_id,
  date: r.date,
  amount: money(r.amount),
  contributor: r.contributor,
  contributorType: r.contributor_type,
  occupation: r.occupation,
  employer: r.employer,
  ...place(r),
  ...provenance(r),
});
export const presentExpenditure = (r: Row): ExpenditureOut => ({
  id: r.id,
  committeeId: r.committee_id,
  date: r.date,
  amount: money(r.amount),
  payee: r.payee,
  purpose: r.purpose,
  ...place(r),
  ...provenance(r),
});

export const presentLobbyist = (r: Row): LobbyistOut => ({
  id: r.id,
  name: r.name,
  sortName: r.sort_name,
  organization: r.organization,
  current: r.current,
  ...provenance(r),
});
const sum = (s: Row) => ({ count: s.count, amount: money(s.amount) });
export const presentLobbyistDetail = (r: Row): LobbyistDetailOut => ({
  ...presentLobbyist(r),
  engagements: r.engagements,
  totals: { compensation: sum(r.compensation), expenditures: sum(r.expenditures), contributions: sum(r.contributions) },
});
export const presentOrganisation = (r: Row): OrganisationOut => ({
  id: r.id,
  name: r.name,
  city: r.city,
  state: r.state,
  country: r.country,
  years: r.years ?? [],
  ...provenance(r),
});
export const presentOrganisationDetail = (r: Row): OrganisationDetailOut => ({ ...presentOrganisation(r), engagements: r.engagements });

/** Any of the five disclosure kinds; the response schema keeps only the fields of its kind. */
export const presentReport = (r: Row) => ({
  id: r.id,
  lobbyistId: r.lobbyist_id,
  lobbyistName: r.lobbyist_name,
  periodStart: r.period_start,
  periodEnd: r.period_end,
  clientId: r.client_id ?? null,
  clientName: r.client_name ?? null,
  date: r.expended_date ?? r.contribution_date ?? null,
  amount: r.amount == null ? undefined : money(r.amount),
  kind: r.kind,
  action: r.action ?? null,
  purpose: r.purpose ?? null,
  recipient: r.recipient ?? null,
  recipientPersonId: r.recipient_person_id ?? null,
  recipientTitle: r.recipient_title ?? null,
  description: r.description ?? null,
  actionSought: r.action_sought ?? null,
  department: r.department ?? null,
  officialPersonId: r.official_person_id ?? null,
  officialName: r.official_name ?? null,
  ...provenance(r),
});
