// Kysely types of the public-data tables (migrations 0001, 0002 and 0080). Only this module's repos
// touch them; other modules go through index.ts.
import type { ColumnType, Generated } from 'kysely';
import type { PersonKind, SpeakerKind } from './schema-people.ts';

/** timestamptz: read as Date, written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** numeric: read as string (exact), written as string or number. */
export type Numeric = ColumnType<string, string | number, string | number>;

interface Provenance {
  source: string;
  source_id: string;
  source_url: string | null;
  first_seen_at: Generated<Timestamp>;
  last_synced_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

/** Generated tsvector columns: readable in SQL, never written. */
type Search = ColumnType<string, never, never>;

export interface SourceSyncTable {
  source: string;
  last_started_at: Timestamp | null;
  last_success_at: Timestamp | null;
  last_error: string | null;
  last_error_at: Timestamp | null;
  high_water: string | null;
  records_seen: Generated<number>;
  records_changed: Generated<number>;
}

/** The latest scheduled sync's progress per source (migration 0080; ingest/schedule.ts). */
export interface IngestProgressTable {
  source: string;
  job_id: string;
  message: string;
  records: Generated<number>;
  updated_at: Timestamp;
}

export interface BodiesTable extends Provenance {
  id: string;
  name: string;
  abbreviation: string | null;
  kind: 'council' | 'committee' | 'joint_committee' | 'other';
  active: Generated<boolean>;
  search: Search;
}

export type { PersonKind };

export interface PeopleTable extends Provenance {
  id: string;
  name: string;
  sort_name: string;
  given_name: string | null;
  family_name: string | null;
  kind: PersonKind;
  ward: number | null;
  current: Generated<boolean>;
  email: string | null;
  phone: string | null;
  website: string | null;
  photo_url: string | null;
  address: string | null;
  organization: string | null;
  search: Search;
}

export interface PersonTermsTable {
  id: Generated<number>;
  person_id: string;
  office: string;
  ward: number | null;
  start_date: string | null;
  end_date: string | null;
}

export interface BodyMembershipsTable {
  id: Generated<number>;
  body_id: string;
  person_id: string;
  role: Generated<string>;
  start_date: string | null;
  end_date: string | null;
}

export interface MattersTable extends Provenance {
  id: string;
  record_number: string;
  legacy_record_number: string | null;
  type: string;
  title: string;
  status: string | null;
  category: string | null;
  key_legislation: Generated<boolean>;
  introduction_date: string | null;
  final_action_date: string | null;
  last_action_date: Generated<string | null>;
  controlling_body_id: string | null;
  substitute_of_id: string | null;
  topics: Generated<string[]>;
  sponsor_names: Generated<string>;
  search: Search;
}

/** One lexeme of one matter's search vector (migration 0230; written by triggers on matters only). */
export interface MatterPostingsTable {
  lexeme: string;
  /** The introduction date, '-infinity' for none. */
  introduced: string;
  matter_id: string;
}

export interface MatterSponsorsTable {
  matter_id: string;
  person_id: string | null;
  name: string;
  role: 'sponsor' | 'cosponsor' | 'filing_sponsor' | 'other';
  sort: Generated<number>;
}

export interface MatterActionsTable {
  id: string;
  matter_id: string;
  sort: number;
  action_date: string | null;
  action_name: string;
  action_text: string | null;
  body_id: string | null;
  body_name: string | null;
  meeting_id: string | null;
  result: string | null;
  source: string;
  source_id: string;
}

export interface MatterAttachmentsTable {
  matter_id: string;
  sort: number;
  name: string;
  kind: string | null;
  url: string;
}

export interface MatterRelationsTable {
  matter_id: string;
  related_record_number: string;
}

export type MeetingStatus = 'scheduled' | 'cancelled' | 'rescheduled' | 'recessed' | 'reconvened' | 'held';

export interface MeetingsTable extends Provenance {
  id: string;
  body_id: string | null;
  body_name: string;
  start_time: Timestamp;
  location: string | null;
  status: MeetingStatus;
  status_detail: string | null;
  comment: string | null;
  video_url: string | null;
  transcript_url: string | null;
  minutes_note: string | null;
  search: Search;
}

export interface MeetingDocumentsTable {
  meeting_id: string;
  sort: number;
  name: string;
  kind: string | null;
  url: string;
}

export interface AgendaItemsTable {
  id: string;
  meeting_id: string;
  sort: number;
  matter_id: string | null;
  record_number: string | null;
  title: string | null;
  action_text: string | null;
  minutes_note: string | null;
  /** Migration 0082. */
  search: Search;
}

export interface AttendanceTable {
  meeting_id: string;
  person_id: string;
  value: string;
}

export interface TestimonyTable extends Provenance {
  id: string;
  meeting_id: string;
  matter_id: string | null;
  person_id: string | null;
  speaker_name: string;
  speaker_kind: SpeakerKind;
  organization: string | null;
  position: 'supports' | 'opposes' | 'neutral' | null;
  mode: 'in_person' | 'virtual' | 'written' | null;
  summary: string | null;
  /** Migration 0082: empty for testimony given in a private capacity. */
  search: Search;
}

export const voteValues = ['Yea', 'Nay', 'Absent', 'Not Voting', 'Present', 'Recused', 'Vacant', 'Rising Vote'] as const;
export type VoteValue = (typeof voteValues)[number];

export interface RollCallsTable extends Provenance {
  id: string;
  matter_id: string | null;
  action_id: string | null;
  meeting_id: string | null;
  body_id: string | null;
  date: string;
  action_name: string;
  result: string | null;
  yea: Generated<number>;
  nay: Generated<number>;
  absent: Generated<number>;
  not_voting: Generated<number>;
  present: Generated<number>;
  recused: Generated<number>;
  vacant: Generated<number>;
  rising_vote: Generated<number>;
  /** The tallies are the source's published ones (true) or counted from the votes (false). */
  tallies_published: Generated<boolean>;
}

export interface VotesTable {
  roll_call_id: string;
  person_id: string;
  value: VoteValue;
  date: string;
  matter_id: string | null;
  updated_at: Generated<Timestamp>;
}

export interface CommitteesTable extends Provenance {
  id: string;
  name: string;
  isbe_id: string | null;
  person_id: string | null;
  ward: number | null;
}

export interface ReceiptsTable extends Provenance {
  id: string;
  committee_id: string;
  received_date: string;
  amount: Numeric;
  contributor: string;
  contributor_type: string | null;
  occupation: string | null;
  employer: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  search: Search;
}

export interface ExpendituresTable extends Provenance {
  id: string;
  committee_id: string;
  expended_date: string;
  amount: Numeric;
  payee: string;
  purpose: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
}

interface Organisation extends Provenance {
  id: string;
  name: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  years: Generated<number[]>;
  search: Search;
}

export interface LobbyingEmployersTable extends Organisation {
  phone: string | null;
}
export type LobbyingClientsTable = Organisation;

export interface LobbyingEngagementsTable {
  lobbyist_id: string;
  employer_id: string;
  client_id: string;
  year: number;
}

export interface LobbyingCompensationTable extends Provenance {
  id: string;
  lobbyist_id: string;
  client_id: string | null;
  period_start: string;
  period_end: string;
  amount: Numeric;
}

export interface LobbyingExpendituresTable extends Provenance {
  id: string;
  lobbyist_id: string;
  client_id: string | null;
  period_start: string;
  period_end: string;
  expended_date: string | null;
  amount: Numeric;
  action: string | null;
  purpose: string | null;
  recipient: string | null;
  kind: 'large' | 'small' | 'hosting';
}

export interface LobbyingContributionsTable extends Provenance {
  id: string;
  lobbyist_id: string;
  period_start: string;
  period_end: string;
  contribution_date: string | null;
  recipient: string;
  recipient_person_id: string | null;
  amount: Numeric;
}

export interface CommitteeTermsTable extends Provenance {
  id: string;
  person_id: string;
  body_id: string;
  start_date: string | null;
  end_date: string | null;
}

export interface CommitteeAttendanceTable extends Provenance {
  id: string;
  body_id: string;
  person_id: string;
  date: string;
  present: boolean;
}

export interface LobbyingGiftsTable extends Provenance {
  id: string;
  lobbyist_id: string;
  period_start: string;
  period_end: string;
  description: string | null;
  amount: Numeric;
  recipient: string;
  recipient_title: string | null;
  department: string | null;
  recipient_person_id: string | null;
}

export interface LobbyingActivityTable extends Provenance {
  id: string;
  lobbyist_id: string;
  client_id: string | null;
  period_start: string | null;
  period_end: string | null;
  action: string | null;
  action_sought: string | null;
  department: string | null;
  official_person_id: string | null;
  search: Search;
}

export interface PublicDataTables {
  source_sync: SourceSyncTable;
  ingest_progress: IngestProgressTable;
  bodies: BodiesTable;
  people: PeopleTable;
  person_terms: PersonTermsTable;
  body_memberships: BodyMembershipsTable;
  matters: MattersTable;
  matter_postings: MatterPostingsTable;
  matter_sponsors: MatterSponsorsTable;
  matter_actions: MatterActionsTable;
  matter_attachments: MatterAttachmentsTable;
  matter_relations: MatterRelationsTable;
  meetings: MeetingsTable;
  meeting_documents: MeetingDocumentsTable;
  agenda_items: AgendaItemsTable;
  attendance: AttendanceTable;
  testimony: TestimonyTable;
  roll_calls: RollCallsTable;
  votes: VotesTable;
  committees: CommitteesTable;
  receipts: ReceiptsTable;
  expenditures: ExpendituresTable;
  lobbying_employers: LobbyingEmployersTable;
  lobbying_clients: LobbyingClientsTable;
  lobbying_engagements: LobbyingEngagementsTable;
  lobbying_compensation: LobbyingCompensationTable;
  lobbying_expenditures: LobbyingExpendituresTable;
  lobbying_contributions: LobbyingContributionsTable;
  lobbying_gifts: LobbyingGiftsTable;
  committee_terms: CommitteeTermsTable;
  committee_attendance: CommitteeAttendanceTable;
  lobbying_activity: LobbyingActivityTable;
}
