// City of Chicago lobbyist disclosure rows (Board of Ethics datasets on the data portal) → rows.
import { type CsvRow, cell, isoDate, money } from './csv.ts';
import type { Row } from './store.ts';

export const LOBBYING = 'lobbying';

export interface Dataset {
  key: string;
  /** File name of the portal's CSV export (what --from reads). */
  file: string;
  /** Socrata dataset id (what the live API reads). */
  id: string;
}

// Order matters: people and organisations before the records that point at them.
export const DATASETS: Dataset[] = [
  { key: 'lobbyists', file: 'Lobbyist_Data_-_Lobbyists.csv', id: 'tq3e-t5yq' },
  { key: 'employers', file: 'Lobbyist_Data_-_Employers.csv', id: '94gr-m4gv' },
  { key: 'clients', file: 'Lobbyist_Data_-_Clients.csv', id: 'g8p5-y4m5' },
  { key: 'combinations', file: 'Lobbyist_Data_-_Lobbyist__Employer__Client_Combinations.csv', id: '2eqz-3nvz' },
  { key: 'compensation', file: 'Lobbyist_Data_-_Compensation.csv', id: 'dw2f-w78u' },
  { key: 'expenditures-large', file: 'Lobbyist_Data_-_Expenditures_-_Large.csv', id: 'xika-473c' },
  { key: 'expenditures-small', file: 'Lobbyist_Data_-_Expenditures_-_Small.csv', id: 'eqdx-4qxd' },
  { key: 'contributions', file: 'Lobbyist_Data_-_Contributions.csv', id: 'p9p7-vfqc' },
  { key: 'activity', file: 'Lobbyist_Data_-_Lobbying_Activity.csv', id: 'pahz-egmi' },
];

const provenance = (id: string, sourceId: string, url: string) => ({ id, source: LOBBYING, source_id: sourceId, source_url: url });

export const lobbyistId = (raw: string) => `lobbyist-${raw}`;
export const employerId = (raw: string) => `employer-${raw}`;
export const clientId = (raw: string) => `client-${raw}`;

function joinName(...parts: Array<string | null>): string {
  return parts.filter(Boolean).join(' ').replace(/\s+/g, ' ').trim();
}

/** A lobbyist as a person, from the Lobbyists dataset or from the name columns of another one. */
export function lobbyistRow(r: CsvRow, url: string, currentYear: number): Row | null {
  const raw = cell(r, 'LOBBYIST_ID');
  const first = cell(r, 'FIRST_NAME', 'LOBBYIST_FIRST_NAME');
  const last = cell(r, 'LAST_NAME', 'LOBBYIST_LAST_NAME');
  if (!raw || !(first || last)) return null;
  const middle = cell(r, 'MIDDLE_INITIAL', 'LOBBYIST_MIDDLE_INITIAL');
  const suffix = cell(r, 'SUFFIX', 'LOBBYIST_SUFFIX');
  const year = Number(cell(r, 'YEAR') ?? Number.NaN);
  const address = joinName(cell(r, 'ADDRESS_1'), cell(r, 'ADDRESS_2'), cell(r, 'CITY'), cell(r, 'STATE'), cell(r, 'ZIP'));
  return {
    ...provenance(lobbyistId(raw), raw, url),
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
export function organisationRows(rows: CsvRow[], kind: 'employer' | 'client', url: string): Row[] {
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
    ...provenance(kind === 'employer' ? employerId(raw) : clientId(raw), raw, url),
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

export function compensationRow(r: CsvRow, url: string): Row | null {
  const raw = cell(r, 'COMPENSATION_ID');
  const lobbyist = cell(r, 'LOBBYIST_ID');
  const start = isoDate(cell(r, 'PERIOD_START'));
  const end = isoDate(cell(r, 'PERIOD_END'));
  const amount = money(cell(r, 'COMPENSATION_AMOUNT'));
  if (!raw || !lobbyist || !start || !end || amount === null) return null;
  const client = cell(r, 'CLIENT_ID');
  return {
    ...provenance(`compensation-${raw}`, raw, url),
    lobbyist_id: lobbyistId(lobbyist),
    client_id: client ? clientId(client) : null,
    period_start: start,
    period_end: end,
    amount,
  };
}

export function expenditureRow(r: CsvRow, url: string, kind: 'large' | 'small'): Row | null {
  // The small-expenditures export names its id column COMPENSATION_ID.
  const raw = cell(r, 'EXPENDITURE_ID', 'COMPENSATION_ID');
  const lobbyist = cell(r, 'LOBBYIST_ID');
  const start = isoDate(cell(r, 'PERIOD_START'));
  const end = isoDate(cell(r, 'PERIOD_END'));
  const amount = money(kind === 'large' ? cell(r, 'AMOUNT') : cell(r, 'TOTAL_EXPENSES'));
  if (!raw || !lobbyist || !start || !end || amount === null) return null;
  const client = cell(r, 'CLIENT_ID');
  return {
    ...provenance(`expenditure-${kind}-${raw}`, `${kind}-${raw}`, url),
    lobbyist_id: lobbyistId(lobbyist),
    client_id: client ? clientId(client) : null,
    period_start: start,
    period_end: end,
    expended_date: isoDate(cell(r, 'EXPENDITURE_DATE')),
    amount,
    action: cell(r, 'ACTION'),
    purpose: kind === 'large' ? cell(r, 'PURPOSE') : smallPurpose(r),
    recipient: cell(r, 'RECIPIENT'),
    kind,
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

export function contributionRow(r: CsvRow, url: string, recipientPersonId: (recipient: string) => string | null): Row | null {
  const raw = cell(r, 'CONTRIBUTION_ID');
  const lobbyist = cell(r, 'LOBBYIST_ID');
  const start = isoDate(cell(r, 'PERIOD_START'));
  const end = isoDate(cell(r, 'PERIOD_END'));
  const amount = money(cell(r, 'AMOUNT'));
  const recipient = cell(r, 'RECIPIENT');
  if (!raw || !lobbyist || !start || !end || amount === null || !recipient) return null;
  return {
    ...provenance(`contribution-${raw}`, raw, url),
    lobbyist_id: lobbyistId(lobbyist),
    period_start: start,
    period_end: end,
    contribution_date: isoDate(cell(r, 'CONTRIBUTION_DATE')),
    recipient,
    recipient_person_id: recipientPersonId(recipient),
    amount,
  };
}

export function activityRow(r: CsvRow, url: string): Row | null {
  const raw = cell(r, 'LOBBYING_ACTIVITY_ID');
  const lobbyist = cell(r, 'LOBBYIST_ID');
  if (!raw || !lobbyist) return null;
  const client = cell(r, 'CLIENT_ID');
  return {
    ...provenance(`activity-${raw}`, raw, url),
    lobbyist_id: lobbyistId(lobbyist),
    client_id: client ? clientId(client) : null,
    period_start: isoDate(cell(r, 'PERIOD_START')),
    period_end: isoDate(cell(r, 'PERIOD_END')),
    action: cell(r, 'ACTION'),
    action_sought: cell(r, 'ACTION_SOUGHT'),
    department: cell(r, 'DEPARTMENT'),
  };
}
