// City of Chicago lobbyist disclosure rows (Board of Ethics datasets on the data portal) → rows.
import { createHash } from 'node:crypto';
import { type CsvRow, cell, isoDate, money } from './csv.ts';
import type { Row } from './store.ts';

export const LOBBYING = 'lobbying';

export interface Dataset {
  key: string;
  /** File names of the portal's CSV export (what --from reads): the export's name has changed over the years. */
  files: readonly string[];
  /** Socrata dataset id (what the live API reads). */
  id: string;
  /** The column holding a record's own id (disclosure datasets). */
  record?: string;
}

// Order matters: people and organisations before the records that point at them.
export const DATASETS: Dataset[] = [
  { key: 'lobbyists', files: ['Lobbyist_Data_-_Lobbyists.csv', 'Lobbyists.csv'], id: 'tq3e-t5yq' },
  { key: 'employers', files: ['Lobbyist_Data_-_Employers.csv', 'Employers.csv'], id: '94gr-m4gv' },
  { key: 'clients', files: ['Lobbyist_Data_-_Clients.csv', 'Clients.csv'], id: 'g8p5-y4m5' },
  {
    key: 'combinations',
    files: ['Lobbyist_Data_-_Lobbyist__Employer__Client_Combinations.csv', 'Lobbyist_Employer_Client_Combinations.csv'],
    id: '2eqz-3nvz',
  },
  { key: 'compensation', files: ['Lobbyist_Data_-_Compensation.csv', 'Compensation.csv'], id: 'dw2f-w78u', record: 'COMPENSATION_ID' },
  { key: 'expenditures-large', files: ['Lobbyist_Data_-_Expenditures_-_Large.csv', 'Expenditures_Large.csv'], id: 'xika-473c', record: 'EXPENDITURE_ID' },
  { key: 'expenditures-small', files: ['Lobbyist_Data_-_Expenditures_-_Small.csv', 'Expenditures_Small.csv'], id: 'eqdx-4qxd', record: 'COMPENSATION_ID' },
  {
    key: 'expenditures-hosting',
    files: ['Lobbyist_Data_-_Expenditures_-_Hosting.csv', 'Expenditures_Hosting.csv'],
    id: 'pvm2-bd2i',
    record: 'EXPENDITUREOTHER_ID',
  },
  { key: 'contributions', files: ['Lobbyist_Data_-_Contributions.csv', 'Contributions.csv'], id: 'p9p7-vfqc', record: 'CONTRIBUTION_ID' },
  { key: 'gifts', files: ['Lobbyist_Data_-_Gifts.csv', 'Gifts.csv'], id: '5d79-9xqr', record: 'GIFT_ID' },
  { key: 'activity', files: ['Lobbyist_Data_-_Lobbying_Activity.csv', 'Lobbying_Activity.csv'], id: 'pahz-egmi', record: 'LOBBYING_ACTIVITY_ID' },
];

/**
 * The numbering a row's ids belong to. The City renumbered the lobbying datasets' ids in its 2020
 * deduplication (Open Data Portal blog, 2020-02-27): the same LOBBYIST_ID names a different person
 * before and after. Organisation and record ids of the two eras do not overlap (the new ones are
 * large integers), so they keep their ids; a lobbyist of the legacy numbering is
 * `lobbyist-legacy-<id>` unless reconciled by name (lobbying-eras.ts). Legacy rows keep
 * `legacy:<id>` as their source id, so each era's keys stay apart in (source, source_id).
 */
export interface Era {
  legacy: boolean;
  /** The lobbyist's id here for a LOBBYIST_ID of this export. */
  lobbyist(raw: string): string;
}

export const CURRENT_ERA: Era = { legacy: false, lobbyist: (raw) => `lobbyist-${raw}` };

/** What mapping a disclosure row needs besides the row. */
export interface RowContext {
  url: string;
  era: Era;
  /** Record ids the export gives to more than one (different) row: those rows are told apart by a hash of their fields. */
  repeated: ReadonlySet<string>;
  /** The alderperson a recipient's name designates, if exactly one (contributions, gifts). */
  recipient: (name: string) => string | null;
}

/** A record's own id in the export, told apart by a hash of the row where the export repeats it. */
function recordKey(r: CsvRow, at: RowContext, ...columns: string[]): string | null {
  const raw = cell(r, ...columns);
  return raw && at.repeated.has(raw) ? `${raw}-${rowHash(r)}` : raw;
}

const provenance = (id: string, sourceId: string, url: string, era: Era = CURRENT_ERA) => ({
  id,
  source: LOBBYING,
  source_id: era.legacy ? `legacy:${sourceId}` : sourceId,
  source_url: url,
});

export const lobbyistId = (raw: string) => `lobbyist-${raw}`;
export const employerId = (raw: string) => `employer-${raw}`;
export const clientId = (raw: string) => `client-${raw}`;

function joinName(...parts: Array<string | null>): string {
  return parts.filter(Boolean).join(' ').replace(/\s+/g, ' ').trim();
}

