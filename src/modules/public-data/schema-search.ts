// Search across matters, people, meetings, bodies and lobbying organisations.
import { type Static, Type } from 'typebox';
import { ListQuery, MAX_Q, NullableString } from './schema-common.ts';

export const searchTypes = ['matter', 'person', 'meeting', 'body', 'lobbying_client', 'lobbying_employer'] as const;

export const SearchQuery = ListQuery({
  q: Type.String({
    minLength: 1,
    maxLength: MAX_Q,
    description: `What to look for (web search syntax; a record number finds that matter first). At most ${MAX_Q} characters.`,
  }),
  type: Type.Optional(Type.Enum([...searchTypes], { description: 'Only results of this type.' })),
});

export const SearchResult = Type.Object({
  type: Type.Enum([...searchTypes]),
  id: Type.String(),
  title: Type.String(),
  subtitle: NullableString('Record number, kind, body or city, depending on the type.'),
  date: NullableString('Introduction date of a matter, start of a meeting.'),
  path: Type.String({ description: 'Where to read the record in this API, e.g. /matters/O2023-0001234.' }),
  rank: Type.Number({ description: 'Relevance; higher is better.' }),
  updatedAt: Type.String({ format: 'date-time', description: 'When this record last changed here.' }),
});

export type SearchInput = Static<typeof SearchQuery>;
export type SearchResultOut = Static<typeof SearchResult>;
