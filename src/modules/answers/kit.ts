// What every intent's composer works with: the question, what it names, the retrieval reads and
// the records collected so far; and the citing of each kind of record with its facts.
import type { BodyRef, MatterDetailOut, NamedPerson, Retrieval, RollCallOut } from '../public-data/index.ts';
import type { Question } from './question.ts';
import { article, outcome, personLabel, personType, type Sources } from './records.ts';
import type { Named } from './resolve.ts';
import { nameParts, sameGivenName, tokens } from './text.ts';

export interface Kit {
  q: Question;
  named: Named;
  retrieval: Retrieval;
  sources: Sources;
  /** Today in Chicago (YYYY-MM-DD). */
  today: string;
}

/** Sentences of an answer, or null when the intent finds nothing to build one from. */
export type Composer = (kit: Kit) => Promise<string[] | null>;

/** At most this many words are searched for: the last ones, where a question names its subject. */
const MAX_TERMS = 8;

/** The question's search words less the names it was found to name (people, bodies). */
export function topicTerms(kit: Kit): string[] {
  const named = new Set([...kit.named.people.map((p) => p.name), ...kit.named.bodies.map((b) => b.name)].flatMap(tokens));
  const given = kit.named.people.flatMap((p) => nameParts(p.name).given);
  // A nickname the question used for someone named ("Jim" for James) is part of the name too.
  return kit.q.terms.filter((t) => !named.has(t) && !given.some((g) => sameGivenName(g, t))).slice(-MAX_TERMS);
}

/** How many of n search words a record must hold to be about the question. */
export function wordsNeeded(n: number): number {
  return n <= 2 ? n : Math.ceil(n * 0.6);
}

/** The matters the question names by number, else the best match of its words (voted on, if asked). */
export async function mattersFor(kit: Kit, options: { voted?: boolean } = {}): Promise<MatterDetailOut[]> {
  if (kit.named.matters.length) return kit.named.matters;
  const terms = topicTerms(kit);
  if (terms.length === 0) return [];
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
  if (!best) return [];
  const detail = await kit.retrieval.matter(best.record_number);
  return detail ? [detail] : [];
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
