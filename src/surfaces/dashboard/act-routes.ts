// Acting where one reads. A public record page is one cached answer for everyone; what the
// signed-in person may do there comes from here, never from the page:
//   GET /act/{type}/{ref}/abilities  JSON, `Cache-Control: no-store`: for the person and each of
//        their teams, what they may do with this record (ctx.performer.mayPerform on the actor a v2
//        request with the session gets) and where things stand (their follow, the team's stance,
//        the bill's target list). /assets/act.js renders forms from it; the forms call v2 with the
//        session and its CSRF token, so they perform the very operations v2 binds.
//   GET /act/{type}/{ref}  without JavaScript: signs in first (and comes back), then opens the
//        team's view of the record (./record-pages.ts); someone in several teams or none chooses.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';
import { csrfField, page, sendPage } from '../web/layout.ts';
import { signedIn } from '../web/security.ts';
import { viewerOf } from '../web/signin-pages.ts';
import { actorsOf, followOf, orNull, type PublicRecord, performer, publicRecord, type TeamActor } from './records.ts';
import { all } from './viewer.ts';

const actJs = readFileSync(new URL('./assets/act.js', import.meta.url), 'utf8');

export function recordViewHref(teamId: string, record: Pick<PublicRecord, 'type' | 'ref'>): string {
  return `/dashboard/${encodeURIComponent(teamId)}/records/${record.type}/${encodeURIComponent(record.ref)}`;
}

async function personalAbilities(ctx: AppContext, actor: Actor, record: PublicRecord) {
  const perform = performer(ctx, actor);
  const mayFollow = record.followType !== null && ctx.performer.mayPerform(actor, 'me.follows.create');
  const follows = mayFollow ? await all((cursor) => perform('me.follows.list', { limit: 200, ...(cursor ? { cursor } : {}) })) : [];
  return { may: { follow: mayFollow }, follow: followOf(follows, record) };
}

async function teamAbilities(ctx: AppContext, actor: TeamActor, record: PublicRecord) {
  const perform = performer(ctx, actor);
  const may = {
    follow: record.followType !== null && ctx.performer.mayPerform(actor, 'team.follows.create'),
    stance: record.type === 'matter' && ctx.performer.mayPerform(actor, 'team.stance.set'),
    note: ctx.performer.mayPerform(actor, 'team.notes.create'),
    targets: (record.type === 'matter' || record.type === 'person') && ctx.performer.mayPerform(actor, 'team.targets.add'),
    contacted: record.type === 'matter' && ctx.performer.mayPerform(actor, 'team.targets.contacted.add'),
  };
  const follows =
    record.followType && ctx.performer.mayPerform(actor, 'team.follows.list')
      ? await all((cursor) => perform('team.follows.list', { limit: 200, ...(cursor ? { cursor } : {}) }))
      : [];
  const isMatter = record.type === 'matter';
  const stance =
    isMatter && ctx.performer.mayPerform(actor, 'team.stance.read') ? await orNull(() => perform('team.stance.read', { record: record.ref })) : null;
  const board =
    isMatter && ctx.performer.mayPerform(actor, 'team.targets.board') ? await orNull(() => perform('team.targets.board', { record: record.ref })) : null;
  // On a person's page: the team's bills, whose target lists the person can be added to.
  const bills = record.type === 'person' && may.targets ? ((await orNull(() => perform('team.legislation.list', {})))?.data ?? []) : [];
  return {
    id: actor.team.id,
    name: actor.team.name,
    role: actor.team.role,
    view: recordViewHref(actor.team.id, record),
    may,
    follow: followOf(follows, record),
    stance: stance?.stance ?? null,
    targets: board
      ? board.targets.map((t) => ({
          personId: t.personId,
          name: t.name,
          ward: t.ward,
          contacted: t.contacted,
          votes: t.votes.map((x) => `${x.value} on ${x.date}`),
        }))
      : [],
    bills: bills.map((b) => ({ recordNumber: b.recordNumber, title: b.title })),
  };
}

export function actRoutes(ctx: AppContext) {
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/assets/act.js', async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=300').header('X-Content-Type-Options', 'nosniff').send(actJs),
    );

    app.get('/act/:type/:ref/abilities', async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const { type, ref } = request.params as { type: string; ref: string };
      const record = await publicRecord(ctx, type, ref);
      const session = request.signedIn;
      if (!session) return { signedIn: false, record, signIn: `/signin?return=${encodeURIComponent(record.path)}` };
      const { personal, teams } = await actorsOf(ctx, session);
      const needsAlders = record.type === 'matter' && teams.some((t) => ctx.performer.mayPerform(t, 'team.targets.add'));
      const alderpersons = needsAlders
        ? (await performer(ctx, personal)('people.public.list', { kind: 'alderperson', current: true, sort: 'ward', limit: 200 })).data.map((p) => ({
            id: p.id,
            name: p.name,
            ward: p.ward,
          }))
        : [];
      return {
        signedIn: true,
        record,
        csrfToken: session.csrfToken,
        personal: await personalAbilities(ctx, personal, record),
        teams: await Promise.all(teams.map((t) => teamAbilities(ctx, t, record))),
        alderpersons,
      };
    });

    app.get('/act/:type/:ref', async (request, reply) => {
      const { type, ref } = request.params as { type: string; ref: string };
      const record = await publicRecord(ctx, type, ref);
      const session = signedIn(request, reply);
      if (!session) return reply;
      const teams = request.teams ?? [];
      if (teams.length === 1) return reply.redirect(recordViewHref(teams[0]!.id, record), 303);
      const body = html`<p>About <a href="${record.path}">${record.title}</a>.</p>
${
  teams.length
    ? html`<p>Which team are you acting for?</p><ul>${teams.map((t) => html`<li><a href="${recordViewHref(t.id, record)}">${t.name}</a></li>`)}</ul>`
    : html`<p>You are not in a team. ${
        record.followType
          ? html`<form method="post" action="/account/follows">${csrfField(session.csrfToken)}<input type="hidden" name="type" value="${record.followType}">
<input type="hidden" name="refId" value="${record.ref}"><button type="submit">Follow it yourself</button></form>`
          : ''
      }</p>`
}`;
      return sendPage(reply, 200, page('Act on this record', viewerOf(request), body));
    });
  };
}
