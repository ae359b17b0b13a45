// The dashboard's page shell: the website's layout (surfaces/web) with the team's navigation and
// the live region. Pages work without JavaScript; with it, assets/live.js keeps the region
// current from the team's event stream and submits the forms in place.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import { AppError } from '../../kernel/errors.ts';
import { errorBox, type Html, page, sendPage } from '../web/layout.ts';
import { viewerOf } from '../web/signin-pages.ts';
import type { TeamViewer } from './viewer.ts';

export type Section = 'legislation' | 'positions' | 'follows' | 'notes' | 'targets' | 'analytics' | 'scorecard' | 'people';

const sections: [Section, string][] = [
  ['legislation', 'Legislation'],
  ['positions', 'Positions'],
  ['follows', 'Follows'],
  ['notes', 'Notes'],
  ['targets', 'Target lists'],
  ['analytics', 'Analytics'],
  ['scorecard', 'Scorecard'],
  ['people', 'People'],
];

export function teamBase(teamId: string): string {
  return `/dashboard/${encodeURIComponent(teamId)}`;
}

function nav(teamId: string, current: Section): Html {
  const base = teamBase(teamId);
  return html`<nav class="team" aria-label="Team">${sections.map(
    ([s, label], i) => html`${i ? ' · ' : ''}<a href="${base}/${s}" ${s === current ? html`aria-current="page"` : ''}>${label}</a>`,
  )} · Settings: <a href="${base}/settings/api-keys">API keys</a>, <a href="${base}/settings/members">Members</a></nav>`;
}

export interface PageState {
  error?: string | undefined;
}

/** A dashboard page; `region` is what live.js re-fetches and swaps when the team's data changes. */
export function dashboardPage(request: FastifyRequest, v: TeamViewer, current: Section, title: string, region: Html, state: PageState = {}): Html {
  const body = html`${nav(v.teamId, current)}
<p class="muted">Team <strong>${v.actor.team.name}</strong> · your role: ${v.actor.team.role}</p>
<div id="live" data-live-region data-events="${teamBase(v.teamId)}/events" aria-live="polite">
${errorBox(state.error)}
${region}
</div>
<script src="/dashboard/assets/live.js" defer></script>
<script src="/assets/picker.js" defer></script>`;
  return page(`${v.actor.team.name}: ${title}`, viewerOf(request), body);
}

/**
 * As the website's sendPage, with scripts allowed from this site only (live.js) and connections
 * to it (the event stream and the in-place form posts).
 */
export function sendDashboardPage(reply: FastifyReply, status: number, content: Html): Promise<FastifyReply> {
  return sendPage(
    reply,
    status,
    content,
    "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
}

export type Render = (v: TeamViewer, state: PageState, status: number) => Promise<FastifyReply>;

/**
 * A form's change: on success back to the page (303, so a reload does not repeat it); refused by
 * a service (role, feature, bad input, conflict) the page again with the reason and its status.
 */
export async function act<T>(
  v: TeamViewer,
  reply: FastifyReply,
  render: Render,
  back: string | ((result: T) => string),
  change: () => Promise<T>,
): Promise<FastifyReply> {
  let result: T;
  try {
    result = await change();
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    return render(v, { error: err.message }, err.status);
  }
  // `back` may name what the change chose (the bill a picker resolved), to return to its row.
  return reply.redirect(typeof back === 'string' ? back : back(result), 303);
}

export function stanceText(stance: string | null | undefined): Html {
  if (stance === 'supports') return html`<span class="stance-supports">Supports</span>`;
  if (stance === 'opposes') return html`<span class="stance-opposes">Opposes</span>`;
  return html`<span class="muted">No stance</span>`;
}

export function notice(message: string): Html {
  return html`<p class="notice" role="status">${message}</p>`;
}
