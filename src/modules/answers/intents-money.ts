// Extractive answers that sum the record: campaign receipts (which committee raised the most in a
// period, what someone's committee raised year by year, all receipts of a period, what a named
// contributor gave, the largest contributors overall) and lobbying disclosures (who reported the
// most compensation, which clients paid the most, who lobbies for a client, who gave the most in
// political contributions). Every figure is summed from the records cited beside it; a period the
// record does not cover is said to be outside it, citing nothing.
import type { DayRange, Extent, NamedPerson } from '../public-data/index.ts';
import { citeMatter, citePerson, type Composer, type Kit, outsideRecord, quote, topicTerms, wordsNeeded } from './kit.ts';
import { committeesMeant, peopleMeant } from './intents-people.ts';
import { dollars, joinList, personLabel } from './records.ts';
import { searchedAs } from './text.ts';

const within = (kit: Kit) => (kit.q.range ? ` ${kit.q.range.label}` : '');
const asked = (kit: Kit, re: RegExp) => re.test(kit.q.text.toLowerCase());
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const range = (kit: Kit): DayRange => kit.q.range ?? {};
/** How a sentence about the period opens: "In 2018, the" (or "The" without a period). */
const lead = (kit: Kit) => (kit.q.range ? `${kit.q.range.label.replace(/^./, (c) => c.toUpperCase())}, the` : 'The');

const coverage = (extent: Extent, what: string) => `The record holds ${what} from ${extent.first} to ${extent.last} only.`;

// Words of money and lobbying questions that name no contributor or client.
const vocabulary = new Set(
  (
    'aldermanic aldermen alderpersons campaign campaigns committee committees raise raised raising receipt receipts total totals biggest largest top highest most ' +
    'give gave giving donate donated donation donations pay paid pays paying spend spent compensation compensated earn earned lobbies lobby client clients ' +
    'political politicians fund funds funded dollars cash each per overall ever much alder alders their its his her'
  ).split(' '),
);
const nameWordsOf = (kit: Kit) => topicTerms(kit).filter((t) => !vocabulary.has(t) && !/^\d+$/.test(t));

/** Campaign money: committees ranked, a person's committee by year, a period's total, a contributor's giving. */
export const money: Composer = async (kit) => {
  const extent = (await kit.retrieval.extents()).receipts;
  const outside = outsideRecord(kit, extent, 'campaign receipts');
  if (outside) return [outside];
  const people = await peopleMeant(kit);
  const committees = await committeesMeant(kit, people);
  // Illinois' reports list expenditures too, but the record holds what committees received only.
  if (asked(kit, /\b(spen(d|ds|t|ding)|expenditures?)\b/)) {
    const held = committees.length ? await raisedBy(kit, people, committees) : [];
    return [`The record holds campaign receipts, the money committees received, not what they spent, so it cannot tell what was spent.`, ...held];
  }
  if (committees.length) return raisedBy(kit, people, committees);
  if (people.length) {
    for (const p of people) kit.sources.add(p.kind === 'lobbyist' ? 'lobbyist' : 'person', p.id, p.name, [`${personLabel(p)}.`]);
    return [`The record holds no campaign committee of ${joinList(people.map(personLabel))}.`];
  }
  const names = nameWordsOf(kit);
  if (names.length) {
    const given = await contributorsNamed(kit, names);
    if (given) return given;
  }
  const out = asked(kit, /\b(which|what|who)\b/) && asked(kit, /\b(most|top|biggest|largest|highest|more)\b/) ? await ranking(kit) : await total(kit);
  if (!kit.q.range) out.push(coverage(extent, 'campaign receipts'));
  return out;
};

