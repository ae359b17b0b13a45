// Charts as server-rendered inline SVG, shared by the public pages and the team dashboard: they
// need no script, scale with the page, and carry a text title and labels for screen readers. The
// same figures go in a table next to the chart (WCAG 1.1.1: a text alternative that holds the data).
import { html } from 'hono/html';

type Html = ReturnType<typeof html>;

export interface Bar {
  label: string;
  value: number;
  /** Shown at the end of the bar; defaults to the value. */
  text?: string;
  /** The record the bar is about, cited in the table (a public page path). */
  href?: string | null;
}

export interface Chart {
  title: string;
  bars: Bar[];
  /** Said under the chart: what it is drawn from, or why it is empty. */
  note?: string | null;
}

const palette = ['#1f5fa8', '#b5452b', '#5a8f29', '#8a5fb0', '#c28a14', '#2b8a8a', '#7a7a7a', '#a83275'];

/**
 * Bars that each cite a record of their own (people, bills, clients) measure the same thing of
 * different records: one colour, so no bar reads as worse (a red bar beside "1 of 1 with the
 * team"). Bars of categories (Yea and Nay of one roll call, statuses) keep a colour each.
 */
function colours(chart: Chart): (i: number) => string {
  const own = chart.bars.every((b) => b.href) && new Set(chart.bars.map((b) => b.href)).size === chart.bars.length;
  return (i) => (own ? palette[0]! : palette[i % palette.length]!);
}

export function barChart(chart: Chart): Html {
  const rowH = 24;
  const labelW = 200;
  const barW = 320;
  // Room after the longest bar for the longest figure ("3 of 4 with the team", "$1,234,567").
  const textW = Math.max(110, ...chart.bars.map((b) => (b.text ?? String(b.value)).length * 7.5 + 12));
  const width = labelW + barW + Math.ceil(textW);
  const height = Math.max(1, chart.bars.length) * rowH + 8;
  const max = Math.max(0, ...chart.bars.map((b) => b.value));
  const colourOf = colours(chart);
  const bars = chart.bars.map((b, i) => {
    const w = max > 0 ? Math.max(1, Math.round((b.value / max) * barW)) : 1;
    const y = 4 + i * rowH;
    return html`<g class="bar" data-label="${b.label}" data-value="${b.value}">
<text x="${labelW - 6}" y="${y + 16}" text-anchor="end" font-size="13">${b.label.length > 30 ? `${b.label.slice(0, 29)}…` : b.label}</text>
<rect x="${labelW}" y="${y + 3}" width="${w}" height="${rowH - 8}" fill="${colourOf(i)}"></rect>
<text x="${labelW + w + 6}" y="${y + 16}" font-size="13">${b.text ?? String(b.value)}</text></g>`;
  });
  return html`<figure class="chart"><figcaption><strong>${chart.title}</strong></figcaption>
${
  chart.bars.length
    ? html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${chart.title}"><title>${chart.title}</title>${bars}</svg>`
    : ''
}
${chart.note ? html`<p class="muted">${chart.note}</p>` : ''}</figure>`;
}

/** The chart and its figures as a table (folded away under the chart), each bar's record linked. */
export function chartWithTable(chart: Chart, head: readonly [string, string] = ['', 'Figure']): Html {
  if (!chart.bars.length) return barChart(chart);
  const label = (b: Bar) => (b.href ? html`<a href="${b.href}">${b.label}</a>` : b.label);
  return html`${barChart(chart)}<details class="figures"><summary>The figures as a table</summary><table><caption>${chart.title}</caption>
<thead><tr><th scope="col">${head[0]}</th><th scope="col" class="num">${head[1]}</th></tr></thead>
<tbody>${chart.bars.map((b) => html`<tr><td>${label(b)}</td><td class="num">${b.text ?? String(b.value)}</td></tr>`)}</tbody></table></details>`;
}

export function dollars(amount: number): string {
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 0 })}`;
}
