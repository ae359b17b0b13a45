// The records a question names: people (by name, family name or nickname), bodies (the council
// or a committee) and matters (by record number), looked up through public-data's retrieval.
import type { BodyRef, MatterDetailOut, NamedPerson, Retrieval } from '../public-data/index.ts';
import type { Question } from './question.ts';
import { isEverydayWord, nameParts, nameScore, namesAnAlderperson, nameWords, tokens } from './text.ts';

export interface Named {
  people: NamedPerson[];
  bodies: BodyRef[];
  /** Every body, to name the body of a roll call or action. */
  allBodies: BodyRef[];
  matters: MatterDetailOut[];
  /** Record numbers named that the record does not hold. */
  unknownRecords: string[];
}

/**
 * People the question names. An alderperson may be named by family name alone ("Ald. Hopkins",
 * "Hopkins"), unless that name is an everyday word and nothing else says a person is meant;
 * anyone else needs a given name (or its nickname) too: a lobbyist who shares a family name with
 * a word of the question is not what it asks about.
 */
export function pickPeople(candidates: readonly NamedPerson[], words: ReadonlySet<string>): NamedPerson[] {
  const titled = namesAnAlderperson(words);
  const scored = candidates
    .map((p) => {
      const score = nameScore(p.name, words);
      const { family } = nameParts(p.name);
      const alder = p.kind === 'alderperson';
      const enough = score === 3 || (score === 2 && alder && (titled || !family.every(isEverydayWord)));
      return { p, family, all: tokens(p.name), score: enough ? score + (alder ? 0.5 : 0) + (p.current ? 0.1 : 0) : 0 };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
  const chosen: typeof scored = [];
  for (const s of scored) {
    // One person per family name; a family name inside the name of someone chosen ("Rodriguez" in
    // "Rossana Rodriguez Sanchez") is that same mention.
    // Unless the question names this one in full ("Raymond Lopez" beside "Sigcho-Lopez").
    if (chosen.some((c) => s.family.every((t) => c.all.includes(t))) && s.score < 3) continue;
    chosen.push(s);
    if (chosen.length === 5) break;
  }
  return chosen.map((c) => c.p);
}

const bodyFiller = new Set(['committee', 'committees', 'on', 'and', 'the', 'of', 'joint', 'city']);

/**
 * Bodies the question names: a committee by the words of its name ("Finance"), or by part of them
 * beside "committee" ("zoning committee"), the council by "council" (unless a committee is named); an active body before a
 * past one of the committee history.
 */
export function pickBodies(bodies: readonly BodyRef[], q: Question): BodyRef[] {
  const words = q.words;
  const scored = bodies
    .filter((b) => b.kind !== 'council')
    .map((b) => {
      const own = tokens(b.name).filter((t) => !bodyFiller.has(t));
      const hits = own.filter((t) => words.has(t)).length;
      const headNamed = own.length > 0 && words.has(own[0]!) && (words.has('committee') || own.length === 1);
      return { b, score: own.length ? hits / own.length : 0, headNamed };
    })
    // Part of a name names the body only beside "committee" ("the police committee"): "the police
    // contract" is not about the Committee on Police and Fire.
    .filter((s) => s.score === 1 || ((s.score >= 0.5 || s.headNamed) && (words.has('committee') || words.has('committees'))))
    .sort((a, b) => b.score - a.score);
  // Today's committee before one of the committee history that only shares words with it
  // ("zoning committee": the Committee on Zoning, Landmarks and Building Standards, not the
  // Committee on Zoning of the previous terms); a past body only when no active one is named.
  const today = scored.some((s) => s.b.active) ? scored.filter((s) => s.b.active) : scored;
  // A joint committee only when the question says "joint" or names no standing committee.
  const standing = words.has('joint') ? today : today.filter((s) => s.b.kind !== 'joint_committee');
  const named = standing.length ? standing : today;
  if (named.length > 0) {
    const best = named[0]!.score;
    return named.filter((s) => s.score === best).map((s) => s.b);
  }
  if (words.has('council') || words.has('aldermen') || words.has('alderpersons')) return bodies.filter((b) => b.kind === 'council');
  return [];
}

export async function resolve(q: Question, retrieval: Retrieval): Promise<Named> {
  const [candidates, bodies, matters, wardAlders] = await Promise.all([
    retrieval.peopleNamed(nameWords(q.words)),
    retrieval.bodies(),
    Promise.all(q.records.map(async (r) => ({ record: r, matter: await retrieval.matter(r) }))),
    // "The 1st Ward alderperson" names the ward's current alderperson (except when asking who that is).
    q.intent === 'representative' ? [] : Promise.all(q.wards.map((w) => retrieval.aldersOfWard(w))),
  ]);
  const named = pickPeople(candidates, q.words);
  const byWard = wardAlders.flatMap((list) => list.filter((p) => p.current).slice(0, 1)).filter((p) => !named.some((n) => n.id === p.id));
  return {
    people: [...named, ...byWard],
    // "X's committee" in a question about money is a campaign committee, not a council body.
    bodies: q.intent === 'donors' || q.intent === 'money' ? [] : pickBodies(bodies, q),
    allBodies: bodies,
    matters: matters.flatMap((m) => (m.matter ? [m.matter] : [])),
    unknownRecords: matters.filter((m) => !m.matter).map((m) => m.record),
  };
}
