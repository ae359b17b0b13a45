// The home page: what the service is, the latest meetings, newly introduced legislation, recent
// roll calls, each source's freshness, search, sign in, and links for developers and agents.
import { day, latest, link, list, type PageModel, paragraph, section, table } from '../model.ts';
import type { PageDef, Reader } from '../page-route.ts';
import { feeds } from './feeds.ts';
import { tallyLine } from './matters.ts';
import { meetingLink } from './meetings.ts';
import { wardFigure } from './ward-figure.ts';

const enc = encodeURIComponent;
const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—');

async function homePage(read: Reader): Promise<PageModel> {
  const [meetings, matters, rollCalls, sources, map] = await Promise.all([
    read('meetings.list', { limit: 8, sort: '-date' }),
    read('matters.list', { limit: 8, sort: '-introduced' }),
    read('roll-calls.list', { limit: 8, sort: '-date' }),
    read('sources.read', {}),
    wardFigure(read),
  ]);
  return {
    title: 'Chicago City Council, in the open',
    description: 'Legislation, votes, meetings, alderpersons, campaign money and lobbying of the Chicago City Council, from the public record.',
    path: '/',
    updatedAt: latest(...meetings.data.map((m) => m.updatedAt), ...matters.data.map((m) => m.updatedAt), ...rollCalls.data.map((r) => r.updatedAt)),
    feeds: [feeds.legislation, feeds.meetings],
    figure: map,
    blocks: [
      paragraph(
        'Council Tracker follows the Chicago City Council and publishes its public record: legislation, roll-call votes, meetings, alderpersons, campaign money and lobbying, from the City Clerk, the Board of Ethics and the Illinois State Board of Elections.',
      ),
      {
        kind: 'form',
        action: '/search',
        label: 'Search',
        fields: [{ name: 'q', label: 'Search legislation, people, meetings and more', value: '', type: 'search' }],
      },
      section('Latest meetings', [
        table(
          'Latest meetings',
          ['Meeting', 'Status'],
          meetings.data.map((m) => [meetingLink(m), m.status]),
          'No meetings yet.',
        ),
        paragraph(link('All meetings', '/meetings')),
      ]),
      section('Newly introduced legislation', [
        table(
          'Newly introduced legislation',
          ['Record', 'Title', 'Introduced'],
          matters.data.map((m) => [link(m.recordNumber, `/matters/${enc(m.recordNumber)}`), m.title, day(m.introductionDate)]),
          'No legislation yet.',
        ),
        paragraph(link('All legislation', '/matters')),
      ]),
      section('Recent roll calls', [
        table(
          'Recent roll calls',
          ['Date', 'Matter', 'Action', 'Yea–Nay'],
          rollCalls.data.map((r) => [
            r.date,
            r.recordNumber ? link(r.recordNumber, `/matters/${enc(r.recordNumber)}`) : '—',
            link(r.actionName, `/roll-calls/${enc(r.id)}`),
            tallyLine(r.tallies),
          ]),
          'No roll calls yet.',
        ),
      ]),
      section('Freshness of the sources', [
        table(
          'When each source was last synced',
          ['Source', 'Last success', 'Last error'],
          sources.data.map((s) => [
            s.source,
            // A sync started after the last success is under way (the sample loads while the site serves).
            s.lastStartedAt && [s.lastSuccessAt, s.lastErrorAt].every((t) => !t || s.lastStartedAt! > t)
              ? `syncing since ${when(s.lastStartedAt)}${s.lastSuccessAt ? ` (last success ${when(s.lastSuccessAt)})` : ''}`
              : when(s.lastSuccessAt),
            s.lastError ? `${when(s.lastErrorAt)}: ${s.lastError}` : '—',
          ]),
          'No source has been synced yet.',
        ),
      ]),
      section('For developers and agents', [
        list([
          [
            link('API documentation', '/docs'),
            ' (JSON API v1 and v2; ',
            link('v1 OpenAPI', '/api/openapi.json'),
            ', ',
            link('v2 OpenAPI', '/api/v2/openapi.json'),
            ')',
          ],
          [link('llms.txt', '/llms.txt'), ': the guide for AI agents, and ', link('how an agent gets a credential', '/auth.md')],
          ['Every page has a Markdown variant: add ', '.md', ' to its address (this one is ', link('/index.md', '/index.md'), ')'],
          ['Atom feeds: ', link('new legislation', feeds.legislation.href), ', ', link('meetings', feeds.meetings.href)],
          [link('Sign in', '/signin'), ' to make an API key and follow records'],
        ]),
      ]),
    ],
  };
}

// The sources' freshness is read live on every request, so the home page is not kept in memory.
export const homePages: PageDef[] = [{ path: '/', keep: false, build: (read) => homePage(read) }];
