// The Atom feeds the pages link with <link rel="alternate"> (served by the feeds surface, src/surfaces/feeds).
import { type Link, link } from '../model.ts';

export const feeds = {
  legislation: link('New legislation', '/feeds/matters.atom'),
  meetings: link('Meetings', '/feeds/meetings.atom'),
  personVotes: (id: string, name: string): Link => link(`Votes of ${name}`, `/feeds/people/${encodeURIComponent(id)}/votes.atom`),
  bodyActions: (id: string, name: string): Link => link(`Actions of ${name}`, `/feeds/bodies/${encodeURIComponent(id)}/actions.atom`),
  search: (q: string): Link => link(`Search: ${q}`, `/feeds/search.atom?q=${encodeURIComponent(q)}`),
};
