// The team's view of one public record (/dashboard/{team}/records/{type}/{ref}): a bill, a person, a
// committee or a meeting with what the team has on it — its follow, its stance, the bill's target
// list (who, contacted, how they voted), the bills a person is a target on, and the team's notes
// about it — with the forms to change them. It is where "Act on this in your dashboard" leads from
// a public page without JavaScript; each form performs the same operation as v2.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { schemas } from '../../modules/public-data/index.ts';
import { teamSchemas } from '../../modules/team-data/index.ts';
import { field, fields } from '../web/form.ts';
import { csrfField, formatTime, type Html } from '../web/layout.ts';
import { requireCsrf } from '../web/security.ts';
import { act, dashboardPage, notice, type PageState, sendDashboardPage, stanceText } from './layout.ts';
import { recordViewHref } from './act-routes.ts';
import { followOf, type PublicRecord, publicRecord } from './records.ts';
import { all, section, type TeamViewer, teamViewer } from './viewer.ts';

type Params = { teamId: string; type: string; ref: string };

function post(v: TeamViewer, record: PublicRecord, action: string, label: string, hidden: Html | string = ''): Html {
  return html`<form method="post" action="${recordViewHref(v.teamId, record)}/${action}" class="inline" data-live-form>${csrfField(v.csrfToken)}${hidden}<button type="submit">${label}</button></form>`;
}

async function followPart(v: TeamViewer, record: PublicRecord): Promise<Html | string> {
  if (!record.followType) return '';
  const follows = await section(() => all<teamSchemas.FollowOut>((cursor) => v.perform('team.follows.list', { limit: 200, ...(cursor ? { cursor } : {}) })));
  if (!follows.ok) return notice(follows.message);
  const follow = followOf(follows.value, record);
  const form = v.may('team.follows.create') ? (follow ? post(v, record, 'unfollow', 'Stop following') : post(v, record, 'follow', 'Follow for the team')) : '';
  return html`<p>${follow ? 'The team follows this.' : 'The team does not follow this.'} ${form}</p>`;
}

async function billPart(v: TeamViewer, record: PublicRecord): Promise<Html> {
  const stance = await section(() => v.perform('team.stance.read', { record: record.ref }));
  const current = stance.ok ? stance.value.stance : null;
  const stanceForms = v.may('team.stance.set')
    ? html`${(['supports', 'opposes'] as const).filter((s) => s !== current).map((s) => post(v, record, 'stance', s === 'supports' ? 'Support' : 'Oppose', html`<input type="hidden" name="stance" value="${s}">`))}
${current ? post(v, record, 'stance', 'Clear stance', html`<input type="hidden" name="stance" value="clear">`) : ''}`
    : '';
  const board = await section(() => v.perform('team.targets.board', { record: record.ref }));
  let targets: Html;
  if (!board.ok) targets = notice(board.message);
  else {
    const manager = v.may('team.targets.add');
    const rows = board.value.targets.map(
      (t) => html`<tr data-person="${t.personId}"><td><a href="/people/${encodeURIComponent(t.personId)}">${t.name}</a>${t.ward ? ` (Ward ${t.ward})` : ''}</td>
<td>${t.contacted ? 'Contacted' : 'Not yet'}</td><td>${t.votes.length ? t.votes.map((x) => html`${x.value} (${x.date})<br>`) : html`<span class="muted">No recorded votes</span>`}</td>
<td>${manager ? post(v, record, `targets/${encodeURIComponent(t.personId)}/${t.contacted ? 'uncontacted' : 'contacted'}`, t.contacted ? 'Mark not contacted' : 'Mark contacted') : ''}</td></tr>`,
    );
    const listed = new Set(board.value.targets.map((t) => t.personId));
    const alders = manager
      ? await all<schemas.PersonOut>((cursor) =>
          v.perform('people.public.list', { kind: 'alderperson', current: true, sort: 'ward', limit: 200, ...(cursor ? { cursor } : {}) }),
        )
      : [];
    const add = manager
      ? html`<form method="post" action="${recordViewHref(v.teamId, record)}/targets" data-live-form>${csrfField(v.csrfToken)}
<label>Add alderpersons to the list <select name="personId" multiple size="5">${alders
          .filter((p) => !listed.has(p.id))
          .map(
            (p) => html`<option value="${p.id}">${p.ward ? `Ward ${p.ward}: ` : ''}${p.name}</option>`,
          )}</select></label><button type="submit">Add targets</button></form>`
      : '';
    targets = html`${rows.length ? html`<table><caption>Who to lobby, and how they voted</caption><thead><tr><th>Target</th><th>Contacted</th><th>Votes on this bill</th><th><span class="muted">Change</span></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p>No one on the target list yet.</p>`}${add}`;
  }
  return html`<h2>Team stance</h2><p class="stance" data-stance="${current ?? 'none'}">${stanceText(current)} ${stanceForms}</p>
<h2>Target list</h2>${targets}`;
}

