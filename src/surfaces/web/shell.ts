// The one page shell of the whole site: the public pages, the open pages (wards, API docs), the
// account pages and the team dashboard all wear it — one stylesheet, a skip link first in keyboard
// order, the site's navigation, and one footer. What differs is the header's right-hand side: a
// public page (one cached answer for everyone, see the README's caching rule) always shows "Sign
// in"; a signed-in page shows "Dashboard" (or a switcher for people in several teams), "Account"
// and "Sign out". Every value goes through hono/html's `html`, which escapes it.
import { html, raw } from 'hono/html';

export type Html = ReturnType<typeof html>;

/** The site's stylesheet, inline (pages load no other stylesheet). */
export const siteStyle = `
body{font:16px/1.5 system-ui,sans-serif;max-width:64rem;margin:0 auto;padding:0 1rem 3rem;color:#1b1b1b;background:#fff}
a{color:#0b4ea2}a:visited{color:#5b2a86}a:focus,button:focus,input:focus,select:focus,textarea:focus,summary:focus{outline:3px solid #c25e00;outline-offset:2px}
.skip{position:absolute;left:-10000px;top:auto}.skip:focus{position:static;display:inline-block;padding:.4rem;background:#fffbe6;border:2px solid #1b1b1b}
header.site{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;border-bottom:1px solid #ccc;padding:.5rem 0;margin-bottom:1rem}
header.site nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.2rem 1rem;margin:0;padding:0}
header.site .you{margin-left:auto;display:flex;flex-wrap:wrap;gap:.2rem 1rem;align-items:center}
header.site form{display:inline;margin:0}header.site details{position:relative}
header.site details ul{position:absolute;right:0;z-index:2;background:#fff;border:1px solid #ccc;list-style:none;margin:.2rem 0 0;padding:.4rem .8rem;min-width:14rem}
[aria-current="page"]{font-weight:700;text-decoration:none}
table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border-bottom:1px solid #ddd;padding:.35rem .4rem;text-align:left;vertical-align:top}
caption{text-align:left;font-weight:600;padding:.3rem 0}
label{display:block;margin:.3rem 0}input,select,textarea{font:inherit;padding:.25rem}button{font:inherit;cursor:pointer;padding:.25rem .7rem}
fieldset{margin:1rem 0}details{margin:.3rem 0}pre{background:#f4f4f4;padding:.6rem;overflow-x:auto}code{font-size:.9em}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td.digest{word-break:break-all}td.date{white-space:nowrap}.scroll{overflow-x:auto}.muted{color:#4a4a4a}
.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin:1rem 0}.filters label{margin:0}
.filters input,.filters select{display:block;padding:.3rem}.filters button{padding:.35rem .8rem}
.error{background:#fde8e8;border:1px solid #c00;padding:.6rem 1rem}.notice{background:#e8f4fd;border:1px solid #06c;padding:.6rem 1rem}
.secret{font:1.1rem monospace;background:#fffbe6;border:1px solid #c90;padding:.6rem 1rem;word-break:break-all}
.act{border:1px solid #ccc;border-radius:4px;padding:.6rem 1rem;margin:1rem 0;background:#fafafa}.act h2{margin-top:0;font-size:1.1rem}
.act form{display:inline-block;margin:.2rem .6rem .2rem 0}.act form.block{display:block}
nav.team{border-bottom:1px solid #ddd;padding-bottom:.4rem}form.inline{display:inline}td form{margin:.15rem 0}textarea{width:100%;box-sizing:border-box}
.stance-supports{color:#075e2b;font-weight:bold}.stance-opposes{color:#8a1010;font-weight:bold}
.chart{margin:1rem 0;padding:.5rem;border:1px solid #ddd}.chart svg{max-width:100%;height:auto}
.widgets{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,36rem),1fr));gap:1rem}
.widget{border:1px solid #ccc;border-radius:4px;padding:.6rem .8rem}.widget .chart{margin:0;padding:0;border:0}.widget form{margin-top:.4rem}
td.num,th.num{text-align:right}.with{color:#075e2b}.against{color:#8a1010}button.quiet{font-size:.85em}
.picker{position:relative;margin:.5rem 0}.picker input[type=text]{width:100%;max-width:32rem}
.pick-list{position:absolute;z-index:2;background:#fff;border:1px solid #888;margin:0;padding:0;list-style:none;max-width:32rem;width:100%;max-height:16rem;overflow:auto}
.pick-list [role=option]{padding:.3rem .5rem;cursor:pointer}.pick-list [role=option][aria-selected=true]{background:#1f5fa8;color:#fff}
.pick-list [role=option][aria-selected=true] .muted{color:#eee}.pick-hint{font-size:.85em;margin:.2rem 0}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{border-top:1px solid #ccc;margin-top:2rem;padding-top:.5rem;font-size:.9rem}figure{margin:1rem 0}svg{max-width:100%;height:auto}
@media (max-width:30rem){table{font-size:.9rem}th,td{padding:.3rem .25rem}}
@media (min-width:40rem){td.record{white-space:nowrap}}
`;

