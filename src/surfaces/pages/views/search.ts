// Search across every kind of record, with filters: kind, dates, status and body. Legislation and
// meetings are filtered by their own list operations; the other kinds by the ranked search.
import { type Static, Type } from 'typebox';
import { AppError } from '../../../kernel/errors.ts';
import { MAX_Q } from '../../../modules/public-data/schema-common.ts';
import { searchTypes } from '../../../modules/public-data/schema-search.ts';
import { type Block, chicagoTime, day, link, type PageModel, paragraph, table, withQuery } from '../model.ts';
import type { PageDef, Reader } from '../page-route.ts';
import { bodyKinds } from './bodies.ts';
import { feeds } from './feeds.ts';
import { kindLabel } from './people.ts';

const kindLabels: Record<(typeof searchTypes)[number], string> = {
  matter: 'Legislation',
  person: 'People',
  meeting: 'Meetings',
  body: 'Committees',
  lobbying_client: 'Lobbying clients',
  lobbying_employer: 'Lobbying employers',
};

export const SearchPageQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_Q })),
    kind: Type.Optional(Type.Enum([...searchTypes])),
    from: Type.Optional(Type.String({ format: 'date' })),
    to: Type.Optional(Type.String({ format: 'date' })),
    status: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    body: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
);
type Query = Static<typeof SearchPageQuery>;

interface Results {
  rows: (readonly (string | ReturnType<typeof link>)[])[];
  next: string | null;
}

async function results(read: Reader, q: Query): Promise<Results | null> {
  const filtered = q.from !== undefined || q.to !== undefined || q.status !== undefined || q.body !== undefined;
  const kind = q.kind ?? (filtered ? 'matter' : undefined);
  const page = <T>(p: { meta: { nextCursor: string | null } }, rows: T[]) => ({
    rows,
    next: p.meta.nextCursor ? withQuery('/search', { ...q, cursor: p.meta.nextCursor }) : null,
  });
  if (kind === 'matter' && (q.q !== undefined || filtered)) {
    const p = await read('matters.list', {
      q: q.q,
      status: q.status,
      body: q.body,
      introduced_from: q.from,
      introduced_to: q.to,
      cursor: q.cursor,
      limit: 50,
    } as never);
    return page(
      p,
      p.data.map((m) => [
        kindLabels.matter,
        link(`${m.recordNumber}: ${m.title}`, `/matters/${encodeURIComponent(m.recordNumber)}`),
        m.status ?? '—',
        day(m.introductionDate),
      ]),
    );
  }
  if (kind === 'meeting' && (q.q !== undefined || filtered)) {
    if (q.status !== undefined) throw new AppError('invalid_request', 'The status filter applies to legislation (kind=matter).');
    const p = await read('meetings.list', { q: q.q, body: q.body, from: q.from, to: q.to, cursor: q.cursor, limit: 50 } as never);
    return page(
      p,
      p.data.map((m) => [
        kindLabels.meeting,
        link(`${m.bodyName}, ${chicagoTime(m.startTime)}`, `/meetings/${encodeURIComponent(m.id)}`),
        m.status,
        day(m.startTime),
      ]),
    );
  }
  if (filtered) throw new AppError('invalid_request', 'Date, status and body filters apply to legislation (kind=matter) and meetings (kind=meeting).');
  if (q.q === undefined) return null;
  const p = await read('search.read', { q: q.q, type: kind, cursor: q.cursor, limit: 50 } as never);
  return page(
    p,
    p.data.map((r) => [kindLabels[r.type], link(r.title, r.path), detail(r), day(r.date)]),
  );
}

/**
 * A result's subtitle as a resident reads it: a committee's kind and a person's kind by the names
 * their own pages give them ("Joint committee", "Alderperson, ward 12"), not the API's values
 * ("joint_committee", "alderperson, ward 12"); any other subtitle as it is.
 */
function detail(r: { type: (typeof searchTypes)[number]; subtitle: string | null }): string {
  if (r.subtitle === null) return '—';
  if (r.type === 'body') return bodyKinds[r.subtitle as keyof typeof bodyKinds] ?? r.subtitle;
  if (r.type === 'person') {
    const [kind, ...rest] = r.subtitle.split(', ');
    const label = kindLabel[kind as keyof typeof kindLabel];
    return label ? [label, ...rest].join(', ') : r.subtitle;
  }
  return r.subtitle;
}

async function searchPage(read: Reader, q: Query): Promise<PageModel> {
  const found = await results(read, q);
  const form: Block = {
    kind: 'form',
    action: '/search',
    label: 'Search',
    fields: [
      { name: 'q', label: 'Words or record number', value: q.q ?? '', type: 'search' },
      { name: 'kind', label: 'Kind', value: q.kind ?? '', options: [['', 'Everything'], ...searchTypes.map((t) => [t, kindLabels[t]] as const)] },
      { name: 'from', label: 'From (legislation, meetings)', value: q.from ?? '', type: 'date' },
      { name: 'to', label: 'To', value: q.to ?? '', type: 'date' },
      { name: 'status', label: 'Status (legislation)', value: q.status ?? '' },
      { name: 'body', label: 'Body id', value: q.body ?? '' },
    ],
  };
  return {
    title: q.q ? `Search: ${q.q}` : 'Search',
    description: 'Search Chicago City Council legislation, people, meetings, committees and lobbying organisations.',
    path: withQuery('/search', q),
    updatedAt: null,
    feeds: q.q ? [feeds.search(q.q)] : [],
    blocks: [
      paragraph('Search every kind of record. Use "quoted phrases", or, and -not; a record number finds that matter first.'),
      form,
      found
        ? table('Results', ['Kind', 'Record', 'Detail', 'Date'], found.rows, 'Nothing matches.')
        : paragraph('Type some words, or choose filters, to search.'),
      { kind: 'pager', next: found?.next ?? null },
    ],
  };
}

export const searchPages: PageDef[] = [{ path: '/search', query: SearchPageQuery, build: (read, _p, q) => searchPage(read, q as Query) }];