async function personPart(v: TeamViewer, record: PublicRecord): Promise<Html | string> {
  if (!v.may('team.targets.add')) return '';
  const bills = await section(() => v.perform('team.legislation.list', {}));
  if (!bills.ok || bills.value.data.length === 0) return '';
  return html`<h2>Target lists</h2><form method="post" action="${recordViewHref(v.teamId, record)}/target-of" data-live-form>${csrfField(v.csrfToken)}
<label>Add ${record.title} to the target list of <select name="record">${bills.value.data.map((b) => html`<option value="${b.recordNumber}">${b.recordNumber}${b.title ? `: ${b.title.slice(0, 80)}` : ''}</option>`)}</select></label>
<button type="submit">Add to the target list</button></form>`;
}

async function notesPart(v: TeamViewer, record: PublicRecord): Promise<Html> {
  const list = await section(() => all<teamSchemas.NoteOut>((cursor) => v.perform('team.notes.list', { limit: 200, ...(cursor ? { cursor } : {}) })));
  if (!list.ok) return html`<h2>Team notes</h2>${notice(list.message)}`;
  const ref = record.ref.toLowerCase();
  const about = list.value.filter((n) => n.subject?.type === record.type && n.subject.refId.toLowerCase() === ref).reverse();
  const form = v.may('team.notes.create')
    ? html`<form method="post" action="${recordViewHref(v.teamId, record)}/notes" data-live-form>${csrfField(v.csrfToken)}
<label>A note for the team about this <textarea name="body" rows="3" maxlength="${teamSchemas.MAX_NOTE}" required></textarea></label><button type="submit">Add note</button></form>`
    : '';
  return html`<h2>Team notes</h2>${
    about.length
      ? about.map(
          (n) =>
            html`<article class="note"><p>${n.body}</p><p class="muted">by ${n.authorName ?? 'a former member'} · ${formatTime(n.createdAt)}</p></article>`,
        )
      : html`<p>No notes about this yet.</p>`
  }${form}`;
}

export function recordPages(ctx: AppContext) {
  async function render(request: FastifyRequest, reply: FastifyReply, v: TeamViewer, state: PageState, status: number) {
    const { type, ref } = request.params as Params;
    const record = await publicRecord(ctx, type, ref);
    const region = html`<p>The public record: <a href="${record.path}">${record.title}</a></p>
${await followPart(v, record)}
${record.type === 'matter' ? await billPart(v, record) : ''}
${record.type === 'person' ? await personPart(v, record) : ''}
${await notesPart(v, record)}`;
    return sendDashboardPage(
      reply,
      status,
      dashboardPage(
        request,
        v,
        record.type === 'matter' ? 'legislation' : 'notes',
        record.type === 'matter' ? `Bill ${record.ref}` : record.title,
        region,
        state,
      ),
    );
  }

  return async function routes(app: FastifyInstance): Promise<void> {
    const csrf = requireCsrf(ctx);
    const base = '/dashboard/:teamId/records/:type/:ref';
    app.get(base, async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      return render(request, reply, v, {}, 200);
    });
    /** A form on the record's view: the change, then back to the view (or the view again with the refusal). */
    const change = (path: string, run: (v: TeamViewer, record: PublicRecord, body: unknown, params: Record<string, string>) => Promise<unknown>) =>
      app.post(`${base}/${path}`, { preHandler: csrf }, async (request, reply) => {
        const v = (await teamViewer(ctx, request, reply))!;
        const params = request.params as Params & Record<string, string>;
        const record = await publicRecord(ctx, params.type, params.ref);
        const again = (viewer: TeamViewer, s: PageState, code: number) => render(request, reply, viewer, s, code);
        return act(v, reply, again, recordViewHref(v.teamId, record), () => run(v, record, request.body, params));
      });
    const followType = (record: PublicRecord) => {
      if (!record.followType) throw new AppError('invalid_request', 'A meeting cannot be followed: follow its committee instead.');
      return record.followType;
    };
    change('follow', (v, record) => v.perform('team.follows.create', { type: followType(record), refId: record.ref }));
    change('unfollow', async (v, record) => {
      const follow = followOf(await all<teamSchemas.FollowOut>((c) => v.perform('team.follows.list', { limit: 200, ...(c ? { cursor: c } : {}) })), record);
      if (follow) await v.perform('team.follows.delete', { id: follow.id });
    });
    change('stance', (v, record, body) => {
      const stance = field(body, 'stance');
      return stance === 'clear'
        ? v.perform('team.stance.clear', { record: record.ref })
        : v.perform('team.stance.set', { record: record.ref, stance: stance as 'supports' });
    });
    change('targets', (v, record, body) => v.perform('team.targets.add', { record: record.ref, personIds: fields(body, 'personId') }));
    change('targets/:personId/contacted', (v, record, _b, p) => v.perform('team.targets.contacted.add', { record: record.ref, personId: p.personId! }));
    change('targets/:personId/uncontacted', (v, record, _b, p) => v.perform('team.targets.contacted.remove', { record: record.ref, personId: p.personId! }));
    change('target-of', (v, record, body) => v.perform('team.targets.add', { record: field(body, 'record'), personIds: [record.ref] }));
    change('notes', (v, record, body) => v.perform('team.notes.create', { body: field(body, 'body'), subject: { type: record.type, refId: record.ref } }));
  };
}
