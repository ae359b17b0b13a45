// The team-data resources and request bodies (decisions.md "Team data", sizes from "Envelopes and
// limits"). The same TypeBox objects validate requests, filter responses and describe OpenAPI;
// parse* re-check bodies for callers that are not HTTP routes (the dashboard pages).
import { type Static, Type } from 'typebox';
import { AppError } from '../../kernel/errors.ts';
import { ListOf, Nullable, PageQuery, type PageInput, validate } from '../../kernel/schema.ts';
import { type PersonKind, personKinds, type SpeakerKind, speakerKinds } from '../public-data/index.ts';

export const MAX_NOTE = 10_000;
export const MAX_LABEL = 200;
export const MAX_LAYOUT_BYTES = 64 * 1024;
export const MAX_TARGETS = 50;
export const MAX_POSITIONS = 500;

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
const Label = (description: string) => Type.String({ maxLength: MAX_LABEL, description });
const At = (description: string) => Type.String({ format: 'date-time', description });

export const ListQuery = PageQuery({});
export type ListInput = PageInput;
export { ListOf };

export const followTypes = ['legislation', 'person', 'body', 'search'] as const;
export const Follow = Type.Object({
  id: Type.String(),
  type: Type.Enum([...followTypes]),
  refId: Type.String({ description: 'Record number (legislation), person id, body id, or the search query.' }),
  label: Type.String(),
  createdAt: At('When the follow was made.'),
});
export const FollowCreate = Type.Object(
  {
    type: Type.Enum([...followTypes]),
    refId: Id('Record number, person id, body id, or a search query of at most 200 characters.'),
    label: Type.Optional(Label('At most 200 characters; defaults to the record’s own name.')),
  },
  { additionalProperties: false },
);

export const FollowerCountQuery = Type.Object(
  { type: Type.Enum([...followTypes]), refId: Id('Record number, person id, body id, or a search query.') },
  { additionalProperties: false },
);
export const FollowerCount = Type.Object({
  type: Type.Enum([...followTypes]),
  refId: Type.String({ description: 'The record as follows name it (a record number in its canonical form).' }),
  count: Type.Integer({ description: 'Personal and team follows of the record; who follows is never shown.' }),
});

export const subjectTypes = ['matter', 'person', 'meeting', 'body'] as const;
export const Subject = Type.Object(
  { type: Type.Enum([...subjectTypes]), refId: Id('Record number (matter), person id, meeting id or body id.') },
  { additionalProperties: false },
);
export const Note = Type.Object({
  id: Type.String(),
  body: Type.String(),
  subject: Nullable(Subject),
  authorId: Type.String(),
  authorName: Nullable(Type.String({ description: "The author's name (or email address when they gave no name); null when the account is gone." })),
  yours: Type.Boolean({ description: 'Whether the caller wrote it: only the author may change or delete a note.' }),
  createdAt: At('When the note was written.'),
  updatedAt: At('When the note last changed.'),
});
const NoteBody = Type.String({ minLength: 1, maxLength: MAX_NOTE, description: `At most ${MAX_NOTE} characters.` });
export const NoteCreate = Type.Object({ body: NoteBody, subject: Type.Optional(Nullable(Subject)) }, { additionalProperties: false });
export const NotePatch = Type.Object(
  { body: Type.Optional(NoteBody), subject: Type.Optional(Nullable(Subject)) },
  { additionalProperties: false, minProperties: 1 },
);

export const stances = ['supports', 'opposes'] as const;
export type StanceValue = (typeof stances)[number];
export const Position = Type.Object({
  id: Type.String(),
  recordId: Type.String({ description: 'Record number of the bill.' }),
  matterId: Type.String(),
  label: Type.String(),
  stance: Type.Enum([...stances]),
  updatedAt: At('When the position last changed.'),
});
export const PositionInput = Type.Object(
  { recordId: Id('Record number of the bill.'), stance: Type.Enum([...stances]), label: Label('Text of the position, at most 200 characters.') },
  { additionalProperties: false },
);
export const PositionsBody = Type.Object({ positions: Type.Array(PositionInput, { maxItems: MAX_POSITIONS }) }, { additionalProperties: false });
export const PositionsList = Type.Object({ data: Type.Array(Position) });