const siteNav: readonly [string, string][] = [
  ['/', 'Home'],
  ['/search', 'Search'],
  ['/matters', 'Legislation'],
  ['/meetings', 'Meetings'],
  ['/people', 'People'],
  ['/money', 'Money'],
  ['/lobbying', 'Lobbying'],
  ['/docs', 'API'],
];

/** Who the header is for on a signed-in page: their address, the form token, their teams. */
export interface HeaderPerson {
  email: string;
  csrfToken: string;
  teams: readonly { id: string; name: string }[];
}

export function dashboardHref(teamId: string): string {
  return `/dashboard/${encodeURIComponent(teamId)}`;
}

/** "Dashboard" for one team, a disclosure listing each team's dashboard for several, nothing for none. */
function dashboards(teams: HeaderPerson['teams']): Html | string {
  if (teams.length === 1) return html`<a href="${dashboardHref(teams[0]!.id)}">Dashboard</a>`;
  if (teams.length === 0) return '';
  return html`<details class="teams"><summary>Dashboards</summary><ul>${teams.map((t) => html`<li><a href="${dashboardHref(t.id)}">${t.name}</a></li>`)}</ul></details>`;
}

function you(person: HeaderPerson | null): Html {
  if (!person) return html`<div class="you"><a href="/signin">Sign in</a></div>`;
  return html`<div class="you">${dashboards(person.teams)}<a href="/account" title="Signed in as ${person.email}">Account</a><span class="muted">${person.email}</span>
<form method="post" action="/signout"><input type="hidden" name="_csrf" value="${person.csrfToken}"><button type="submit">Sign out</button></form></div>`;
}

export interface ShellPage {
  /** The head's content besides the stylesheet (charset, title, description, alternates). */
  head: Html;
  /** The page's path, to mark the current navigation entry. */
  path?: string;
  person: HeaderPerson | null;
  main: Html | Html[];
  /** Extra footer links (the page's Markdown variant, its feeds). */
  footer?: Html | string;
  /** Scripts of this site the page runs (its CSP must allow 'self'). */
  scripts?: readonly string[];
}

export function sitePage(p: ShellPage): Html {
  const current = p.path?.split('?', 1)[0];
  return html`<!doctype html>
<html lang="en">
<head>
${p.head}
<style>${raw(siteStyle)}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<a href="/"><strong>Council Tracker</strong></a>
<nav aria-label="Site"><ul>${siteNav.map(([href, text]) => html`<li><a href="${href}"${href === current ? raw(' aria-current="page"') : ''}>${text}</a></li>`)}</ul></nav>
${you(p.person)}
</header>
<main id="main" tabindex="-1">
${p.main}
</main>
<footer>
<p>Public records of the Chicago City Council from the City Clerk (eLMS), the Board of Ethics and the Illinois State Board of Elections.
${p.footer ?? ''} <a href="/wards">Wards</a> · <a href="/llms.txt">For agents</a> · <a href="/auth.md">Getting a credential</a> · <a href="/sitemap.xml">Sitemap</a></p>
</footer>
${(p.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
</body>
</html>`;
}