async function raisedBy(kit: Kit, people: Awaited<ReturnType<typeof peopleMeant>>, committees: Awaited<ReturnType<typeof committeesMeant>>): Promise<string[]> {
  const years = await kit.retrieval.receiptsByYear(
    committees.map((c) => c.id),
    range(kit),
  );
  const out: string[] = [];
  for (const c of committees.slice(0, 3)) {
    const person = people.find((p) => p.id === c.person_id);
    if (person) kit.sources.add('person', person.id, person.name, [`${personLabel(person)}: campaign committee ${c.name}.`]);
    const rows = years.filter((y) => y.committee_id === c.id);
    if (rows.length === 0) {
      kit.sources.add('committee', c.id, c.name, [`No receipts recorded${within(kit)}.`]);
      out.push(`The record holds no receipts of ${c.name}${within(kit)}.`);
      continue;
    }
    const cents = rows.reduce((sum, y) => sum + Math.round(Number(y.total) * 100), 0);
    const all = (cents / 100).toFixed(2);
    const count = rows.reduce((n, y) => n + y.receipts, 0);
    const byYear = rows.map((y) => `${y.year}: ${dollars(y.total)} (${plural(y.receipts, 'receipt')})`);
    kit.sources.add('committee', c.id, c.name, [
      `Receipts by year: ${byYear.join('; ')}.`,
      `In all${within(kit)}: ${dollars(all)} from ${plural(count, 'receipt')}.`,
    ]);
    out.push(
      `${c.name} received ${dollars(all)} from ${plural(count, 'contribution')}${within(kit)}${rows.length > 1 ? ` — by year, ${byYear.join('; ')}` : ''}.`,
    );
  }
  return out;
}

async function contributorsNamed(kit: Kit, names: string[]): Promise<string[] | null> {
  const found = await kit.retrieval.contributorRanking(range(kit), 5, names);
  if (found.length === 0) return null;
  const list = found.map((f) => `${f.contributor} gave ${dollars(f.total)} in ${plural(f.receipts, 'receipt')} to ${plural(f.committees.length, 'committee')}`);
  citeRecipients(kit, found);
  return [`Contributors named “${names.join(' ')}”${within(kit)}: ${list.join('; ')}.`];
}

async function ranking(kit: Kit): Promise<string[]> {
  const top = await kit.retrieval.committeeRanking(range(kit), 5);
  for (const c of top)
    kit.sources.add('committee', c.committee_id, c.name, [`Received ${dollars(c.total)} from ${plural(c.receipts, 'receipt')}${within(kit)}.`]);
  const [first, ...rest] = top;
  if (!first) return [`The record holds no campaign receipts${within(kit)}.`];
  return [
    `${lead(kit)} campaign committee that raised the most was ${first.name}, with ${dollars(first.total)} from ${plural(first.receipts, 'receipt')}${rest.length ? `; then ${joinList(rest.map((c) => `${c.name} (${dollars(c.total)})`))}` : ''}.`,
  ];
}

async function total(kit: Kit): Promise<string[]> {
  const t = await kit.retrieval.receiptsTotal(range(kit));
  if (!t.total) return [`The record holds no campaign receipts${within(kit)}.`];
  for (const c of t.committees) kit.sources.add('committee', c.id, c.name, [`Received contributions${within(kit)}.`]);
  const top = await kit.retrieval.contributorRanking(range(kit), 3);
  return [
    `${lead(kit)} ${plural(t.committees.length, 'aldermanic committee')} in the record received ${dollars(t.total)} from ${plural(t.receipts, 'receipt')}.`,
    ...(top.length ? [`The largest contributors: ${joinList(top.map((c) => `${c.contributor} (${dollars(c.total)})`))}.`] : []),
  ];
}

/** The committees that received a contributor's money: the records its sum rests on. */
function citeRecipients(kit: Kit, found: Awaited<ReturnType<Kit['retrieval']['contributorRanking']>>): void {
  for (const f of found)
    for (const c of f.committees) kit.sources.add('committee', c.id, c.name, [`Received contributions from ${f.contributor}${within(kit)}.`]);
}

/** The largest contributors across every committee (a donors question naming no one). */
export async function topContributorsOverall(kit: Kit): Promise<string[]> {
  const extent = (await kit.retrieval.extents()).receipts;
  const outside = outsideRecord(kit, extent, 'campaign receipts');
  if (outside) return [outside];
  const top = await kit.retrieval.contributorRanking(range(kit), 5);
  if (top.length === 0) return [`The record holds no campaign receipts${within(kit)}.`];
  citeRecipients(kit, top);
  const list = top.map((f) => `${f.contributor} (${dollars(f.total)} to ${plural(f.committees.length, 'committee')})`);
  return [
    `The largest contributors to aldermanic campaign committees${within(kit)} were ${joinList(list)}.`,
    ...(kit.q.range ? [] : [coverage(extent, 'campaign receipts')]),
  ];
}