/** A lobbyist as a person, from the Lobbyists dataset or from the name columns of another one. */
export function lobbyistRow(r: CsvRow, url: string, currentYear: number, era: Era = CURRENT_ERA): Row | null {
  const raw = cell(r, 'LOBBYIST_ID');
  // Gifts and hosting expenditures write LOBBYIST_FIRSTNAME / LOBBYIST_LASTNAME.
  const first = cell(r, 'FIRST_NAME', 'LOBBYIST_FIRST_NAME', 'LOBBYIST_FIRSTNAME');
  const last = cell(r, 'LAST_NAME', 'LOBBYIST_LAST_NAME', 'LOBBYIST_LASTNAME');
  if (!raw || !(first || last)) return null;
  const middle = cell(r, 'MIDDLE_INITIAL', 'LOBBYIST_MIDDLE_INITIAL');
  const suffix = cell(r, 'SUFFIX', 'LOBBYIST_SUFFIX');
  const year = Number(cell(r, 'YEAR') ?? Number.NaN);
  const address = joinName(cell(r, 'ADDRESS_1'), cell(r, 'ADDRESS_2'), cell(r, 'CITY'), cell(r, 'STATE'), cell(r, 'ZIP'));
  return {
    ...provenance(era.lobbyist(raw), raw, url, era),
    name: joinName(first, middle, last, suffix),
    sort_name: `${joinName(last, suffix)}, ${joinName(first, middle)}`,
    given_name: first,
    family_name: last,
    kind: 'lobbyist',
    ward: null,
    // Registrations are yearly; a lobbyist registered this year or last is a current one.
    current: Number.isFinite(year) && year >= currentYear - 1,
    email: cell(r, 'EMAIL'),
    phone: cell(r, 'PHONE'),
    website: null,
    photo_url: null,
    address: address || null,
    organization: cell(r, 'EMPLOYER_NAME'),
  };
}

/** Employers and clients: one row per registration year in the source, one record here. */
export function organisationRows(rows: CsvRow[], kind: 'employer' | 'client', url: string, era: Era = CURRENT_ERA): Row[] {
  const idCol = kind === 'employer' ? 'EMPLOYER_ID' : 'CLIENT_ID';
  const byId = new Map<string, { row: CsvRow; years: Set<number>; latest: number }>();
  for (const r of rows) {
    const raw = cell(r, idCol);
    if (!raw || !cell(r, 'NAME')) continue;
    const year = Number(cell(r, 'YEAR') ?? Number.NaN);
    const entry = byId.get(raw) ?? { row: r, years: new Set<number>(), latest: Number.NEGATIVE_INFINITY };
    if (Number.isInteger(year)) entry.years.add(year);
    // The latest registration's address and name describe the organisation now.
    if ((Number.isInteger(year) ? year : Number.NEGATIVE_INFINITY) >= entry.latest) {
      entry.row = r;
      entry.latest = Number.isInteger(year) ? year : entry.latest;
    }
    byId.set(raw, entry);
  }
  return [...byId].map(([raw, { row, years }]) => ({
    ...provenance(kind === 'employer' ? employerId(raw) : clientId(raw), raw, url, era),
    name: cell(row, 'NAME')!,
    address: joinName(cell(row, 'ADDRESS_1'), cell(row, 'ADDRESS_2')) || null,
    city: cell(row, 'CITY'),
    state: cell(row, 'STATE'),
    zip: cell(row, 'ZIP'),
    country: cell(row, 'COUNTRY'),
    ...(kind === 'employer' ? { phone: cell(row, 'PHONE') } : {}),
    years: [...years].sort((a, b) => a - b),
  }));
}

/**
 * What every disclosure row with an amount carries: its id (as `prefix-<id>`, with provenance), its
 * lobbyist and its reporting period; null when any is missing or the amount is unreadable.
 */
function disclosure(r: CsvRow, at: RowContext, prefix: string, amountColumn: string, idColumns: string[], sourcePrefix = '') {
  const raw = recordKey(r, at, ...idColumns);
  const lobbyist = cell(r, 'LOBBYIST_ID');
  const start = isoDate(cell(r, 'PERIOD_START'));
  const end = isoDate(cell(r, 'PERIOD_END'));
  const amount = money(cell(r, amountColumn));
  if (!raw || !lobbyist || !start || !end || amount === null) return null;
  return {
    ...provenance(`${prefix}-${raw}`, `${sourcePrefix}${raw}`, at.url, at.era),
    lobbyist_id: at.era.lobbyist(lobbyist),
    period_start: start,
    period_end: end,
    amount,
  };
}

export function compensationRow(r: CsvRow, at: RowContext): Row | null {
  const base = disclosure(r, at, 'compensation', 'COMPENSATION_AMOUNT', ['COMPENSATION_ID']);
  const client = cell(r, 'CLIENT_ID');
  return base && { ...base, client_id: client ? clientId(client) : null };
}

