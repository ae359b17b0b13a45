// What every intent's composer works with: the question, what it names, the retrieval reads and
// the records collected so far; and the citing of each kind of record with its facts.
import type { BodyRef, Extent, MatterDetailOut, NamedPerson, Retrieval, RollCallOut } from '../public-data/index.ts';
import type { Question } from './question.ts';
import { article, joinList, outcome, personLabel, personType, type Sources } from './records.ts';
import type { Named } from './resolve.ts';
import { nameParts, sameGivenName, searchedAs, tokens } from './text.ts';

export interface Kit {
  q: Question;
  named: Named;
  retrieval: Retrieval;
  sources: Sources;
  /** Today in Chicago (YYYY-MM-DD). */
  today: string;
  /** What the answer must say before its sentences (how the record was read: a word left out). */
  notes: string[];
}

/** What the record holds of a source, said when the question's period lies outside it (else null). */
export function outsideRecord(kit: Kit, extent: Extent, what: string): string | null {
  const r = kit.q.range;
  if (extent.count === 0) return `The record holds no ${what}.`;
  if (!r || !extent.first || !extent.last) return null;
  if ((r.from && r.from > extent.last) || (r.to && r.to < extent.first))
    return `The record holds ${what} ${extent.first === extent.last ? `on ${extent.first}` : `from ${extent.first} to ${extent.last}`} only, so it cannot tell ${r.label}.`;
  return null;
}

/** Sentences of an answer, or null when the intent finds nothing to build one from. */
export type Composer = (kit: Kit) => Promise<string[] | null>;

/** At most this many words are searched for: the last ones, where a question names its subject. */
const MAX_TERMS = 8;

/**
 * The question's search words less the names it was found to name (people, and bodies unless
 * `bodies` is false: "who voted no the most on zoning?" names a past Committee on Zoning, but
 * asks about zoning).
 */
export function topicTerms(kit: Kit, options: { bodies?: boolean } = {}): string[] {
  const bodies = options.bodies === false ? [] : kit.named.bodies;
  const named = new Set([...kit.named.people.map((p) => p.name), ...bodies.map((b) => b.name)].flatMap(tokens));
  const given = kit.named.people.flatMap((p) => nameParts(p.name).given);
  // A nickname the question used for someone named ("Jim" for James) is part of the name too.
  return kit.q.terms.filter((t) => !named.has(t) && !given.some((g) => sameGivenName(g, t))).slice(-MAX_TERMS);
}

/** How many of n search words a record must hold to be about the question. */
export function wordsNeeded(n: number): number {
  return n <= 2 ? n : Math.ceil(n * 0.6);
}

/** The subject words a count is narrowed to ("settlements"), searched as the record's words; null when there are none. */
export function wordsHeld(subject: readonly string[]): { words: string[]; k: number } | null {
  const words = searchedAs(subject);
  return words.length ? { words, k: wordsNeeded(words.length) } : null;
}

/** The matters the question names by number, else the best match of its words (voted on, if asked). */
export async function mattersFor(kit: Kit, options: { voted?: boolean } = {}): Promise<MatterDetailOut[]> {
  if (kit.named.matters.length) return kit.named.matters;
  const terms = searchedAs(topicTerms(kit));
  if (terms.length === 0) return [];
  const found = await bestMatter(kit, terms, options);
  if (found || terms.length < 2) return found ? [found] : [];
  // No matter holds enough of the words. When each of them is in the record, its commonest words
  // are the least telling ("the ban on fur sales": "fur" is in one title, which says neither "ban"
  // nor "sales"): they are left out, commonest first, until a matter matches the rest, and the
  // answer says which were left out. A word no matter holds ("the unicorn ban") means the record
  // lacks the subject: nothing.
  const counts = await kit.retrieval.matterWordCounts(terms);
  if (terms.some((t) => !counts.get(t))) return [];
  const byCount = [...terms].sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0));
  for (let left = 1; left < terms.length; left++) {
    const out = byCount.slice(0, left);
    const closest = await bestMatter(
      kit,
      terms.filter((t) => !out.includes(t)),
      options,
    );
    if (!closest) continue;
    const words = out.map((t) => {
      const [word, other] = t.split('|');
      return other ? `“${word}” (or “${other}”)` : `“${word}”`;
    });
    kit.notes.push(`No matter's title holds enough of the question's words; the closest leaves out ${joinList(words)}.`);
    return [closest];
  }
  return [];
}

