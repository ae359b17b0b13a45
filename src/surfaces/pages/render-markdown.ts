// The Markdown variant of a page (`<path>.md`, text/markdown; charset=utf-8) from the same view
// model as the HTML, for agents that read pages: the same headings, facts, tables and links, with
// every link made absolute from BASE_URL. Charts become their table of figures; forms say how
// to ask for the same page with parameters.
import { actHref, actLinkText, actSubject } from './act-panel.ts';
import type { Block, Inline, PageModel, Text } from './model.ts';

/** Text outside code that Markdown would read as markup (CommonMark §2.4 backslash escapes). */
const mdEscape = (s: string) => s.replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');

function inline(i: Inline, base: string): string {
  if (typeof i === 'string') return mdEscape(i);
  const href = i.href.startsWith('/') ? `${base}${i.href}` : i.href;
  // Angle brackets let the destination hold spaces and parentheses (CommonMark §6.3).
  return `[${mdEscape(i.text)}](<${href.replace(/[<>\s]/g, encodeURIComponent)}>)`;
}

export function textMarkdown(t: Text, base: string): string {
  return typeof t === 'string' || !Array.isArray(t) ? inline(t as Inline, base) : (t as readonly Inline[]).map((i) => inline(i, base)).join('');
}

function block(b: Block, depth: number, base: string): string {
  const t = (x: Text) => textMarkdown(x, base);
  switch (b.kind) {
    case 'section':
      return [`${'#'.repeat(Math.min(depth, 6))} ${mdEscape(b.heading)}`, ...b.blocks.map((x) => block(x, depth + 1, base))].join('\n\n');
    case 'paragraph':
      return t(b.text);
    case 'facts':
      return b.items.map(([label, value]) => `- **${mdEscape(label)}:** ${t(value)}`).join('\n');
    case 'list':
      return b.items.map((i, n) => `${b.ordered ? `${n + 1}.` : '-'} ${t(i)}`).join('\n');
    case 'table': {
      const num = new Set(b.numeric ?? []);
      const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
      return [
        `*${mdEscape(b.caption)}*`,
        '',
        row(b.head.map(mdEscape)),
        row(b.head.map((_, i) => (num.has(i) ? '---:' : '---'))),
        ...b.rows.map((r) => row(r.map(t))),
      ].join('\n');
    }
    case 'chart':
      return block({ kind: 'table', caption: b.title, head: b.head, rows: b.bars.map((x) => [x.label, x.text ?? String(x.value)]), numeric: [1] }, depth, base);
    case 'form':
      return `${mdEscape(b.label)}: \`GET ${base}${b.action}?${b.fields.map((f) => `${f.name}=…`).join('&')}\` (${b.fields
        .map((f) => `${f.name}: ${mdEscape(f.label)}${f.options ? ` — one of ${f.options.map(([v]) => (v === '' ? 'empty' : `\`${v}\``)).join(', ')}` : ''}`)
        .join('; ')})`;
    case 'pager':
      return b.next ? `[Next page](<${base}${b.next}>)` : '';
  }
}

export function renderMarkdown(model: PageModel, base: string): string {
  const head = [`# ${mdEscape(model.title)}`, '', `> ${mdEscape(model.description)}`, '', `- Web page: <${base}${model.path}>`];
  if (model.updatedAt) head.push(`- Last changed: ${model.updatedAt}`);
  for (const f of model.feeds) head.push(`- Atom feed: [${mdEscape(f.text)}](<${base}${f.href}>)`);
  const body = model.blocks.map((b) => block(b, 2, base)).filter((s) => s.length > 0);
  if (model.figure) body.splice(Math.min(1, body.length), 0, textMarkdown(model.figure.markdown, base));
  // The HTML page's action panel (act-panel.ts), for a reader of this variant: the same way in.
  const subject = actSubject(model.path);
  if (subject) body.splice(Math.min(1, body.length), 0, `[${actLinkText}](<${base}${actHref(subject.type, subject.ref)}>)`);
  return `${[head.join('\n'), ...body].join('\n\n')}\n`;
}
