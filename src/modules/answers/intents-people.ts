// Extractive answers about people: who gave the most to someone's campaign committee, which
// lobbyists reported contact with an official, who represents a ward, and who a person is.
import type { NamedPerson } from '../public-data/index.ts';
import { lobbyingTotals, topContributorsOverall } from './intents-money.ts';
import { citeBody, citePerson, type Composer, type Kit } from './kit.ts';
import { dollars, joinList, personLabel } from './records.ts';
import { seniorityWords } from './question.ts';
import { nameScore, nameWords } from './text.ts';

const within = (kit: Kit) => (kit.q.range ? ` ${kit.q.range.label}` : '');

/** The person a committee is named for: "Jim Gardiner (aldermanic committee, Ward 45)" → Jim Gardiner. */
const committeePerson = (name: string) =>
  name
    .replace(/\(.*$/, '')
    .replace(/^(friends of|citizens for|committee to elect)\s+/i, '')
    .trim();

/** The people a question about a ward or by name means (a ward's alderperson when it names a ward). */
export async function peopleMeant(kit: Kit): Promise<NamedPerson[]> {
  if (kit.named.people.length) return kit.named.people;
  const byWard = await Promise.all(kit.q.wards.map((w) => kit.retrieval.aldersOfWard(w)));
  return byWard.flatMap((list) => list.filter((p) => p.current).slice(0, 1));
}

/** The largest contributors to the campaign committees of the people named. */
/** The campaign committees a question means: the people's own, else those named for someone it names ("Ed Burke's"). */
export async function committeesMeant(kit: Kit, people: readonly NamedPerson[]) {
  const found = await kit.retrieval.committeesFor(
    people.map((p) => p.id),
    nameWords(kit.q.words),
  );
  const own = found.filter((c) => c.person_id && people.some((p) => p.id === c.person_id));
  return own.length ? own : found.filter((c) => nameScore(committeePerson(c.name), kit.q.words) >= 2 && !(c.person_id && people.length));
}

export const donors: Composer = async (kit) => {
  const people = await peopleMeant(kit);
  const committees = await committeesMeant(kit, people);
  if (committees.length === 0) {
    // Naming no one: the largest contributors across every committee.
    if (people.length === 0) return topContributorsOverall(kit);
    for (const p of people) citePerson(kit, p);
    return [`The record holds no campaign committee of ${joinList(people.map(personLabel))}.`];
  }
  for (const p of people) if (committees.some((c) => c.person_id === p.id)) citePerson(kit, p);
  const out: string[] = [];
  const range = kit.q.range ?? {};
  const totals = await kit.retrieval.receiptTotals(
    committees.map((c) => c.id),
    range,
  );
  for (const c of committees.slice(0, 3)) {
    const total = totals.find((t) => t.committee_id === c.id);
    if (!total) {
      kit.sources.add('committee', c.id, c.name, [`No receipts recorded${within(kit)}.`]);
      out.push(`The record holds no contributions to ${c.name}${within(kit)}.`);
      continue;
    }
    const top = await kit.retrieval.topContributors([c.id], range, 5);
    const list = top.map((t) => `${t.contributor} (${dollars(t.total)}${t.receipts > 1 ? ` in ${t.receipts} receipts` : ''})`);
    const span = `between ${total.first} and ${total.last}`;
    kit.sources.add('committee', c.id, c.name, [
      `Receipts${within(kit)}: ${dollars(total.total)} from ${total.receipts} contributions ${span}.`,
      `Largest contributors: ${list.join('; ')}.`,
    ]);
    // "What is the largest donation X received?": the single receipts first, then the contributors' sums.
    if (singleWords.test(kit.q.text.toLowerCase())) {
      const single = await kit.retrieval.largestReceipts([c.id], range, 3);
      if (single.length) {
        const listed = joinList(single.map((r) => `${dollars(r.amount)} from ${r.contributor} on ${r.received_date}`));
        kit.sources.add('committee', c.id, c.name, [`Largest single receipts${within(kit)}: ${listed}.`]);
        out.push(`The largest single receipts of ${c.name}${within(kit)}: ${listed}.`);
      }
    }
    out.push(
      `The largest contributors to ${c.name}${within(kit)} were ${joinList(list)}. In all it received ${dollars(total.total)} from ${total.receipts} contribution${total.receipts === 1 ? '' : 's'} ${span}.`,
    );
  }
  return out;
};

/** Words asking for one receipt rather than a contributor's sum ("the largest donation", "the biggest single check"). */
const singleWords = /\b(largest|biggest|highest|single)\s+(single\s+)?(donation|contribution|check|cheque|gift|receipt)\b/;

/** Lobbyists who reported contact with an official, and lobbyists' reported contributions and gifts to them. */
export const lobbying: Composer = async (kit) => {
  const people = (await peopleMeant(kit)).filter((p) => p.kind !== 'lobbyist');
  // Naming no official: sums over the disclosures (compensation, clients, contributions).
  if (people.length === 0) return lobbyingTotals(kit);
  const range = kit.q.range ?? {};
  const out: string[] = [];
  // "What gifts did lobbyists give Ald. Reilly?" asks the gifts alone, not the contacts and contributions.
  const text = kit.q.text.toLowerCase();
  const giftsOnly = /\bgifts?\b/.test(text) && !/\b(contribut\w*|donat\w*|political|money|contact\w*|met|meet\w*)\b/.test(text);
  for (const p of people.slice(0, 2)) {
    citePerson(kit, p);
    const [contacts, gifts, presents] = await Promise.all([
      giftsOnly ? [] : kit.retrieval.lobbyistContacts(p.id, range, 10),
      giftsOnly ? [] : kit.retrieval.lobbyistContributions(p.id, range, 5),
      kit.retrieval.lobbyistGifts(p.id, range, 5),
    ]);
    if (giftsOnly) {
      if (presents.length === 0) out.push(`No lobbyist reported a gift to ${personLabel(p)}${within(kit)}.`);
    } else if (contacts.length) {
      const list = contacts.map((c) => {
        const detail = [
          `${c.reports} report${c.reports === 1 ? '' : 's'}`,
          c.clients.length ? `for ${joinList(c.clients.slice(0, 3))}` : '',
          c.sought.length ? `seeking ${c.sought.slice(0, 2).join('; ')}` : '',
        ]
          .filter(Boolean)
          .join(', ');
        kit.sources.add('lobbyist', c.lobbyist_id, c.name, [`Reported contact with ${personLabel(p)}: ${detail} (${c.first ?? '?'} to ${c.last ?? '?'}).`]);
        return `${c.name} (${detail})`;
      });
      out.push(`Lobbyists who reported contact with ${personLabel(p)}${within(kit)}: ${list.join('; ')}.`);
    } else {
      out.push(`No lobbyist's activity report in the record names ${personLabel(p)} as an official contacted${within(kit)}.`);
    }
    if (gifts.length) {
      const list = gifts.map((g) => {
        kit.sources.add('lobbyist', g.lobbyist_id, g.name, [
          `Reported ${g.contributions} political contribution${g.contributions === 1 ? '' : 's'} to ${personLabel(p)} totalling ${dollars(g.total)} (${g.first ?? '?'} to ${g.last ?? '?'}).`,
        ]);
        return `${g.name} (${dollars(g.total)} in ${g.contributions} contribution${g.contributions === 1 ? '' : 's'})`;
      });
      out.push(`Lobbyists did report political contributions to ${personLabel(p)}${within(kit)}: ${joinList(list)}.`);
    }
    if (presents.length) {
      const list = presents.map((g) => {
        const what = g.what.slice(0, 2).join('; ').toLowerCase();
        kit.sources.add('lobbyist', g.lobbyist_id, g.name, [
          `Reported ${g.gifts} gift${g.gifts === 1 ? '' : 's'} to ${personLabel(p)} valued at ${dollars(g.total)}${what ? ` (${what})` : ''}, ${g.first ?? '?'} to ${g.last ?? '?'}.`,
        ]);
        return `${g.name} (${g.gifts} gift${g.gifts === 1 ? '' : 's'}, ${dollars(g.total)}${what ? `: ${what}` : ''})`;
      });
      out.push(`Lobbyists reported gifts to ${personLabel(p)}${within(kit)}: ${joinList(list)}.`);
    }
  }
  return out;
};

/** Who represents a ward, or which ward a named alderperson represents. */
export const representative: Composer = async (kit) => {
  const out: string[] = [];
  const wards = [...kit.q.wards];
  if (kit.q.point) {
    const { lat, lon } = kit.q.point;
    const ward = kit.retrieval.wardAt(lat, lon);
    if (ward === null) return [`The point ${lat}, ${lon} is not in any Chicago ward (the boundaries of May 2023).`];
    out.push(`The point ${lat}, ${lon} is in Ward ${ward} (the boundaries of May 2023).`);
    if (!wards.includes(ward)) wards.push(ward);
  }
  for (const w of wards) {
    const alders = (await kit.retrieval.aldersOfWard(w)).filter((p) => p.current);
    if (alders.length === 0) {
      out.push(`The record holds no current alderperson for Ward ${w}.`);
      continue;
    }
    for (const p of alders) citePerson(kit, p);
    out.push(`${joinList(alders.map((p) => `Ald. ${p.name}`))} represent${alders.length === 1 ? 's' : ''} Ward ${w}.`);
  }
  if (wards.length === 0) {
    for (const p of kit.named.people.filter((x) => x.kind === 'alderperson')) {
      citePerson(kit, p);
      out.push(p.ward ? `Ald. ${p.name} represents Ward ${p.ward}.` : `The record names no ward for Ald. ${p.name}.`);
    }
  }
  // "Who is my alderperson if I live at 121 N LaSalle?": an address is not read (no geocoder), so
  // say what can tell it, rather than search the address's words.
  if (out.length === 0 && kit.q.asksOwn) {
    return [
      `Your alderperson is the one of your ward. Name the ward ("who represents ward 42?"), give your location as latitude and longitude ("41.8837, -87.6319"), or find it on the ward map at ${kit.sources.page('/wards')}; an address is not looked up.`,
    ];
  }
  return out.length ? out : null;
};

/** What an alderperson is, as the record holds them: their ward, whether serving now, since when. */
function alderRole(p: NamedPerson, started: string | undefined): string {
  const since = started ? `, ${p.current ? 'serving since' : 'first in office from'} ${started}` : '';
  if (p.ward === null) return `${p.current ? 'an alderperson' : 'a former alderperson'}${since} (the record names no ward for them)`;
  return `the alderperson of Ward ${p.ward}${p.current ? '' : ' (no longer serving)'}${since}`;
}

/** Who the people named are, with an alderperson's latest votes. */
export const profile: Composer = async (kit) => {
  const out: string[] = [];
  const people = kit.named.people.slice(0, 3);
  const since = await kit.retrieval.firstTerms(people.filter((p) => p.kind === 'alderperson').map((p) => p.id));
  for (const p of people) {
    const started = since.get(p.id);
    citePerson(kit, p, started ? [`First term for a ward from ${started}.`] : []);
    const role = p.kind === 'alderperson' ? alderRole(p, started) : p.kind === 'lobbyist' ? 'a registered lobbyist' : 'a City official';
    out.push(`${p.name} is ${role}.`);
  }
  return out.length ? out : null;
};

/**
 * "How many alderpersons are there?", "who are the aldermen?": the alderpersons the record holds
 * as serving now, counted against the 50 wards (a ward without one said), listed by ward when the
 * question asks who they are.
 */
export const members: Composer = async (kit) => {
  const alders = await kit.retrieval.currentAlders();
  if (alders.length === 0) return ['The record holds no alderperson as serving now.'];
  const council = kit.named.allBodies.find((b) => b.kind === 'council');
  const wards = new Set(alders.map((p) => p.ward).filter((w): w is number => w !== null));
  const vacant = Array.from({ length: 50 }, (_, i) => i + 1).filter((w) => !wards.has(w));
  const count = `The record holds ${alders.length} alderperson${alders.length === 1 ? '' : 's'} serving now${council ? ` on the ${council.name}` : ''}, one elected from each of Chicago's 50 wards`;
  const gaps = vacant.length ? `; it holds none for Ward${vacant.length === 1 ? '' : 's'} ${joinList(vacant.map(String))}` : '';
  if (council) citeBody(kit, council, [`${alders.length} alderpersons serving now.`]);
  if (seniorityWords.test(kit.q.text.toLowerCase())) return seniority(kit, alders);
  if (!/^\s*(who|list|name)\b/i.test(kit.q.text)) return [`${count}${gaps}.`];
  for (const p of alders) citePerson(kit, p);
  return [`${count}${gaps}: ${alders.map((p) => `Ward ${p.ward ?? '?'}, ${p.name}`).join('; ')}.`];
};

/** At most this many alderpersons are named by seniority. */
const SENIORITY_LISTED = 5;

/**
 * "Who is the longest serving alderman?" (or the newest): the alderpersons serving now, ranked by
 * the start of their first term for a ward, as the record holds their terms.
 */
async function seniority(kit: Kit, alders: readonly NamedPerson[]): Promise<string[]> {
  const since = await kit.retrieval.firstTerms(alders.map((p) => p.id));
  const dated = alders.flatMap((p) => {
    const started = since.get(p.id);
    return started ? [{ ...p, since: started }] : [];
  });
  if (dated.length === 0)
    return [`The record holds no term of office for the ${alders.length} alderpersons serving now, so it cannot tell who has served longest.`];
  const newest = /\b(newest|most recently|least|shortest)\b/i.test(kit.q.text);
  const ranked = dated.sort((a, b) => (newest ? b.since.localeCompare(a.since) : a.since.localeCompare(b.since)) || a.name.localeCompare(b.name));
  const listed = ranked.slice(0, SENIORITY_LISTED);
  for (const p of listed) citePerson(kit, p, [`Serving since ${p.since} (the start of their first term in the record).`]);
  const [first, ...next] = listed.map((p) => `${personLabel(p)}, since ${p.since}`);
  const undated = alders.length - dated.length;
  return [
    `Of the ${alders.length} alderpersons serving now, ${newest ? 'the newest' : 'the longest serving'} is ${first}, by the start of their first term in the record${next.length ? `; then ${next.join('; ')}` : ''}.${undated ? ` The record holds no term for ${undated} of them.` : ''}`,
  ];
}
