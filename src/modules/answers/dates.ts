// Date phrases in a question ("last month", "in 2019", "since March 2023", "on 2026-09-29")
// turned into a range of Chicago days, read against today's date in Chicago.

export interface DayRange {
  from?: string;
  to?: string;
  /** How the answer names the range: "in 2019", "in March 2023", "since 2020-01-01". */
  label: string;
}

const monthNames = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = monthNames.join('|');
const YEAR = '(?:19|20)\\d{2}';

// Made once: a formatter with a time zone is costly to build, and every answer asks for today.
const chicagoDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today's date in Chicago, the council's own calendar. */
export function chicagoDay(now: Date): string {
  return chicagoDate.format(now);
}

const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
const parts = (day: string) => day.split('-').map(Number) as [number, number, number];
function addDays(day: string, n: number): string {
  const [y, m, d] = parts(day);
  return iso(y, m - 1, d + n);
}
function addMonths(day: string, n: number): string {
  const [y, m, d] = parts(day);
  return iso(y, m - 1 + n, d);
}
const monthRange = (y: number, m: number) => ({ from: iso(y, m, 1), to: iso(y, m + 1, 0) });
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function labelled(from: string | undefined, to: string | undefined, label?: string): DayRange {
  const text = label ?? (from && to ? (from === to ? `on ${from}` : `from ${from} to ${to}`) : from ? `since ${from}` : `up to ${to}`);
  return { ...(from ? { from } : {}), ...(to ? { to } : {}), label: text };
}

/**
 * The first date phrase of the question, and the question without it (so its words are not
 * searched for), or null when there is none. Record numbers must already be taken out: their
 * years are not dates of the question.
 */
export function dateRange(text: string, today: string): { range: DayRange; rest: string } | null {
  const lower = text.toLowerCase();
  const [ty, tm] = parts(today);
  const rules: Array<[RegExp, (m: RegExpExecArray) => DayRange | null]> = [
    [new RegExp(`\\bbetween\\s+(${YEAR})\\s+and\\s+(${YEAR})\\b`), (m) => labelled(`${m[1]}-01-01`, `${m[2]}-12-31`, `from ${m[1]} to ${m[2]}`)],
    [
      /\b(on|since|after|from|before|until)?\s*(\d{4}-\d{2}-\d{2})\b/,
      (m) => {
        const day = m[2]!;
        if (Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) return null;
        if (m[1] === 'since' || m[1] === 'from') return labelled(day, undefined);
        if (m[1] === 'after') return labelled(addDays(day, 1), undefined, `after ${day}`);
        if (m[1] === 'before') return labelled(undefined, addDays(day, -1), `before ${day}`);
        if (m[1] === 'until') return labelled(undefined, day);
        return labelled(day, day);
      },
    ],
    [
      /\b(?:in the |over the )?(?:last|past)\s+(\d{1,3})\s+(day|week|month|year)s?\b/,
      (m) => {
        const n = Number(m[1]);
        const from = m[2] === 'day' ? addDays(today, -n) : m[2] === 'week' ? addDays(today, -7 * n) : addMonths(today, m[2] === 'month' ? -n : -12 * n);
        return labelled(from, today, `in the last ${n} ${m[2]}${n === 1 ? '' : 's'}`);
      },
    ],
    [/\btoday\b/, () => labelled(today, today, 'today')],
    [/\byesterday\b/, () => labelled(addDays(today, -1), addDays(today, -1), 'yesterday')],
    [
      /\b(this|last|past)\s+(week|month|year)\b/,
      (m) => {
        const [which, unit] = [m[1]!, m[2]!];
        if (which === 'past') {
          const from = unit === 'week' ? addDays(today, -7) : addMonths(today, unit === 'month' ? -1 : -12);
          return labelled(from, today, `in the past ${unit}`);
        }
        if (unit === 'week') {
          const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
          const monday = addDays(today, -weekday);
          return which === 'this' ? labelled(monday, today, 'this week') : labelled(addDays(monday, -7), addDays(monday, -1), 'last week');
        }
        if (unit === 'month') {
          const r = which === 'this' ? { from: iso(ty, tm - 1, 1), to: today } : monthRange(ty, tm - 2);
          return labelled(r.from, r.to, `${which} month`);
        }
        return which === 'this' ? labelled(`${ty}-01-01`, today, 'this year') : labelled(`${ty - 1}-01-01`, `${ty - 1}-12-31`, `in ${ty - 1}`);
      },
    ],
    [
      // "May" alone is a verb as often as a month: a month needs a preposition before it or a year after it.
      new RegExp(`\\b(?:(in|during|of|since|before|after|last)\\s+(${MONTH})(?:\\s+(${YEAR}))?|(${MONTH})\\s+(${YEAR}))\\b`),
      (m) => {
        const word = m[1];
        const name = (m[2] ?? m[4])!;
        const month = monthNames.indexOf(name);
        const given = m[3] ?? m[5];
        // Without a year: the latest such month that has begun.
        const year = given ? Number(given) : month <= tm - 1 ? ty : ty - 1;
        const r = monthRange(year, month);
        const named = `${cap(name)} ${year}`;
        if (word === 'since') return labelled(r.from, undefined, `since ${named}`);
        if (word === 'after') return labelled(addDays(r.to, 1), undefined, `after ${named}`);
        if (word === 'before') return labelled(undefined, addDays(r.from, -1), `before ${named}`);
        return labelled(r.from, r.to, `in ${named}`);
      },
    ],
    [
      // A year naming a budget or a levy ("the 2026 budget", "Fiscal Year 2026 levy") is part of
      // its name, not a date: that budget was passed in the year before.
      new RegExp(
        `\\b(?:(in|during|of|for|since|before|after|from)\\s+)?(?<!\\byear\\s)(${YEAR})\\b(?!\\s+(?:budgets?|levy|levies|appropriations?|tax|capital|bonds?)\\b)`,
      ),
      (m) => {
        const y = Number(m[2]);
        if (m[1] === 'since' || m[1] === 'from') return labelled(`${y}-01-01`, undefined, `since ${y}`);
        if (m[1] === 'after') return labelled(`${y + 1}-01-01`, undefined, `after ${y}`);
        if (m[1] === 'before') return labelled(undefined, `${y - 1}-12-31`, `before ${y}`);
        return labelled(`${y}-01-01`, `${y}-12-31`, `in ${y}`);
      },
    ],
  ];
  for (const [pattern, make] of rules) {
    const m = pattern.exec(lower);
    if (!m) continue;
    const range = make(m);
    // A phrase that looks like a date but is none ("2026-02-30") is no date at all.
    if (!range) return null;
    return { range, rest: `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}` };
  }
  return null;
}