/** The best match of the words among the matters (voted on first, if asked), with its detail. */
async function bestMatter(kit: Kit, terms: readonly string[], options: { voted?: boolean }): Promise<MatterDetailOut | null> {
  const needed = wordsNeeded(terms.length);
  const matching = async (range: Kit['q']['range'], votedOnly: boolean) =>
    (await kit.retrieval.mattersMatching(terms, needed, range ?? {}, 20, votedOnly)).filter((m) => m.matched >= needed);
  // A question about a vote means a matter voted on: the best match among those first (the best
  // of every match may be one of many like it never voted on: "the budget" of a service area).
  // A date in the question may be about the vote, not the introduction: then without it.
  const tries: [Kit['q']['range'], boolean][] = [
    [kit.q.range, true],
    [kit.q.range, false],
  ];
  if (kit.q.range) tries.push([null, true], [null, false]);
  let hits: Awaited<ReturnType<typeof matching>> = [];
  for (const [range, votedOnly] of tries) {
    if (votedOnly && !options.voted) continue;
    hits = await matching(range, votedOnly);
    if (hits.length) break;
  }
  const best = (options.voted ? hits.filter((m) => m.voted) : hits)[0] ?? hits[0];
  return best ? kit.retrieval.matter(best.record_number) : null;
}

const quote = (title: string, max = 120) => `“${title.length > max ? `${title.slice(0, max - 1).trimEnd()}…` : title}”`;
export { quote };

export function citeMatter(kit: Kit, m: Pick<MatterDetailOut, 'recordNumber' | 'title' | 'type'> & Partial<MatterDetailOut>, extra: string[] = []) {
  const facts = [`${m.recordNumber} is ${article(m.type.toLowerCase())}: ${quote(m.title, 400)}.`];
  if (m.introductionDate) facts.push(`Introduced ${m.introductionDate}.`);
  if (m.status) facts.push(`Status: ${m.status}${m.finalActionDate ? ` (final action ${m.finalActionDate})` : ''}.`);
  return kit.sources.add('matter', m.recordNumber, `${m.recordNumber}: ${m.title}`, [...facts, ...extra]);
}

export function citePerson(kit: Kit, p: Pick<NamedPerson, 'id' | 'name' | 'kind' | 'ward'>, extra: string[] = []) {
  const role = p.kind === 'alderperson' ? `Alderperson${p.ward ? ` of Ward ${p.ward}` : ''}` : p.kind === 'lobbyist' ? 'Registered lobbyist' : 'City official';
  return kit.sources.add(personType(p.kind), p.id, p.name, [`${personLabel(p)}: ${role}.`, ...extra]);
}

export function citeBody(kit: Kit, b: Pick<BodyRef, 'id' | 'name'>, extra: string[] = []) {
  return kit.sources.add('body', b.id, b.name, extra);
}

/** A roll call's tallies as a fact ("Yea 46, Nay 3, Absent 1"). */
export function tallies(rc: Pick<RollCallOut, 'tallies'>): string {
  const t = rc.tallies;
  const parts: [string, number][] = [
    ['Yea', t.yea],
    ['Nay', t.nay],
    ['Absent', t.absent],
    ['Not Voting', t.notVoting],
    ['Present', t.present],
    ['Recused', t.recused],
    ['Vacant', t.vacant],
  ];
  return parts
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

export function citeRollCall(kit: Kit, rc: RollCallOut, recordNumber: string | null, extra: string[] = []) {
  const about = recordNumber ?? 'a matter';
  const title = `Roll call on ${about}, ${rc.date}: ${rc.actionName} ${rc.tallies.yea}–${rc.tallies.nay}`;
  return kit.sources.add('roll_call', rc.id, title, [
    `Roll call of ${rc.date} on ${about}: ${outcome(rc.actionName, rc.tallies.yea, rc.tallies.nay)} (${tallies(rc)}).`,
    ...extra,
  ]);
}

/** The body's name from its id, among all bodies. */
export function bodyName(kit: Kit, bodyId: string | null): string | null {
  return bodyId ? (kit.named.allBodies.find((b) => b.id === bodyId)?.name ?? null) : null;
}
