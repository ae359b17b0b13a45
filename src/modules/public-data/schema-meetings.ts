// Meetings with their agenda, attendance, documents, public testimony and computed insights.
import { type Static, Type } from 'typebox';
import { Attachment, RollCall } from './schema-legislation.ts';
import { dateFrom, dateTo, ListQuery, Nullable, NullableString, Provenance, qParam, sortParam } from './schema-common.ts';

export const meetingStatuses = ['scheduled', 'cancelled', 'rescheduled', 'recessed', 'reconvened', 'held'] as const;

export const Meeting = Type.Object({
  id: Type.String(),
  bodyId: NullableString(),
  bodyName: Type.String(),
  startTime: Type.String({ format: 'date-time' }),
  location: NullableString(),
  status: Type.Enum([...meetingStatuses]),
  statusDetail: NullableString("The source's own status word."),
  comment: NullableString('Notes such as the public comment deadline.'),
  videoUrl: NullableString(),
  transcriptUrl: NullableString(),
  ...Provenance,
});

export const AgendaItem = Type.Object({
  id: Type.String(),
  sort: Type.Integer(),
  recordNumber: NullableString(),
  title: NullableString(),
  actionText: NullableString(),
  minutesNote: NullableString(),
  matter: Nullable(Type.Object({ id: Type.String(), recordNumber: Type.String(), type: Type.String(), title: Type.String(), status: NullableString() })),
});

export const AttendanceEntry = Type.Object({ personId: Type.String(), name: Type.String(), ward: Nullable(Type.Integer()), value: Type.String() });

/** Testimony by officials and lobbyists is public; residents' names are not shown here (only counted). */
export const TestimonyEntry = Type.Object({
  id: Type.String(),
  matterId: NullableString(),
  speakerName: Type.String(),
  speakerKind: Type.Enum(['official', 'staff', 'lobbyist']),
  organization: NullableString(),
  position: Nullable(Type.Enum(['supports', 'opposes', 'neutral'])),
  mode: Nullable(Type.Enum(['in_person', 'virtual', 'written'])),
  summary: NullableString(),
});

export const MeetingInsights = Type.Object({
  agendaItems: Type.Integer({ description: 'Items on the agenda.' }),
  matters: Type.Integer({ description: 'Distinct matters on the agenda.' }),
  rollCalls: Type.Integer(),
  splitVotes: Type.Integer({ description: 'Roll calls with at least one yea and one nay.' }),
  present: Type.Integer(),
  absent: Type.Integer(),
  absentees: Type.Array(Type.Object({ personId: Type.String(), name: Type.String() })),
  testimony: Type.Object({ total: Type.Integer(), supports: Type.Integer(), opposes: Type.Integer(), neutral: Type.Integer() }),
});

export const MeetingDetail = Type.Object({
  ...Meeting.properties,
  agenda: Type.Array(AgendaItem),
  attendance: Type.Array(AttendanceEntry),
  documents: Type.Array(Attachment),
  rollCalls: Type.Array(RollCall),
  testimony: Type.Array(TestimonyEntry),
  insights: MeetingInsights,
});

export const MeetingsQuery = ListQuery({
  body: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Body id.' })),
  status: Type.Optional(Type.Enum([...meetingStatuses], { description: 'Only meetings with this status.' })),
  from: dateFrom('meetings'),
  to: dateTo('meetings'),
  q: qParam('body names, locations and comments'),
  sort: sortParam(['date', '-date'], 'Order: -date (default).'),
});

export type MeetingOut = Static<typeof Meeting>;
export type MeetingDetailOut = Static<typeof MeetingDetail>;
export type MeetingsInput = Static<typeof MeetingsQuery>;
