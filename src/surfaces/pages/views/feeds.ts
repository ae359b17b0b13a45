// The Atom feeds the pages link with <link rel="alternate"> (served by the feeds surface).
import { link, type Link } from '../model.ts';

export const feeds = {
  legislation: link('New legislation', '/feeds/legislation'),
  meetings: link('Meetings', '/feeds/meetings'),
  personVotes: (id: string, name: string): Link => link(`Votes of ${name}`, `/feeds/people/${encodeURIComponent(id)}/votes`),
  bodyActions: (id: string, name: string): Link => link(`Actions of ${name}`, `/feeds/bodies/${encodeURIComponent(id)}/actions`),
  search: (q: string): Link => link(`Search: ${q}`, `/feeds/search?q=${encodeURIComponent(q)}`),
};
