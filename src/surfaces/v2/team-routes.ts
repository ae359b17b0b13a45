// v2 team data routes (spec "v2 routes"): personal and team follows, notes, positions, stances,
// target lists and dashboards. Each route names its operation (scope, context, feature, role in
// kernel/operations.ts), parses, calls the team-data service and returns what it presents. All are
// private (Cache-Control: private, no-store); writes get Idempotency-Key handling from register.ts.
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { teamSchemas as s } from '../../modules/team-data/index.ts';
import { defineRoute, type RouteDef } from '../http/route.ts';

const list = 'Pages by `limit` (1–200, default 50) and `cursor` (`meta.nextCursor` of the previous page); cursors are stable when items are added.';
const idParams = (name: string, description: string) =>
  Type.Object({ [name]: Type.String({ minLength: 1, maxLength: 200, description }) }, { additionalProperties: false });
const recordParams = Type.Object({ record: Type.String({ minLength: 1, maxLength: 200, description: 'Record number of the bill (e.g. O2023-0001234).' }) });
const targetParams = Type.Object({ record: Type.String({ minLength: 1, maxLength: 200 }), personId: Type.String({ minLength: 1, maxLength: 200 }) });
const Deleted = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });

export function teamRoutes(ctx: AppContext): RouteDef[] {
  const td = ctx.services.teamData;
  const common = { private: true as const };
  const follows = (who: 'me' | 'team') => {
    const svc = who === 'me' ? td.personalFollows : td.teamFollows;
    const tags = [who === 'me' ? 'me' : 'team'];
    const kind = who === 'me' ? 'your' : "the team's";
    return [
      defineRoute({
        ...common,
        method: 'GET',
        path: `/${who}/follows`,
        operation: who === 'me' ? 'me.follows.list' : 'team.follows.list',
        summary: `List ${kind} follows`,
        description: list,
        tags,
        querystring: s.ListQuery,
        response: s.ListOf(s.Follow),
        handler: ({ actor, query }) => svc.list(actor, query),
      }),
      defineRoute({
        ...common,
        method: 'POST',
        path: `/${who}/follows`,
        operation: who === 'me' ? 'me.follows.create' : 'team.follows.create',
        summary: `Follow legislation, a person, a body or a search (${kind})`,
        description:
          'The record is resolved against the public data: an unknown record number, person or body is 404. ' +
          'A search follow stores its query (at most 200 characters). Following the same thing twice is 409 conflict.',
        tags,
        body: s.FollowCreate,
        response: s.Follow,
        handler: ({ actor, body }) => svc.create(actor, body),
      }),
      defineRoute({
        ...common,
        method: 'DELETE',
        path: `/${who}/follows/:id`,
        operation: who === 'me' ? 'me.follows.delete' : 'team.follows.delete',
        summary: `Unfollow (${kind} follows)`,
        tags,
        params: idParams('id', 'Follow id.'),
        response: Deleted,
        handler: ({ actor, params }) => svc.remove(actor, { id: params.id as string }),
      }),
    ];
  };

  return [
    ...follows('me'),
    ...follows('team'),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/team/notes',
      operation: 'team.notes.list',
      summary: 'Notes shared with the team, newest first',
      description: list,
      tags: ['team'],
      querystring: s.ListQuery,
      response: s.ListOf(s.Note),
      handler: ({ actor, query }) => td.notes.list(actor, query),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/team/notes',
      operation: 'team.notes.create',
      summary: 'Write a note shared with the team',
      description: 'Body at most 10,000 characters. `subject` attaches it to a matter (record number), person, meeting or body, which must exist.',
      tags: ['team'],
      body: s.NoteCreate,
      response: s.Note,
      handler: ({ actor, body }) => td.notes.create(actor, body),
    }),
    defineRoute({
      ...common,
      method: 'PATCH',
      path: '/team/notes/:id',
      operation: 'team.notes.update',
      summary: 'Change your own note (body and/or subject; subject null detaches it)',
      description: "Someone else's note is 403 forbidden; another team's is 404.",
      tags: ['team'],
      params: idParams('id', 'Note id.'),
      body: s.NotePatch,
      response: s.Note,
      handler: ({ actor, params, body }) => td.notes.update(actor, { id: params.id as string, change: body }),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/team/notes/:id',
      operation: 'team.notes.delete',
      summary: 'Delete your own note',
      tags: ['team'],
      params: idParams('id', 'Note id.'),
      response: Deleted,
      handler: ({ actor, params }) => td.notes.remove(actor, { id: params.id as string }),
    }),
    ...positionRoutes(ctx),
    ...dashboardRoutes(ctx),
  ];
}