export const stanceSources = ['v2.stance', 'v2.positions', 'dashboard'] as const;
export type StanceSource = (typeof stanceSources)[number];
export const HistoryEntry = Type.Object({
  stance: Nullable(Type.Enum([...stances])),
  previous: Nullable(Type.Enum([...stances])),
  source: Type.Enum([...stanceSources]),
  at: At('When the change was made.'),
  by: Type.Object({
    accountId: Type.String(),
    name: Type.String(),
    credential: Type.Object({ type: Type.Enum(['api_key', 'oauth', 'session']), id: Type.String() }),
  }),
});
export const StanceRecord = Type.Object({ ...Position.properties, history: Type.Array(HistoryEntry, { description: 'Newest first.' }) });
export const StanceBody = Type.Object(
  { stance: Type.Enum([...stances]), label: Type.Optional(Label('Text of the position; kept when omitted.')) },
  { additionalProperties: false },
);

/** A bill the team follows or has a position on, with its public status (the dashboard's Legislation). */
export const Bill = Type.Object({
  recordNumber: Type.String(),
  title: Nullable(Type.String()),
  status: Nullable(Type.String()),
  latestAction: Nullable(
    Type.Object({ date: Nullable(Type.String({ format: 'date' })), name: Type.String(), bodyName: Nullable(Type.String()), result: Nullable(Type.String()) }),
  ),
  position: Nullable(Position),
});
export const BillsList = Type.Object({ data: Type.Array(Bill) });

export const Targets = Type.Object({
  onTargetList: Type.Array(Type.String(), { description: 'Person ids, in the order they were added.' }),
  contacted: Type.Array(Type.String(), { description: 'The subset of onTargetList already contacted.' }),
});
export const TargetsBody = Type.Object(
  { personIds: Type.Array(Id('Person id of an alderperson or other official.'), { minItems: 1, maxItems: MAX_TARGETS }) },
  { additionalProperties: false },
);

/** A bill's target list with each target's name, contacted mark and votes on the bill. */
export const TargetBoard = Type.Object({
  recordNumber: Type.String(),
  title: Type.String(),
  targets: Type.Array(
    Type.Object({
      personId: Type.String(),
      name: Type.String(),
      ward: Nullable(Type.Integer()),
      contacted: Type.Boolean(),
      votes: Type.Array(Type.Object({ rollCallId: Type.String(), value: Type.String(), date: Type.String({ format: 'date' }), actionName: Type.String() })),
    }),
  ),
});

const Ref = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
const Day = Type.String({ format: 'date' });
const Settings = {
  roll_call: Type.Object({ recordNumber: Ref('Record number of the bill whose roll calls to show.') }, { additionalProperties: false }),
  voting_record: Type.Object({ personId: Ref('The alderperson.'), from: Type.Optional(Day), to: Type.Optional(Day) }, { additionalProperties: false }),
  attendance: Type.Object(
    {
      bodyId: Type.Optional(Ref('Only meetings of this body.')),
      personId: Type.Optional(Ref('Only this person.')),
      from: Type.Optional(Day),
      to: Type.Optional(Day),
    },
    { additionalProperties: false },
  ),
  money_by_period: Type.Object(
    {
      period: Type.Enum(['month', 'quarter', 'year']),
      committeeId: Type.Optional(Ref('Campaign committee.')),
      ward: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
    },
    { additionalProperties: false },
  ),
  lobbying_by_client: Type.Object(
    { clientId: Type.Optional(Ref('Lobbying client.')), year: Type.Optional(Type.Integer({ minimum: 1990, maximum: 2100 })) },
    { additionalProperties: false },
  ),
  // Drawn from the team's own bills (followed or with a stance): the starter dashboard's charts.
  team_bills_by_status: Type.Object({}, { additionalProperties: false }),
  team_upcoming_agendas: Type.Object({}, { additionalProperties: false }),
  team_target_votes: Type.Object({}, { additionalProperties: false }),
};
export type WidgetKind = keyof typeof Settings;
/** A widget's settings checked against its kind's schema (named precisely when wrong). */
export function parseSettings(kind: WidgetKind, settings: unknown, where = 'settings'): Record<string, unknown> {
  return validate(Settings[kind], settings, where) as Record<string, unknown>;
}
export const widgetKinds = Object.keys(Settings) as (keyof typeof Settings)[];
// Settings are checked per kind in parseLayout, so a wrong setting is named precisely instead of
// being reported as "matches none of the widget kinds".
const Widget = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    kind: Type.Enum([...widgetKinds]),
    position: Type.Object({ x: Type.Integer({ minimum: 0, maximum: 1000 }), y: Type.Integer({ minimum: 0, maximum: 1000 }) }, { additionalProperties: false }),
    size: Type.Object({ w: Type.Integer({ minimum: 1, maximum: 100 }), h: Type.Integer({ minimum: 1, maximum: 100 }) }, { additionalProperties: false }),
    settings: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'Per kind: roll_call { recordNumber }; voting_record { personId, from?, to? }; attendance { bodyId?, personId?, from?, to? }; ' +
          'money_by_period { period: month|quarter|year, committeeId?, ward? }; lobbying_by_client { clientId?, year? }; ' +
          "team_bills_by_status, team_upcoming_agendas, team_target_votes {} (the team's own bills).",
      },
    ),
  },
  { additionalProperties: false },
);
export const Layout = Type.Object(
  { widgets: Type.Array(Widget, { maxItems: 200 }) },
  { additionalProperties: false, description: 'Widgets with kind, position, size and per-kind settings; at most 64 KiB of JSON.' },
);
export type LayoutValue = Static<typeof Layout>;
export const Dashboard = Type.Object({
  id: Type.String(),
  name: Type.String(),
  layout: Layout,
  version: Type.Integer({ description: 'Starts at 1; one more on every layout save.' }),
  createdBy: Type.String(),
  updatedAt: At('When the dashboard last changed.'),
});
const DashboardName = Type.String({ minLength: 1, maxLength: MAX_LABEL });
export const DashboardCreate = Type.Object({ name: DashboardName, layout: Type.Optional(Layout) }, { additionalProperties: false });
export const DashboardPatch = Type.Object(
  { name: Type.Optional(DashboardName), layout: Type.Optional(Layout), baseVersion: Type.Optional(Type.Integer({ minimum: 1 })) },
  { additionalProperties: false, minProperties: 1 },
);

