// The team-data operations (spec "v2 routes", decisions.md "Team data"): personal and team follows,
// notes, positions and stances, target lists, dashboards and the people routes, plus the composed
// reads the dashboard shows. Each names its access (scope, context, feature, roles); v2 routes,
// dashboard pages and the agent surfaces bind these entries.
import { Type } from 'typebox';
import { type OperationDef, operationsOf } from '../../kernel/catalogue.ts';
import { access } from '../../kernel/access.ts';
import { Deleted } from '../../kernel/schema.ts';
import type { TeamData } from './index.ts';
import * as s from './schema.ts';
import * as a from './schema-analytics.ts';
import { followersKey } from './service-follows.ts';

const op = operationsOf<TeamData>();

const list = 'Pages by `limit` (1–200, default 50) and `cursor` (`meta.nextCursor` of the previous page); cursors are stable when items are added.';
const stanceNote = 'A team has one stance per bill: the same row as its positions entry. Every stance change appends history.';
const privateNote = 'With people.private.read on a team with the offices feature, residents and organization representatives are included.';

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
const byId = (description: string) => Type.Object({ id: Id(description) }, { additionalProperties: false });
const recordField = { record: Id('Record number of the bill (e.g. O2023-0001234).') };
const byRecord = Type.Object(recordField, { additionalProperties: false });
const byTarget = Type.Object({ ...recordField, personId: Id('Person id of the target.') }, { additionalProperties: false });
const team = { tags: ['team'], private: true } as const;
const reads = { limit: 'data', effect: 'read' } as const;
const writes = { limit: 'data', effect: 'write' } as const;

function followOperations(who: 'me' | 'team') {
  const svc = (td: TeamData) => (who === 'me' ? td.personalFollows : td.teamFollows);
  const kind = who === 'me' ? 'your' : "the team's";
  const common = { tags: [who], private: true } as const;
  const read = who === 'me' ? access.personal('me.follows.read') : access.team('team.follows.read', 'team_data');
  const write = who === 'me' ? access.personal('me.follows.write') : access.team('team.follows.write', 'team_data', 'managers');
  return {
    list: op({
      ...common,
      ...reads,
      access: read,
      summary: `List ${kind} follows`,
      description: list,
      input: s.ListQuery,
      output: s.ListOf(s.Follow),
      run: (td, actor, q) => svc(td).list(actor, q),
    }),
    create: op({
      ...common,
      ...writes,
      access: write,
      summary: `Follow legislation, a person, a body or a search (${kind})`,
      description:
        'The record is resolved against the public data: an unknown record number, person or body is 404. ' +
        'A search follow stores its query (at most 200 characters). Following the same thing twice is 409 conflict.',
      input: s.FollowCreate,
      output: s.Follow,
      run: (td, actor, input) => svc(td).create(actor, input),
    }),
    delete: op({
      ...common,
      ...writes,
      access: write,
      summary: `Unfollow (${kind} follows)`,
      input: byId('Follow id.'),
      output: Deleted,
      run: (td, actor, input) => svc(td).remove(actor, input),
    }),
  };
}

const me = followOperations('me');
const teamFollows = followOperations('team');
const notes = access.team('team.notes.write', 'team_data', 'members');
const positionsWrite = access.team('team.positions.write', 'team_data', 'managers');
const targetsWrite = access.team('team.positions.write', 'advocacy', 'managers');
const dashboards = access.team('team.dashboards.write', 'analytics', 'members');
const contacted = (to: boolean) =>
  op({
    ...team,
    ...writes,
    access: targetsWrite,
    summary: to ? 'Mark a person on the target list as contacted' : 'Move a person back out of contacted',
    description: '404 when the person is not on the list' + (to ? '.' : ', or not in contacted.'),
    input: byTarget,
    output: s.Targets,
    run: (td, actor, input) => (to ? td.targets.markContacted(actor, input) : td.targets.unmarkContacted(actor, input)),
  });

