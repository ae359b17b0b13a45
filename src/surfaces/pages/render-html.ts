// The HTML rendering of a page's view model (model.ts): semantic elements (sections with headings,
// definition lists, tables with captions and header cells, labelled forms), charts as SVG with the
// same figures in a table beside them. Every value is escaped by hono/html's template.
import { html, raw } from 'hono/html';
import { recordNumberPattern } from '../../modules/public-data/index.ts';
import { barChart } from '../charts/bar-chart.ts';
import type { Html } from '../web/layout.ts';
import type { Block, FormField, Inline, Text } from './model.ts';

function inline(i: Inline): Html | string {
  return typeof i === 'string' ? html`${i}` : html`<a href="${i.href}">${i.text}</a>`;
}

export function textHtml(t: Text): Html | string | (Html | string)[] {
  return typeof t === 'string' || !Array.isArray(t) ? inline(t as Inline) : (t as readonly Inline[]).map(inline);
}

/** A cell's text as read. */
const plain = (t: Text): string => (typeof t === 'string' ? t : Array.isArray(t) ? t.map((i: Inline) => plain(i)).join('') : (t as { text: string }).text);

/**
 * A cell holding a date alone is never broken: at a phone's width "2015-05-18" wrapped at its
 * hyphens onto two lines. Other text (a record's number too) may still wrap, so a table keeps to
 * the page's width rather than hiding its last column behind a scroll.
 */
const dateAlone = (t: Text): boolean => /^\d{4}-\d{2}-\d{2}$/.test(plain(t));

/** A matter's record number alone ("CL2024-0006937"): kept on one line wherever the screen has room (shell.ts). */
const recordAlone = (t: Text): boolean => recordNumberPattern.test(plain(t));

/** The class a body cell takes by its content, when its column has none. */
const cellClass = (t: Text) => (dateAlone(t) ? raw(' class="date"') : recordAlone(t) ? raw(' class="record"') : '');

function field(f: FormField, form: string): Html {
  const id = `${form}-${f.name}`;
  if (f.options) {
    return html`<label for="${id}">${f.label}</label><select id="${id}" name="${f.name}">${f.options.map(
      ([value, label]) => html`<option value="${value}"${value === f.value ? raw(' selected') : ''}>${label}</option>`,
    )}</select>`;
  }
  return html`<label for="${id}">${f.label}</label><input id="${id}" name="${f.name}" type="${f.type ?? 'text'}" value="${f.value}">`;
}

function block(b: Block, depth: number): Html {
  switch (b.kind) {
    case 'section': {
      const heading = depth === 2 ? html`<h2>${b.heading}</h2>` : html`<h3>${b.heading}</h3>`;
      return html`<section>${heading}${b.blocks.map((x) => block(x, depth + 1))}</section>`;
    }
    case 'paragraph':
      return html`<p>${textHtml(b.text)}</p>`;
    case 'facts':
      return html`<dl class="facts">${b.items.map(([label, value]) => html`<dt>${label}</dt><dd>${textHtml(value)}</dd>`)}</dl>`;
    case 'list':
      return b.ordered
        ? html`<ol>${b.items.map((i) => html`<li>${textHtml(i)}</li>`)}</ol>`
        : html`<ul>${b.items.map((i) => html`<li>${textHtml(i)}</li>`)}</ul>`;
    case 'table': {
      const num = new Set(b.numeric ?? []);
      const digest = new Set(b.digests ?? []);
      const cls = (i: number) => (num.has(i) ? raw(' class="num"') : digest.has(i) ? raw(' class="digest"') : '');
      return html`<div class="scroll"><table><caption>${b.caption}</caption>
<thead><tr>${b.head.map((h, i) => html`<th scope="col"${cls(i)}>${h}</th>`)}</tr></thead>
<tbody>${b.rows.map((r) => html`<tr>${r.map((c, i) => html`<td${cls(i) || cellClass(c)}>${textHtml(c)}</td>`)}</tr>`)}</tbody></table></div>`;
    }
    case 'chart':
      return html`${barChart({ title: b.title, bars: [...b.bars] })}${block(
        { kind: 'table', caption: `${b.title} (figures)`, head: b.head, rows: b.bars.map((x) => [x.label, x.text ?? String(x.value)]), numeric: [1] },
        depth,
      )}`;
    case 'form': {
      const name = b.action.replace(/\W+/g, '') || 'home';
      return html`<form method="get" action="${b.action}" role="search" aria-label="${b.label}" class="filters">${b.fields.map((f) => field(f, name))}<button type="submit">${b.label}</button></form>`;
    }
    case 'pager':
      return b.next ? html`<nav aria-label="Pages"><p><a href="${b.next}" rel="next">Next page</a></p></nav>` : html``;
  }
}

export function blocksHtml(blocks: readonly Block[]): Html[] {
  return blocks.map((b) => block(b, 2));
}