/** Lobbying sums: a client's lobbyists, lobbyists' giving, clients or lobbyists by compensation. */
export async function lobbyingTotals(kit: Kit): Promise<string[] | null> {
  const extents = await kit.retrieval.extents();
  // Gifts are their own disclosure: "which alderperson received the most lobbyist gifts?" is not
  // about political contributions.
  if (asked(kit, /\bgifts?\b/) && !asked(kit, /\b(contribut\w*|donat\w*|political)\b/)) return giftsRanked(kit, extents.gifts);
  const giving = asked(kit, /\b(contribut\w*|gave|give|donat\w*|political)\b/);
  if (!giving && asked(kit, lobbiedWords)) return contactsRanked(kit, extents);
  const extent = giving ? extents.contributions : extents.compensation;
  const what = giving ? "lobbyists' reported political contributions" : "lobbyists' compensation reports";
  const outside = outsideRecord(kit, extent, what);
  if (outside) return [outside];
  // "Which aldermen got the most money from lobbyists?": the officials lobbyists gave to, ranked.
  if (
    asked(kit, /\b(alder\w*|officials?|council\s*members?|politicians?|recipients?)\b/) &&
    asked(kit, /\b(got|get|gets|received?|receiving|took|take|takes|most)\b/)
  ) {
    const contributed = outsideRecord(kit, extents.contributions, "lobbyists' reported political contributions");
    if (contributed) return [contributed];
    const top = await kit.retrieval.lobbyistMoneyByRecipient(range(kit), 5);
    if (top.length === 0) return [`No lobbyist reported a political contribution to an official${within(kit)}.`];
    const list = top.map((r) => {
      const who = personLabel(r);
      citePerson(kit, { id: r.person_id, name: r.name, kind: r.kind as NamedPerson['kind'], ward: r.ward }, [
        `Lobbyists reported ${dollars(r.total)} in ${plural(r.contributions, 'political contribution')} to ${who}${within(kit)}, from ${plural(r.lobbyists, 'lobbyist')}.`,
      ]);
      return `${who} (${dollars(r.total)} in ${plural(r.contributions, 'contribution')} from ${plural(r.lobbyists, 'lobbyist')})`;
    });
    const out = [`The officials lobbyists reported the most political contributions to${within(kit)}: ${joinList(list)}.`];
    if (!kit.q.range) out.push(coverage(extents.contributions, "lobbyists' reported political contributions"));
    return out;
  }
  const names = nameWordsOf(kit);
  // A client registers anew each year and under several spellings ("Airbnb", "AIRBNB, INC."): the
  // client a question names is every client record its name's words match, summed.
  const clients = names.length ? await kit.retrieval.clientsNamed(names, 20) : [];
  const client = clients[0];
  let out: string[];
  if (client) {
    const lobbyists = await kit.retrieval.lobbyistCompensation(
      range(kit),
      5,
      clients.map((c) => c.id),
    );
    for (const c of clients)
      if (c.total) kit.sources.add('lobbying_client', c.id, c.name, [`A lobbying client; compensation reported for it: ${dollars(c.total)}.`]);
    if (!client.total) kit.sources.add('lobbying_client', client.id, client.name, ['A lobbying client.']);
    const spellings = [...new Set(clients.filter((c) => c.total).map((c) => c.name))].filter((n) => n !== client.name);
    const from = `${client.name}${spellings.length ? ` (also registered as ${joinList(spellings.slice(0, 3))})` : ''}`;
    out = lobbyists.length
      ? [`Lobbyists who reported compensation from ${from}${within(kit)}: ${joinList(lobbyists.map((l) => cite(kit, l, `from ${from}`)))}.`]
      : [`No lobbyist reported compensation from ${client.name}${within(kit)}.`];
  } else if (giving) {
    const top = await kit.retrieval.lobbyistGiving(range(kit), 5);
    out = [
      `The lobbyists who reported the most political contributions${within(kit)}: ${joinList(
        top.map((l) => {
          for (const id of l.lobbyist_ids)
            kit.sources.add('lobbyist', id, l.name, [
              `Reported, with the other registrations of ${l.name}, ${dollars(l.total)} in ${plural(l.contributions, 'political contribution')}${within(kit)}.`,
            ]);
          return `${l.name} (${dollars(l.total)} in ${plural(l.contributions, 'contribution')})`;
        }),
      )}.`,
    ];
  } else if (asked(kit, /\bclients?\b/)) {
    const top = await kit.retrieval.clientCompensation(range(kit), 5);
    out = [
      `The clients whose lobbyists reported the most compensation${within(kit)}: ${joinList(
        top.map((c) => {
          kit.sources.add('lobbying_client', c.client_id, c.name, [`Lobbyists reported ${dollars(c.total)} in compensation from it${within(kit)}.`]);
          return `${c.name} (${dollars(c.total)}, ${plural(c.lobbyists, 'lobbyist')})`;
        }),
      )}.`,
    ];
  } else if (asked(kit, /\b(paid|pay|compensat\w*|earn\w*|most|top|biggest|highest)\b/)) {
    const top = await kit.retrieval.lobbyistCompensation(range(kit), 5);
    out = [`The lobbyists who reported the most compensation${within(kit)}: ${joinList(top.map((l) => cite(kit, l, 'in all')))}.`];
  } else return null;
  if (!kit.q.range) out.push(coverage(extent, what));
  return out;
}