function positionRoutes(ctx: AppContext): RouteDef[] {
  const td = ctx.services.teamData;
  const common = { private: true as const, tags: ['team'] };
  const stanceNote = 'A team has one stance per bill: the same row as its positions entry. Every stance change appends history.';
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: '/team/positions',
      operation: 'team.positions.list',
      summary: "The team's positions (its stance on each bill)",
      description: list,
      querystring: s.ListQuery,
      response: s.ListOf(s.Position),
      handler: ({ actor, query }) => td.positions.list(actor, query),
    }),
    defineRoute({
      ...common,
      method: 'PUT',
      path: '/team/positions',
      operation: 'team.positions.replace',
      summary: "Replace the team's whole set of positions",
      description: `Positions not in the body are cleared. Unknown record numbers are 404 and nothing changes. ${stanceNote}`,
      body: s.PositionsBody,
      response: s.PositionsList,
      handler: ({ actor, body }) => td.positions.replace(actor, body),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/team/positions',
      operation: 'team.positions.upsert',
      summary: 'Add or update positions by record number',
      description: `Returns the stored positions of the body. ${stanceNote}`,
      status: 200,
      body: s.PositionsBody,
      response: s.PositionsList,
      handler: ({ actor, body }) => td.positions.upsert(actor, body),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/team/positions/:id',
      operation: 'team.positions.delete',
      summary: 'Remove a position (clears the stance on that bill)',
      params: idParams('id', 'Position id.'),
      response: Deleted,
      handler: ({ actor, params }) => td.positions.remove(actor, { id: params.id as string }),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/team/legislation/:record/stance',
      operation: 'team.stance.read',
      summary: "The team's stance on a bill, with its history (newest first)",
      description: '404 when the team has no stance on the bill.',
      params: recordParams,
      response: s.StanceRecord,
      handler: ({ actor, params }) => td.stance.get(actor, { record: params.record }),
    }),
    defineRoute({
      ...common,
      method: 'PUT',
      path: '/team/legislation/:record/stance',
      operation: 'team.stance.set',
      summary: "Set the team's stance on a bill",
      description: `${stanceNote} Setting the stance it already has changes nothing.`,
      params: recordParams,
      body: s.StanceBody,
      response: s.StanceRecord,
      handler: ({ actor, params, body }) => td.stance.set(actor, { record: params.record, stance: body.stance, label: body.label }),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/team/legislation/:record/stance',
      operation: 'team.stance.clear',
      summary: "Clear the team's stance on a bill",
      description: '404 when there is none. The history keeps an entry with stance null.',
      params: recordParams,
      response: Deleted,
      handler: ({ actor, params }) => td.stance.clear(actor, { record: params.record }),
    }),
    ...targetRoutes(ctx),
  ];
}

function targetRoutes(ctx: AppContext): RouteDef[] {
  const td = ctx.services.teamData;
  const common = { private: true as const, tags: ['team'], response: s.Targets };
  const contacted = (method: 'POST' | 'DELETE') =>
    defineRoute({
      ...common,
      method,
      path: '/team/legislation/:record/targets/:personId/contacted',
      operation: method === 'POST' ? 'team.targets.contacted.add' : 'team.targets.contacted.remove',
      summary: method === 'POST' ? 'Mark a person on the target list as contacted' : 'Move a person back out of contacted',
      description: '404 when the person is not on the list' + (method === 'DELETE' ? ', or not in contacted.' : '.'),
      status: 200,
      params: targetParams,
      handler: ({ actor, params }) => (method === 'POST' ? td.targets.markContacted(actor, params) : td.targets.unmarkContacted(actor, params)),
    });
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: '/team/legislation/:record/targets',
      operation: 'team.targets.read',
      summary: 'The target list of a bill (advocacy teams)',
      params: recordParams,
      handler: ({ actor, params }) => td.targets.get(actor, { record: params.record }),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/team/legislation/:record/targets',
      operation: 'team.targets.add',
      summary: 'Add up to 50 people to the target list',
      description: 'Only alderpersons and officials; any unknown id is 404 naming it, and nothing is added. People already on the list stay as they are.',
      status: 200,
      params: recordParams,
      body: s.TargetsBody,
      handler: ({ actor, params, body }) => td.targets.add(actor, { record: params.record, personIds: body.personIds }),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/team/legislation/:record/targets/:personId',
      operation: 'team.targets.remove',
      summary: 'Remove a person from the target list (and from contacted)',
      description: '404 when the person is not on the list.',
      params: targetParams,
      handler: ({ actor, params }) => td.targets.remove(actor, params),
    }),
    contacted('POST'),
    contacted('DELETE'),
  ];
}

function dashboardRoutes(ctx: AppContext): RouteDef[] {
  const td = ctx.services.teamData;
  const common = { private: true as const, tags: ['team'] };
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: '/team/dashboards',
      operation: 'team.dashboards.list',
      summary: 'Analytics dashboards shared with the team',
      description: list,
      querystring: s.ListQuery,
      response: s.ListOf(s.Dashboard),
      handler: ({ actor, query }) => td.dashboards.list(actor, query),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: '/team/dashboards',
      operation: 'team.dashboards.create',
      summary: 'Create a dashboard (version 1)',
      description: 'The layout (default: no widgets) is validated per widget kind and may hold at most 64 KiB of JSON.',
      body: s.DashboardCreate,
      response: s.Dashboard,
      handler: ({ actor, body }) => td.dashboards.create(actor, body),
    }),
    defineRoute({
      ...common,
      method: 'PATCH',
      path: '/team/dashboards/:id',
      operation: 'team.dashboards.update',
      summary: 'Rename a dashboard and/or save its layout',
      description:
        'A layout save raises `version` by one. With `baseVersion` it succeeds only while the dashboard is at that version, else 409 conflict (reread and reapply); without it the save is unconditional.',
      params: idParams('id', 'Dashboard id.'),
      body: s.DashboardPatch,
      response: s.Dashboard,
      handler: ({ actor, params, body }) => td.dashboards.update(actor, { id: params.id as string, change: body }),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/team/dashboards/:id',
      operation: 'team.dashboards.delete',
      summary: 'Delete a dashboard',
      params: idParams('id', 'Dashboard id.'),
      response: Deleted,
      handler: ({ actor, params }) => td.dashboards.remove(actor, { id: params.id as string }),
    }),
  ];
}