export const teamDataOperations = {
  'followers.count.read': op({
    ...reads,
    tags: ['matters'],
    access: access.open(),
    summary: 'How many people and teams follow a record (a count only, never who)',
    description: 'An unknown record is 404. The public pages show this count.',
    input: s.FollowerCountQuery,
    output: s.FollowerCount,
    changesWith: (_input, out) => followersKey(out.type, out.refId),
    run: (td, _actor, input) => td.followerCount(input),
  }),
  'me.follows.list': me.list,
  'me.follows.create': me.create,
  'me.follows.delete': me.delete,
  'team.follows.list': teamFollows.list,
  'team.follows.create': teamFollows.create,
  'team.follows.delete': teamFollows.delete,
  'team.notes.list': op({
    ...team,
    ...reads,
    access: access.team('team.notes.read', 'team_data'),
    summary: 'Notes shared with the team, newest first',
    description: list,
    input: s.ListQuery,
    output: s.ListOf(s.Note),
    run: (td, actor, q) => td.notes.list(actor, q),
  }),
  'team.notes.create': op({
    ...team,
    ...writes,
    access: notes,
    summary: 'Write a note shared with the team',
    description: 'Body at most 10,000 characters. `subject` attaches it to a matter (record number), person, meeting or body, which must exist.',
    input: s.NoteCreate,
    output: s.Note,
    run: (td, actor, input) => td.notes.create(actor, input),
  }),
  'team.notes.update': op({
    ...team,
    ...writes,
    access: notes,
    summary: 'Change your own note (body and/or subject; subject null detaches it)',
    description: "Someone else's note is 403 forbidden; another team's is 404.",
    input: Type.Object({ id: Id('Note id.'), change: s.NotePatch }, { additionalProperties: false }),
    output: s.Note,
    run: (td, actor, input) => td.notes.update(actor, input),
  }),
  'team.notes.delete': op({
    ...team,
    ...writes,
    access: notes,
    summary: 'Delete your own note',
    input: byId('Note id.'),
    output: Deleted,
    run: (td, actor, input) => td.notes.remove(actor, input),
  }),
  'team.positions.list': op({
    ...team,
    ...reads,
    access: access.team('team.positions.read', 'team_data'),
    summary: "The team's positions (its stance on each bill)",
    description: list,
    input: s.ListQuery,
    output: s.ListOf(s.Position),
    run: (td, actor, q) => td.positions.list(actor, q),
  }),
  'team.positions.replace': op({
    ...team,
    ...writes,
    access: positionsWrite,
    summary: "Replace the team's whole set of positions",
    description: `Positions not in the body are cleared. Unknown record numbers are 404 and nothing changes. ${stanceNote}`,
    input: s.PositionsBody,
    output: s.PositionsList,
    run: (td, actor, input, call) => td.positions.replace(actor, input, call),
  }),
  'team.positions.upsert': op({
    ...team,
    ...writes,
    access: positionsWrite,
    summary: 'Add or update positions by record number',
    description: `Returns the stored positions of the body. ${stanceNote}`,
    input: s.PositionsBody,
    output: s.PositionsList,
    run: (td, actor, input, call) => td.positions.upsert(actor, input, call),
  }),
  'team.positions.delete': op({
    ...team,
    ...writes,
    access: positionsWrite,
    summary: 'Remove a position (clears the stance on that bill)',
    input: byId('Position id.'),
    output: Deleted,
    run: (td, actor, input, call) => td.positions.remove(actor, input, call),
  }),
  'team.stance.read': op({
    ...team,
    ...reads,
    access: access.team('team.positions.read', 'team_data'),
    summary: "The team's stance on a bill, with its history (newest first)",
    description: '404 when the team has no stance on the bill.',
    input: byRecord,
    output: s.StanceRecord,
    run: (td, actor, input) => td.stance.get(actor, input),
  }),
  'team.stance.set': op({
    ...team,
    ...writes,
    access: positionsWrite,
    summary: "Set the team's stance on a bill",
    description: `${stanceNote} Setting the stance it already has changes nothing.`,
    input: Type.Object({ ...recordField, ...s.StanceBody.properties }, { additionalProperties: false }),
    output: s.StanceRecord,
    run: (td, actor, input, call) => td.stance.set(actor, input, call),
  }),
  'team.stance.clear': op({
    ...team,
    ...writes,
    access: positionsWrite,
    summary: "Clear the team's stance on a bill",
    description: '404 when there is none. The history keeps an entry with stance null.',
    input: byRecord,
    output: Deleted,
    run: (td, actor, input, call) => td.stance.clear(actor, input, call),
  }),
  'team.legislation.list': op({
    ...team,
    ...reads,
    access: access.team(['team.positions.read', 'team.follows.read'], 'team_data'),
    summary: 'Bills the team follows or has a position on, with their status and latest action',
    input: Type.Object({}, { additionalProperties: false }),
    output: s.BillsList,
    run: (td, actor) => td.legislation.bills(actor),
  }),
  'team.targets.read': op({
    ...team,
    ...reads,
    access: access.team('team.positions.read', 'advocacy'),
    summary: 'The target list of a bill (advocacy teams)',
    input: byRecord,
    output: s.Targets,
    run: (td, actor, input) => td.targets.get(actor, input),
  }),
  'team.targets.board': op({
    ...team,
    ...reads,
    access: access.team('team.positions.read', 'advocacy'),
    summary: 'The target list of a bill with each target’s name, contacted mark and votes on the bill',
    input: byRecord,
    output: s.TargetBoard,
    run: (td, actor, input) => td.legislation.targetBoard(actor, input),
  }),
  'team.targets.add': op({
    ...team,
    ...writes,
    access: targetsWrite,
    summary: 'Add up to 50 people to the target list',
    description: 'Only alderpersons and officials; any unknown id is 404 naming it, and nothing is added. People already on the list stay as they are.',
    input: Type.Object({ ...recordField, ...s.TargetsBody.properties }, { additionalProperties: false }),
    output: s.Targets,
    run: (td, actor, input) => td.targets.add(actor, input),
  }),
  'team.targets.remove': op({
    ...team,
    ...writes,
    access: targetsWrite,
    summary: 'Remove a person from the target list (and from contacted)',
    description: '404 when the person is not on the list.',
    input: byTarget,
    output: s.Targets,
    run: (td, actor, input) => td.targets.remove(actor, input),
  }),
  'team.targets.contacted.add': contacted(true),
  'team.targets.contacted.remove': contacted(false),
  'team.dashboards.list': op({
    ...team,
    ...reads,
    access: access.team('team.dashboards.read', 'analytics'),
    summary: 'Analytics dashboards shared with the team',
    description: list,
    input: s.ListQuery,
    output: s.ListOf(s.Dashboard),
    run: (td, actor, q) => td.dashboards.list(actor, q),
  }),
  'team.dashboards.read': op({
    ...team,
    ...reads,
    access: access.team('team.dashboards.read', 'analytics'),
    summary: 'One analytics dashboard with its layout and version',
    input: byId('Dashboard id.'),
    output: s.Dashboard,
    run: (td, actor, input) => td.dashboards.get(actor, input),
  }),
  'team.dashboards.create': op({
    ...team,
    ...writes,
    access: dashboards,
    summary: 'Create a dashboard (version 1)',
    description: 'The layout (default: no widgets) is validated per widget kind and may hold at most 64 KiB of JSON.',
    input: s.DashboardCreate,
    output: s.Dashboard,
    run: (td, actor, input) => td.dashboards.create(actor, input),
  }),
  'team.dashboards.update': op({
    ...team,
    ...writes,
    access: dashboards,
    summary: 'Rename a dashboard and/or save its layout',
    description:
      'A layout save raises `version` by one. With `baseVersion` it succeeds only while the dashboard is at that version, else 409 conflict (reread and reapply); without it the save is unconditional.',
    input: Type.Object({ id: Id('Dashboard id.'), change: s.DashboardPatch }, { additionalProperties: false }),
    output: s.Dashboard,
    run: (td, actor, input) => td.dashboards.update(actor, input),
  }),
  'team.dashboards.delete': op({
    ...team,
    ...writes,
    access: dashboards,
    summary: 'Delete a dashboard',
    input: byId('Dashboard id.'),
    output: Deleted,
    run: (td, actor, input) => td.dashboards.remove(actor, input),
  }),
  'team.dashboards.starter': op({
    ...team,
    ...writes,
    access: dashboards,
    summary: 'Make the starter dashboard when the team has none',
    description:
      "The starter shows the team's bills by status, its bills on upcoming agendas and how its targets voted on its bills. " +
      'The dashboard opens it on a visit when the team has no dashboard; a team that has one is left as it is (`created: false`).',
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ created: Type.Boolean() }),
    run: (td, actor) => td.analytics.starter(actor),
  }),
  'team.analytics.chart': op({
    ...team,
    ...reads,
    access: access.team('team.dashboards.read', 'analytics'),
    summary: 'The figures of one dashboard chart (a widget kind and its settings)',
    description:
      'Settings are checked against the kind, as in a layout. Public kinds aggregate the public record; the team_* kinds read the bills the team follows or has a stance on. ' +
      'Each bar cites the record it is about where there is one (`href`, a public page path).',
    input: a.ChartQuery,
    output: a.Chart,
    run: (td, actor, input) => td.analytics.chart(actor, input),
  }),
  'team.scorecard.read': op({
    ...team,
    ...reads,
    access: access.team('team.positions.read', 'team_data'),
    summary: "How each alderperson voted relative to the team's stances",
    description:
      'For every bill the team has a stance on, its latest roll call is scored: a Yea on a bill the team supports or a Nay on one it opposes is with the team, the other way against it; any other vote (absent, present, …) is neither. ' +
      'Per person: votes with and against, and agreement = with / (with + against) over the team’s bills, each vote cited by roll call. Per bill: yeas and nays and how many went each way for the team. A bill without a roll call is listed with rollCall null.',
    input: a.ScorecardQuery,
    output: a.Scorecard,
    run: (td, actor, input) => td.analytics.scorecard(actor, input),
  }),
  'people.team.list': op({
    ...reads,
    tags: ['people'],
    private: true,
    access: access.team('people.read', 'people'),
    summary: 'People: officials, City staff and lobbyists',
    description: `${privateNote} Ordered by name; pages by \`limit\` (1–200, default 50) and \`cursor\`.`,
    input: s.PeopleQuery,
    output: s.ListOf(s.TeamPerson),
    run: (td, actor, q) => td.people.list(actor, q),
  }),
  'people.team.read': op({
    ...reads,
    tags: ['people'],
    private: true,
    access: access.team('people.read', 'people'),
    summary: 'One person',
    description: `${privateNote} A person the credential may not see is 404.`,
    input: byId('Person id.'),
    output: s.TeamPerson,
    run: (td, actor, input) => td.people.get(actor, input),
  }),
  'testimony.list': op({
    ...reads,
    tags: ['people'],
    private: true,
    access: access.team('people.read', 'people'),
    summary: 'Testimony given at a meeting',
    description: `Testimony of officials, City staff and lobbyists. ${privateNote}`,
    input: byId('Meeting id.'),
    output: s.TestimonyList,
    run: (td, actor, input) => td.people.testimony(actor, { meetingId: input.id }),
  }),
} satisfies Record<string, OperationDef<TeamData, any, any>>;