function cite(kit: Kit, l: Awaited<ReturnType<Kit['retrieval']['lobbyistCompensation']>>[number], from: string): string {
  // Each registration of the lobbyist the sum covers is a record it rests on.
  for (const id of l.lobbyist_ids)
    kit.sources.add('lobbyist', id, l.name, [
      `${l.name}'s registrations reported ${dollars(l.total)} in compensation ${from}${within(kit)} (${plural(l.reports, 'report')}).`,
    ]);
  return `${l.name} (${dollars(l.total)}${l.clients > 1 ? `, ${plural(l.clients, 'client')}` : ''})`;
}

/** "Which lobbyists gave the most gifts?", "who gave aldermen the most gifts?": the givers; otherwise the officials. */
const giversWords = /\b(which|what|top) lobbyists?\b|\bwho (gave|gives|give|has given|reported)\b|\blobbyists? (who )?(gave|give|gives) the most\b/;

/** A sum of gifts' reported values; a report may give a gift no value. */
const worth = (total: string) => (Number(total) > 0 ? ` worth ${dollars(total)}` : ', no value reported');

/** The officials lobbyists reported giving gifts to, or the lobbyists who gave them, ranked by how many gifts. */
async function giftsRanked(kit: Kit, extent: Extent): Promise<string[]> {
  const what = "lobbyists' reported gifts to officials";
  // Also says when the record holds none at all.
  const outside = outsideRecord(kit, extent, what);
  if (outside) return [outside];
  let out: string[];
  if (asked(kit, giversWords)) {
    const top = await kit.retrieval.lobbyistGiftGiving(range(kit), 5);
    if (top.length === 0) return [`No lobbyist reported a gift to an official${within(kit)}.`];
    const list = top.map((l) => {
      const detail = `${plural(l.gifts, 'gift')} to ${plural(l.recipients, 'recipient')}${worth(l.total)}`;
      for (const id of l.lobbyist_ids)
        kit.sources.add('lobbyist', id, l.name, [`Reported, with the other registrations of ${l.name}, ${detail}${within(kit)}.`]);
      return `${l.name} (${detail})`;
    });
    out = [`The lobbyists who reported giving the most gifts to City officials and employees${within(kit)}: ${joinList(list)}.`];
  } else {
    const top = await kit.retrieval.lobbyistGiftsByRecipient(range(kit), 5);
    if (top.length === 0) return [`No lobbyist reported a gift to an official${within(kit)}.`];
    const list = top.map((r) => {
      const who = personLabel(r);
      const detail = `${plural(r.gifts, 'gift')} from ${plural(r.lobbyists, 'lobbyist')}${worth(r.total)}`;
      citePerson(kit, { id: r.person_id, name: r.name, kind: r.kind as NamedPerson['kind'], ward: r.ward }, [
        `Lobbyists reported ${detail} to ${who}${within(kit)}.`,
      ]);
      return `${who} (${detail})`;
    });
    out = [`The officials lobbyists reported giving the most gifts to${within(kit)}: ${joinList(list)}.`];
  }
  if (!kit.q.range) out.push(coverage(extent, what));
  return out;
}

/** "Which alderman was lobbied the most?", "which officials did lobbyists contact most?", "which ward gets the most lobbying?". */
const lobbiedWords =
  /\b(was|were|been|being|got|get|gets) (lobbied|contacted)\b|\bcontacted (the )?most\b|\bmost (often )?(lobbied|contacted)\b|\blobbyists? (contact|contacted|met|meet|reach|reached|target|targeted)\b|\b(did|do|does) lobbyists (contact|meet|reach|target)\b|\bwards? (gets?|got|receives?|sees?) (the )?most lobbying\b/;

