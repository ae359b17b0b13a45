// "Act where you read": the part of a bill, person, committee or meeting page where a signed-in
// person follows it, sets the team's stance, writes a team note or works the target list. The
// page stays one cached answer for everyone (README, caching rule): it carries only this empty
// panel, the same for every visitor. With JavaScript, /assets/act.js asks the session's abilities
// for the record (a no-store endpoint, surfaces/dashboard/act-routes.ts) and renders the forms
// there; without it, the panel's link opens the team's view of the record in the dashboard.
import { html } from 'hono/html';
import type { Html } from '../web/shell.ts';

export type ActType = 'matter' | 'person' | 'body' | 'meeting';

const byPrefix: Record<string, ActType> = { matters: 'matter', people: 'person', bodies: 'body', meetings: 'meeting' };

const headings: Record<ActType, string> = {
  matter: 'Follow this bill, take your team’s stance, work its target list',
  person: 'Follow this person, add them to a target list, write a note',
  body: 'Follow this committee, write a note',
  meeting: 'Write a note about this meeting for your team',
};

/** The record a public page is about, by its path (`/matters/O2023-1`, `/people/{id}`, …), or null. */
export function actSubject(path: string): { type: ActType; ref: string } | null {
  const m = /^\/(matters|people|bodies|meetings)\/([^/?#]+)$/.exec(path);
  if (!m) return null;
  return { type: byPrefix[m[1]!]!, ref: decodeURIComponent(m[2]!) };
}

/** Where the record is worked on without JavaScript: /act/{type}/{ref} (signs in first, then the team's view). */
export function actHref(type: ActType, ref: string): string {
  return `/act/${type}/${encodeURIComponent(ref)}`;
}

export const actLinkText = 'Act on this in your dashboard';

export function actPanel(subject: { type: ActType; ref: string }, title: string): Html {
  return html`<section class="act" aria-labelledby="act-heading" data-act-type="${subject.type}" data-act-ref="${subject.ref}" data-act-title="${title}">
<h2 id="act-heading">${headings[subject.type]}</h2>
<div data-act-controls></div>
<p class="muted" role="status" data-act-status></p>
<p data-act-fallback><a href="${actHref(subject.type, subject.ref)}">${actLinkText}</a> (you sign in first if you are not signed in).</p>
</section>`;
}
