// The public record as a graph (SDL). Field names are those of the v1/v2 JSON resources and list
// arguments those of the REST lists (`limit` 1–200, default 50, `cursor` from `meta.nextCursor`,
// `updated_since`, filters and `sort` under their REST names), so a GraphQL answer and the REST
// answer for the same records read alike and a cursor from one continues the other. Values the
// operations check (sorts, vote values, dates) are Strings here: the operation's own schema refuses
// a bad one with invalid_request, as REST does.
import { disclosureFields, disclosurePages, disclosureTypes } from './schema-disclosures.ts';

const page = (item: string) => `type ${item}Page { data: [${item}!]! meta: PageMeta! }`;
const pageArgs = 'limit: Int, cursor: String';
const listArgs = `${pageArgs}, updated_since: String`;

export const typeDefs = /* GraphQL */ `
"""The cursor of the next page (null on the last page), as REST lists give in meta.nextCursor."""
type PageMeta { nextCursor: String }

type Tallies { yea: Int! nay: Int! absent: Int! notVoting: Int! present: Int! recused: Int! vacant: Int! risingVote: Int! }

type Sponsor { personId: String name: String! role: String! person: Person }

type MatterAction {
  id: String! sort: Int! date: String name: String! text: String bodyId: String bodyName: String meetingId: String result: String
  meeting: Meeting
}

type Attachment { name: String! kind: String url: String! }

"""A matter (legislation), addressed by its record number."""
type Matter {
  id: String! recordNumber: String! legacyRecordNumber: String type: String! title: String! status: String category: String
  keyLegislation: Boolean! introductionDate: String finalActionDate: String lastActionDate: String controllingBodyId: String topics: [String!]!
  sponsorNames: String! sourceUrl: String updatedAt: String!
  sponsors: [Sponsor!]!
  """In the order they happened."""
  actions: [MatterAction!]!
  rollCalls: [RollCall!]!
  """Meetings at which an action on the matter was taken, in the order of the actions."""
  meetings: [Meeting!]!
}

type RollCallVote { personId: String! name: String! ward: Int value: String! person: Person }

type RollCall {
  id: String! matterId: String recordNumber: String meetingId: String bodyId: String date: String! actionName: String!
  result: String tallies: Tallies! sourceUrl: String updatedAt: String!
  """True: the tallies are as the source published them; false: counted from the votes."""
  talliesPublished: Boolean!
  """How many votes the source lists person by person; lower than the tallies' total where it left some out (not reported, never guessed)."""
  votesReported: Int!
  """Every vote the source lists person by person; where all are listed, the tallies equal their sums."""
  votes: [RollCallVote!]!
  matter: Matter
  meeting: Meeting
}

type Vote {
  rollCallId: String! personId: String! personName: String! ward: Int value: String! date: String! matterId: String
  recordNumber: String actionName: String! meetingId: String updatedAt: String!
}

type AgendaMatter { id: String! recordNumber: String! type: String! title: String! status: String }
type AgendaItem { id: String! sort: Int! recordNumber: String title: String actionText: String minutesNote: String matter: AgendaMatter }
type Attendance { personId: String! name: String! ward: Int value: String! }
"""Testimony given in a public capacity (officials, staff, lobbyists); residents are counted in insights, never named."""
type Testimony { id: String! matterId: String speakerName: String! speakerKind: String! organization: String position: String mode: String summary: String }
type Absentee { personId: String! name: String! }
type TestimonyCounts { total: Int! supports: Int! opposes: Int! neutral: Int! }
type MeetingInsights {
  agendaItems: Int! matters: Int! rollCalls: Int! splitVotes: Int! present: Int! absent: Int! absentees: [Absentee!]! testimony: TestimonyCounts!
}

type Meeting {
  id: String! bodyId: String bodyName: String! startTime: String! location: String status: String! statusDetail: String comment: String
  videoUrl: String transcriptUrl: String sourceUrl: String updatedAt: String!
  agenda: [AgendaItem!]! attendance: [Attendance!]! documents: [Attachment!]! rollCalls: [RollCall!]! testimony: [Testimony!]! insights: MeetingInsights!
}

type Term { office: String! ward: Int startDate: String endDate: String }
type Membership { bodyId: String! bodyName: String! role: String! startDate: String endDate: String }
type BodyMember { personId: String! name: String! ward: Int role: String! startDate: String endDate: String }

"""An action a body took on a matter (Referred, Recommended to Pass, Passed, …)."""
type BodyAction {
  id: String! date: String name: String! text: String result: String meetingId: String updatedAt: String!
  """The matter acted on (its id, recordNumber and title come with the action; any other field loads the matter)."""
  matter: Matter!
  meeting: Meeting
}

"""The City Council or one of its committees."""
type Body {
  id: String! name: String! abbreviation: String kind: String! active: Boolean! sourceUrl: String updatedAt: String!
  members: [BodyMember!]!
  """What the body did: its actions on matters, newest first (as /bodies/{id}/actions)."""
  actions(${pageArgs}): BodyActionPage!
}

"""A campaign committee of an alderperson (Illinois State Board of Elections)."""
type CampaignCommittee { id: String! name: String! isbeId: String personId: String personName: String ward: Int sourceUrl: String updatedAt: String! }

"""A lobbyist's report of seeking action from a City official."""
type LobbyingContact {
  id: String! lobbyistId: String! lobbyistName: String! periodStart: String periodEnd: String sourceUrl: String updatedAt: String!
  clientId: String clientName: String action: String actionSought: String department: String officialPersonId: String officialName: String
}

"""An alderperson, official or lobbyist."""
type Person {
  id: String! name: String! sortName: String! kind: String! ward: Int current: Boolean! organization: String email: String phone: String
  website: String photoUrl: String sourceUrl: String updatedAt: String!
  terms: [Term!]!
  """Committee memberships."""
  committees: [Membership!]!
  """Votes, newest first (as votes with person)."""
  votes(${pageArgs}): VotePage!
  """Matters sponsored or co-sponsored, newest first (as matters with sponsor)."""
  sponsoredMatters(${pageArgs}): MatterPage!
  """Campaign committees (money)."""
  campaignCommittees(${pageArgs}): CampaignCommitteePage!
  """Lobbyists' reported contacts with this official, newest period first."""
  lobbyingContacts(${pageArgs}): LobbyingContactPage!
}

"""Which ward a point is in, and its current alderperson (as /wards?lat=…&lon=…)."""
type WardLocation {
  lat: Float! lon: Float!
  """The ward containing the point; null outside every ward (outside Chicago, or in the lake)."""
  ward: Int
  alderperson: Person
  """The ward map the point was placed on."""
  boundaries: String!
}

type SearchResult { type: String! id: String! title: String! subtitle: String date: String path: String! rank: Float! updatedAt: String! }

${disclosureTypes}

type SourceSchedule { cron: String! timezone: String! nextRunAt: String }
type SyncResult { seen: Int! changed: Int! }
type SourceJob {
  id: String! state: String! runningSince: String progress: String progressCount: Int attempt: Int! maxAttempts: Int! nextAttemptAt: String finishedAt: String
  result: SyncResult error: String
}
"""An upstream source's freshness, its schedule here and its latest sync job."""
type SourceStatus {
  source: String! lastStartedAt: String lastSuccessAt: String lastError: String lastErrorAt: String highWater: String recordsSeen: Int! recordsChanged: Int!
  schedule: SourceSchedule job: SourceJob
}
type SourceList { data: [SourceStatus!]! }

type Citation { type: String! id: String! title: String! url: String! }
type Answer { answer: String! citations: [Citation!]! model: String! }

${['Matter', 'RollCall', 'Vote', 'Meeting', 'Body', 'BodyAction', 'Person', 'SearchResult', 'CampaignCommittee', 'LobbyingContact', ...disclosurePages].map(page).join('\n')}

"""
The public record, read as the REST API reads it. Limits: every top-level field is a REST call of
its own and counts against the caller's limits as that call does (aliases count as the fields they
repeat; nested fields count with their top-level field; a document with no top-level field counts
once). A document is refused before it runs (400) when it nests deeper than 8 levels or its cost is
over 50,000: each top-level field costs 5,000, so a document holds at most ten.
"""
type ScoredRollCall { id: String! date: String! actionName: String! result: String }
type ScoredBill {
  recordNumber: String! title: String stance: String! rollCall: ScoredRollCall yeas: Int! nays: Int! withStance: Int! againstStance: Int!
}
type ScoredVote { recordNumber: String! rollCallId: String! value: String! agrees: Boolean }
type ScoredPerson {
  personId: String! name: String! ward: Int withStance: Int! againstStance: Int! notVoting: Int! agreement: Float votes: [ScoredVote!]!
  person: Person
}
"""The team's scorecard: the latest roll call of each bill it has a stance on, scored against that stance."""
type Scorecard { bills: [ScoredBill!]! people: [ScoredPerson!]! }

type Query {
  matters(type: String, status: String, sponsor: String, body: String, introduced_from: String, introduced_to: String, q: String, sort: String, ${listArgs}): MatterPage!
  """One matter by record number (any letter case)."""
  matter(record: String!): Matter
  rollCalls(matter: String, meeting: String, body: String, from: String, to: String, split: Boolean, sort: String, ${listArgs}): RollCallPage!
  rollCall(id: String!): RollCall
  votes(matter: String, person: String, meeting: String, roll_call: String, value: String, from: String, to: String, sort: String, ${listArgs}): VotePage!
  meetings(body: String, status: String, from: String, to: String, q: String, sort: String, ${listArgs}): MeetingPage!
  meeting(id: String!): Meeting
  """The council and its committees."""
  bodies(kind: String, active: Boolean, q: String, sort: String, ${listArgs}): BodyPage!
  """Committees of the council (bodies of kind committee)."""
  committees(active: Boolean, q: String, sort: String, ${listArgs}): BodyPage!
  body(id: String!): Body
  people(kind: String, ward: Int, current: Boolean, body: String, q: String, sort: String, ${listArgs}): PersonPage!
  person(id: String!): Person
  """Which ward a point (WGS 84 decimal degrees) is in, and its alderperson."""
  ward(lat: Float!, lon: Float!): WardLocation!
  """Ranked search across matters, people, meetings, bodies and lobbying organisations."""
  search(q: String!, type: String, ${listArgs}): SearchResultPage!
  """Freshness of each upstream source (as /sources)."""
  sources: SourceList!
  """How each alderperson voted relative to the team's stances (a team credential with team.positions.read; as GET /api/v2/team/scorecard)."""
  teamScorecard(sort: String): Scorecard!
${disclosureFields}}

type Mutation {
  """An answer citing every record it rests on; needs public.ai and counts as POST /answers: one request and one of the day's AI answers."""
  answer(question: String!): Answer!
}
`;
