// An Atom 1.0 document (RFC 4287) from a feed's view model, written with xmlbuilder2 (which
// escapes every text and attribute value and drops characters XML cannot carry).
import { create } from 'xmlbuilder2';

export const ATOM_NS = 'http://www.w3.org/2005/Atom';

export interface AtomEntry {
  /** A permanent, universally unique IRI (§4.2.6): a tag URI derived from the record. */
  id: string;
  title: string;
  /**
   * RFC 3339 date-time (§3.3; §4.2.15 "the most recent instant in time when the entry was modified
   * in a way the publisher considers significant"): when the record last changed at its source
   * (a matter's latest action), never when it was loaded here, so a re-ingest that changes
   * nothing changes no entry.
   */
  updated: string;
  /** §4.2.14 "an instant in time associated with an event early in the life cycle of the entry": the record's own date (introduction, meeting, roll call). */
  published?: string;
  /** The record's page (§4.2.7.2 rel="alternate"). */
  link: string;
  summary: string;
  /** Categories (§4.2.2): the record's kind, type or status. */
  categories?: string[];
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle?: string;
  /** The feed's own URL (§4.2.7.2 rel="self") and the page it follows (rel="alternate"). */
  self: string;
  alternate: string;
  entries: AtomEntry[];
  /** When the feed has no entries: the followed record's own last change, else none is known. */
  updatedWhenEmpty?: string;
}

/** No entry and no record to date the feed by: the epoch says "nothing has changed yet". */
const NEVER = '1970-01-01T00:00:00Z';

/** RFC 3339 in UTC with seconds (§3.3 "date-time"), from an ISO timestamp or a plain date. */
export function atomDate(value: string): string {
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return `${d.toISOString().slice(0, 19)}Z`;
}

/**
 * A tag URI (RFC 4151) naming a record for ever: the deployment's host, a fixed date, and the
 * record's kind and id. Stable across requests, restarts and re-ingests of the same record.
 */
export function tagUri(host: string, specific: string): string {
  return `tag:${host},2026:${specific}`;
}

export function renderAtom(feed: AtomFeed, baseUrl: string): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' });
  const root = doc.ele(ATOM_NS, 'feed');
  root.ele('id').txt(feed.id);
  root.ele('title').txt(feed.title);
  if (feed.subtitle) root.ele('subtitle').txt(feed.subtitle);
  // §4.1.1: the feed's updated is its most recently updated entry.
  const updated = feed.entries.reduce<string | null>((max, e) => (max === null || e.updated > max ? e.updated : max), null);
  root.ele('updated').txt(updated ?? feed.updatedWhenEmpty ?? NEVER);
  // §4.1.1: a feed without authors on every entry names one.
  root.ele('author').ele('name').txt('Council Tracker').up().ele('uri').txt(baseUrl);
  root.ele('link', { rel: 'self', type: 'application/atom+xml', href: feed.self });
  root.ele('link', { rel: 'alternate', type: 'text/html', href: feed.alternate });
  root.ele('generator', { uri: baseUrl }).txt('Council Tracker');
  for (const e of feed.entries) {
    const entry = root.ele('entry');
    entry.ele('id').txt(e.id);
    entry.ele('title', { type: 'text' }).txt(e.title);
    if (e.published) entry.ele('published').txt(e.published);
    entry.ele('updated').txt(e.updated);
    entry.ele('link', { rel: 'alternate', type: 'text/html', href: e.link });
    for (const term of e.categories ?? []) entry.ele('category', { term });
    entry.ele('summary', { type: 'text' }).txt(e.summary);
  }
  return doc.end({ prettyPrint: true });
}