/** The officials lobbyists' activity reports name as contacted, ranked; what the record holds when it holds no such report. */
async function contactsRanked(kit: Kit, extents: Awaited<ReturnType<Kit['retrieval']['extents']>>): Promise<string[]> {
  const reports = "lobbyists' activity reports naming an official contacted";
  if (extents.contacts.count === 0) {
    const held = extents.contributions.count
      ? ` It holds lobbyists' reported political contributions to officials (ask which officials lobbyists gave the most).`
      : '';
    return [`The record holds no ${reports}, so it cannot tell who was lobbied the most.${held}`];
  }
  const outside = outsideRecord(kit, extents.contacts, reports);
  if (outside) return [outside];
  const top = await kit.retrieval.lobbyingContactsByOfficial(range(kit), 5);
  if (top.length === 0) return [`No lobbyist's activity report names an official contacted${within(kit)}.`];
  const list = top.map((r) => {
    const who = personLabel(r);
    const detail = `${plural(r.reports, 'activity report')} by ${plural(r.lobbyists, 'lobbyist')} for ${plural(r.clients, 'client')}`;
    citePerson(kit, { id: r.person_id, name: r.name, kind: r.kind as NamedPerson['kind'], ward: r.ward }, [`Named as contacted in ${detail}${within(kit)}.`]);
    return `${who} (${detail})`;
  });
  const out = [`The officials lobbyists' activity reports name as contacted most often${within(kit)}: ${joinList(list)}.`];
  if (!kit.q.range) out.push(coverage(extents.contacts, reports));
  return out;
}

/** Words of the question that ask an amount, not its subject. */
const amountVocabulary = new Set(
  'cost costs costly costliest expensive biggest largest paid pay pays paying payout payouts amount amounts worth much price city chicago most'.split(' '),
);
/** At most this many of the matters about the subject are named, voted on first. */
const AMOUNT_LISTED = 3;

/**
 * "Which settlement cost the most?": the record holds no amounts for matters (no title states one;
 * a settlement's or contract's sum is in its attached documents, which the record links but does
 * not read), so the answer says so, counts the matters about the subject and names the latest
 * voted on with their documents.
 */
export const amounts: Composer = async (kit) => {
  const topic = topicTerms(kit).filter((t) => !amountVocabulary.has(t));
  if (topic.length === 0) return null;
  const terms = searchedAs(topic);
  const needed = wordsNeeded(terms.length);
  const about = async (period: DayRange, limit: number, votedOnly: boolean) =>
    (await kit.retrieval.mattersMatching(terms, needed, period, limit, votedOnly)).filter((m) => m.matched >= needed);
  // Matters known from a roll call alone carry no introduction date: a period that dates none of
  // them is read as the whole record, and the answer says so.
  let period = range(kit);
  let found = await about(period, 300, false);
  let when = within(kit);
  if (found.length === 0 && kit.q.range) {
    period = {};
    found = await about(period, 300, false);
    when = ` (none is dated${within(kit)} by its introduction; in the whole record)`;
  }
  if (found.length === 0) return null;
  const voted = await about(period, AMOUNT_LISTED, true);
  const items: string[] = [];
  for (const hit of voted.length ? voted : found.slice(0, AMOUNT_LISTED)) {
    const m = await kit.retrieval.matter(hit.record_number);
    if (!m) continue;
    const documents = m.attachments.map((a) => a.name);
    const last = m.rollCalls.at(-1);
    citeMatter(kit, m, documents.length ? [`Attached: ${documents.join('; ')}.`] : ['No document is attached in the record.']);
    const decided = last
      ? `, ${last.actionName.toLowerCase()} ${last.tallies.yea}–${last.tallies.nay} on ${last.date}`
      : m.status
        ? `, ${m.status.toLowerCase()}`
        : '';
    items.push(`${m.recordNumber} (${quote(m.title, 90)}${decided}${documents.length ? `; attached: ${documents.join(', ')}` : ''})`);
  }
  const passedCount = found.filter((m) => m.status && /^(passed|adopted|approved)/i.test(m.status)).length;
  const count = found.length >= 300 ? 'at least 300' : found.length.toLocaleString('en-US');
  const subject = `“${topic.join(' ')}”`;
  return [
    `The record holds no amounts for these matters: no title states a sum, and the amount of a settlement or a contract is in its attached documents, which the record links but does not read, so it cannot tell what they cost.`,
    `It holds ${count} matter${found.length === 1 ? '' : 's'} about ${subject}${when}${passedCount ? `, ${passedCount} passed` : ''}; ${voted.length ? 'the latest voted on' : 'the closest'}: ${items.join('; ')}.`,
  ];
};