export const allPersonKinds = personKinds;
export type PersonKindValue = PersonKind;
export const TeamPerson = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sortName: Type.String(),
  kind: Type.Enum([...allPersonKinds]),
  ward: Nullable(Type.Integer()),
  current: Type.Boolean(),
  organization: Nullable(Type.String()),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  website: Nullable(Type.String()),
  photoUrl: Nullable(Type.String()),
  updatedAt: At('When the record last changed.'),
});
export const PeopleQuery = Type.Object(
  {
    ...ListQuery.properties,
    kind: Type.Optional(Type.Enum([...allPersonKinds], { description: 'Only people of this kind.' })),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Search names and organizations.' })),
  },
  { additionalProperties: false },
);
export const Testimony = Type.Object({
  id: Type.String(),
  meetingId: Type.String(),
  matterId: Nullable(Type.String()),
  speaker: Type.Object({ name: Type.String(), kind: Type.Enum([...speakerKinds]), organization: Nullable(Type.String()) }),
  position: Nullable(Type.Enum(['supports', 'opposes', 'neutral'])),
  mode: Nullable(Type.Enum(['in_person', 'virtual', 'written'])),
  summary: Nullable(Type.String()),
});
export const TestimonyList = Type.Object({ data: Type.Array(Testimony) });

export type FollowOut = Static<typeof Follow>;
export type FollowInput = Static<typeof FollowCreate>;
export type NoteOut = Static<typeof Note>;
export type NoteInput = Static<typeof NoteCreate>;
export type NoteChange = Static<typeof NotePatch>;
export type PositionOut = Static<typeof Position>;
export type PositionIn = Static<typeof PositionInput>;
export type StanceRecordOut = Static<typeof StanceRecord>;
export type TargetsOut = Static<typeof Targets>;
export type BillOut = Static<typeof Bill>;
export type TargetBoardOut = Static<typeof TargetBoard>;
export type DashboardOut = Static<typeof Dashboard>;
export type DashboardInput = Static<typeof DashboardCreate>;
export type DashboardChange = Static<typeof DashboardPatch>;
export type TeamPersonOut = Static<typeof TeamPerson>;
export type PeopleInput = Static<typeof PeopleQuery>;
export type TestimonyOut = Static<typeof Testimony>;
export type { SpeakerKind };

/** A layout must fit in 64 KiB of JSON (decisions.md) and widget ids are unique within it. */
export function parseLayout(value: unknown): LayoutValue {
  const layout = validate(Layout, value, 'layout');
  const ids = new Set<string>();
  layout.widgets.forEach((w, i) => {
    if (ids.has(w.id)) throw new AppError('invalid_request', `Widget id "${w.id}" appears twice in the layout.`);
    ids.add(w.id);
    parseSettings(w.kind, w.settings, `settings of widget ${i} (${w.kind})`);
  });
  // Measured only once every part is known to be flat: JSON.stringify recurses, and settings
  // nested thousands deep (any caller, not only the capped JSON body) would overflow the stack.
  const bytes = Buffer.byteLength(JSON.stringify(layout), 'utf8');
  if (bytes > MAX_LAYOUT_BYTES) throw new AppError('invalid_request', `The layout is ${bytes} bytes of JSON; at most ${MAX_LAYOUT_BYTES} are allowed.`);
  return layout;
}