export function expenditureRow(r: CsvRow, at: RowContext, kind: 'large' | 'small' | 'hosting'): Row | null {
  // The small-expenditures export names its id column COMPENSATION_ID, the hosting one EXPENDITUREOTHER_ID.
  const ids = ['EXPENDITURE_ID', 'COMPENSATION_ID', 'EXPENDITUREOTHER_ID'];
  const base = disclosure(r, at, `expenditure-${kind}`, kind === 'small' ? 'TOTAL_EXPENSES' : 'AMOUNT', ids, `${kind}-`);
  if (!base) return null;
  const client = cell(r, 'CLIENT_ID');
  return {
    ...base,
    client_id: client ? clientId(client) : null,
    expended_date: isoDate(cell(r, 'EXPENDITURE_DATE')),
    action: cell(r, 'ACTION'),
    purpose: kind === 'small' ? smallPurpose(r) : cell(r, 'PURPOSE'),
    // Hosting names the official it was for: "GILBERT VILLEGAS (ALDERMAN, CITY COUNCIL / ALDERMEN)".
    recipient: kind === 'hosting' ? officialNamed(r) : cell(r, 'RECIPIENT'),
    kind,
  };
}

/** A short, stable hash of a row's fields. */
function rowHash(r: CsvRow): string {
  const fields = Object.keys(r)
    .sort()
    .map((k) => `${k}=${(r[k] ?? '').trim()}`);
  return createHash('sha256').update(fields.join('\u001f')).digest('hex').slice(0, 12);
}

/** The values of `column` that more than one row carries. */
export function repeatedIds(rows: readonly CsvRow[], column: string): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const r of rows) {
    const v = cell(r, column);
    if (!v) continue;
    if (seen.has(v)) twice.add(v);
    else seen.add(v);
  }
  return twice;
}

/** The official a gift or hosting row names, with title and department as published. */
function officialNamed(r: CsvRow): string | null {
  const name = joinName(cell(r, 'RECIPIENT_FIRST_NAME'), cell(r, 'RECIPIENT_LAST_NAME'));
  const about = [cell(r, 'RECIPIENT_TITLE'), cell(r, 'DEPARTMENT')].filter(Boolean).join(', ');
  return name ? `${name}${about ? ` (${about})` : ''}` : null;
}

/**
 * A gift a lobbyist reported. `recipient_person_id` links an alderperson: only when the row says the
 * recipient is one (department City Council, or an "ALD…" title) and exactly one fits the name.
 */
export function giftRow(r: CsvRow, at: RowContext): Row | null {
  const base = disclosure(r, at, 'gift', 'VALUE', ['GIFT_ID']);
  const recipient = joinName(cell(r, 'RECIPIENT_FIRST_NAME'), cell(r, 'RECIPIENT_LAST_NAME'));
  if (!base || !recipient) return null;
  const title = cell(r, 'RECIPIENT_TITLE');
  const department = cell(r, 'DEPARTMENT');
  const council = /city council/i.test(department ?? '') || /^ald/i.test(title ?? '');
  return {
    ...base,
    description: cell(r, 'GIFT'),
    recipient,
    recipient_title: title,
    department,
    recipient_person_id: council ? at.recipient(recipient) : null,
  };
}

/** The small-expenditure categories with a non-zero amount, e.g. "Office 35.34; Other 12.00". */
function smallPurpose(r: CsvRow): string | null {
  const parts = [
    ['Compensation to others', 'COMPENSATION_TO_OTHERS_EXPENSE'],
    ['Office', 'OFFICE_EXPENSE'],
    ['Personal sustenance', 'PERSONAL_SUSTENANCE_EXPENSE'],
    ['Public education', 'PUBLIC_EDUCATION_EXPENSE'],
    ['Other', 'OTHER_EXPENSES'],
  ]
    .map(([label, col]) => [label, money(cell(r, col!))] as const)
    .filter(([, v]) => v !== null && Number(v) !== 0)
    .map(([label, v]) => `${label} ${v}`);
  return parts.length ? parts.join('; ') : null;
}

export function contributionRow(r: CsvRow, at: RowContext): Row | null {
  const base = disclosure(r, at, 'contribution', 'AMOUNT', ['CONTRIBUTION_ID']);
  const recipient = cell(r, 'RECIPIENT');
  if (!base || !recipient) return null;
  return { ...base, contribution_date: isoDate(cell(r, 'CONTRIBUTION_DATE')), recipient, recipient_person_id: at.recipient(recipient) };
}

export function activityRow(r: CsvRow, at: RowContext): Row | null {
  const { url, era } = at;
  const raw = recordKey(r, at, 'LOBBYING_ACTIVITY_ID');
  const lobbyist = cell(r, 'LOBBYIST_ID');
  if (!raw || !lobbyist) return null;
  const client = cell(r, 'CLIENT_ID');
  return {
    ...provenance(`activity-${raw}`, raw, url, era),
    lobbyist_id: era.lobbyist(lobbyist),
    client_id: client ? clientId(client) : null,
    period_start: isoDate(cell(r, 'PERIOD_START')),
    period_end: isoDate(cell(r, 'PERIOD_END')),
    action: cell(r, 'ACTION'),
    action_sought: cell(r, 'ACTION_SOUGHT'),
    department: cell(r, 'DEPARTMENT'),
  };
}
