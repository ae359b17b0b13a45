// Extractive answers about how people vote over many roll calls (how often with the majority,
// attendance, how often two people vote alike) and who chairs a committee. Each figure is counted
// from the roll calls in the record and cites the people (whose pages show their voting record)
// and, for agreement, the roll calls on which the two split.
import type { Composer, Kit } from './kit.ts';
import { citeBody, citeMatter, citePerson, topicTerms, wordsHeld } from './kit.ts';
import { peopleMeant } from './intents-people.ts';
import { asksNays } from './question.ts';
import { joinList, personLabel } from './records.ts';

const within = (kit: Kit) => (kit.q.range ? ` ${kit.q.range.label}` : '');
const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
/** A question about how often someone voted one way ("voted no", "nays", "voted yes"). */
const asksSides = /\b(no|nay|nays|against|yes|yea|yeas|aye|ayes|in favou?r)\b/i;
const percent = (n: number, of: number) => `${Math.round((100 * n) / of)}%`;

/** How often people vote with the majority and attend; how often two vote alike. */
export const votingRecord: Composer = async (kit) => {
  const people = (await peopleMeant(kit)).filter((p) => p.kind === 'alderperson');
  if (people.length === 0) return ranking(kit);
  const range = kit.q.range ?? {};
  if (
    people.length >= 2 &&
    /\b(agree|agrees|agreed|agreeing|alike|same way|same side|side with|together|align\w*|differ\w*|disagree\w*|split)\b/.test(kit.q.text.toLowerCase())
  )
    return agreement(kit, people[0]!, people[1]!);
  if (people.length === 1 && /\b(most like|votes? like|vote similarly|most similar\w*)\b/.test(kit.q.text.toLowerCase())) return alike(kit, people[0]!);
  const out: string[] = [];
  for (const p of people.slice(0, 3)) {
    const r = await kit.retrieval.votingRecord(p.id, range);
    if (r.total === 0) {
      citePerson(kit, p);
      out.push(`The record holds no roll-call votes by ${personLabel(p)}${within(kit)}.`);
      continue;
    }
    const span = r.first === r.last ? `on ${r.first}` : `from ${r.first} to ${r.last}`;
    const majority = r.decided
      ? `voted with the majority on ${r.with_majority} of ${r.decided} decided roll calls (${percent(r.with_majority, r.decided)}; in the minority on ${r.decided - r.with_majority})`
      : 'cast no Yea or Nay on a decided roll call';
    const attendance = r.absent
      ? `was absent or did not vote on ${r.absent} of ${r.total} roll calls (voting on ${r.total - r.absent} of ${r.total})`
      : `voted on all ${r.total} roll calls (${r.total} of ${r.total})`;
    citePerson(kit, p, [
      `Roll calls ${span}: ${r.total}; Yea ${r.yea}, Nay ${r.nay}; absent or not voting: ${r.absent}; with the majority on ${r.with_majority} of ${r.decided} decided.`,
    ]);
    const held = `in the ${r.total} roll calls the record holds${within(kit)} (${span})`;
    // "How many times has Hopkins voted no this year?": the count asked for first.
    out.push(
      asksSides.test(kit.q.text)
        ? `${personLabel(p)} voted Nay ${times(r.nay)} and Yea ${times(r.yea)} ${held}; they ${majority} and ${attendance}.`
        : `${personLabel(p)} ${majority} and ${attendance}, ${held}.`,
    );
    // "Which roll calls did X miss?": the latest of them, each cited.
    if (r.absent && asksWhichMissed.test(kit.q.text.toLowerCase())) out.push(await missedRollCalls(kit, p, r.absent));
  }
  return out;
};

const asksWhichMissed = /\b(which|what|list)\b.*\b(miss(ed|es|ing)?|skip(ped|s)?|absen\w*)\b/;
/** At most this many missed roll calls are named. */
const MISSED_LISTED = 8;

/** The latest roll calls a person was absent from or did not vote on. */
async function missedRollCalls(kit: Kit, p: Kit['named']['people'][number], absent: number): Promise<string> {
  const votes = await kit.retrieval.recentVotes(p.id, kit.q.range ?? {}, MISSED_LISTED, ['Absent', 'Not Voting']);
  const items = votes.map((v) => {
    const about = v.record_number ?? 'a matter';
    if (v.record_number && v.title) citeMatter(kit, { recordNumber: v.record_number, title: v.title, type: v.type ?? 'Matter' });
    kit.sources.add('roll_call', v.roll_call_id, `Roll call on ${about}, ${v.date}: ${v.action} ${v.yea}–${v.nay}`, [
      `${personLabel(p)}: ${v.value} on ${about} on ${v.date}.`,
    ]);
    return `${about} on ${v.date} (${v.value.toLowerCase()})`;
  });
  const more = absent > items.length ? `; and ${absent - items.length} more` : '';
  return `The roll calls ${personLabel(p)} missed${within(kit)}, latest first: ${items.join('; ')}${more}.`;
}

/** Who votes most like the person: the share of roll calls both attended on which they voted alike (their page's list). */
async function alike(kit: Kit, p: Kit['named']['people'][number]): Promise<string[]> {
  const rows = await kit.retrieval.mostAlike(p.id);
  citePerson(kit, p);
  if (rows.length === 0) return [`The record holds too few roll calls shared with ${personLabel(p)} to say who votes most like them.`];
  for (const r of rows)
    citePerson(kit, { id: r.id, name: r.name, kind: 'alderperson', ward: r.ward }, [
      `Voted as ${personLabel(p)} did on ${r.agreed} of ${r.together} roll calls both attended.`,
    ]);
  const list = rows.map(
    (r) => `${personLabel({ name: r.name, kind: 'alderperson', ward: r.ward })}, alike on ${r.agreed} of ${r.together} (${percent(r.agreed, r.together)})`,
  );
  const since = kit.q.range ? ` (over the whole record; a period is not applied here)` : '';
  return [`Who votes most like ${personLabel(p)}, over the roll calls both attended${since}: ${list.join('; ')}.`];
}

/** What a question about the whole council ranks alderpersons by. */
type Measure = 'missed' | 'attended' | 'minority' | 'majority' | 'majorityLeast' | 'nay';

function measureOf(text: string): Measure | null {
  const t = text.toLowerCase();
  const least = /\b(least|fewest|lowest|worst|rarely|seldom|less)\b/.test(t);
  if (/\b(minority|dissent\w*|outvoted|lone|losing side)\b/.test(t)) return 'minority';
  if (asksNays.test(t)) return 'nay';
  if (/\b(majority|winning side)\b/.test(t)) return least ? 'majorityLeast' : 'majority';
  if (/\b(miss(ed|es|ing)?|absen\w*|skip\w*)\b/.test(t)) return /\b(least|fewest|never|no|none)\b/.test(t) ? 'attended' : 'missed';
  if (/\battend\w*/.test(t)) return /\b(worst|lowest|least|poor\w*|bad\w*)\b/.test(t) ? 'missed' : 'attended';
  return null;
}

/** Words of a ranking's measure ("missed", "the majority", "least often"), not of a subject. */
const rankingWords =
  /^(miss|missed|misses|missing|best|worst|attendance|attend\w*|majority|minority|least|less|often|most|fewest|lowest|highest|absent\w*|absences?|skip\w*|dissent\w*|outvoted|lone|losing|winning|side|rarely|seldom|never|always|times|record|nays?|votes?|voted|voting|roll|calls?|council|city|alder\w*|members?|ever|every|all|any)$/;

/** At most this many alderpersons are named in a ranking. */
const RANKED = 5;

/**
 * Naming no one, a question about attendance or the majority ranks the alderpersons who voted in
 * the period ("who missed the most votes in 2026?"): each named with their own counts, cited.
 */
async function ranking(kit: Kit): Promise<string[] | null> {
  const measure = measureOf(kit.q.text);
  if (!measure) return null;
  // "Who voted against the most settlements?": the roll calls on matters about the subject alone.
  // A committee's words are a subject here unless the question says "committee".
  const subject = topicTerms(kit, { bodies: kit.q.words.has('committee') }).filter((t) => !rankingWords.test(t));
  const rows = await kit.retrieval.votingRecords(kit.q.range ?? {}, wordsHeld(subject));
  const on = subject.length ? ` on matters about “${subject.join(' ')}”` : '';
  if (rows.length === 0) return [`The record holds no roll-call votes by alderpersons${on}${within(kit)}.`];
  const first = rows.reduce((a, r) => (r.first && r.first < a ? r.first : a), rows[0]!.first ?? '');
  const last = rows.reduce((a, r) => (r.last && r.last > a ? r.last : a), rows[0]!.last ?? '');
  const span = first === last ? `on ${first}` : `from ${first} to ${last}`;
  const share = (n: number, of: number) => (of ? n / of : 0);
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  type Row = (typeof rows)[number];
  const orders: Record<Measure, (a: Row, b: Row) => number> = {
    missed: (a, b) => b.absent - a.absent || share(b.absent, b.total) - share(a.absent, a.total),
    attended: (a, b) => share(a.absent, a.total) - share(b.absent, b.total) || b.total - a.total,
    minority: (a, b) => b.in_minority - a.in_minority,
    nay: (a, b) => b.nay - a.nay,
    majority: (a, b) => share(b.with_majority, b.decided) - share(a.with_majority, a.decided) || b.decided - a.decided,
    majorityLeast: (a, b) => share(a.with_majority, a.decided) - share(b.with_majority, b.decided) || b.decided - a.decided,
  };
  const ranked = [...rows].sort((a, b) => orders[measure](a, b) || byName(a, b));
  const who = (r: Row) => personLabel({ name: r.name, kind: 'alderperson', ward: r.ward });
  const cite = (r: Row) =>
    citePerson(kit, { id: r.person_id, name: r.name, kind: 'alderperson', ward: r.ward }, [
      `Roll calls ${span}: ${r.total}; Yea ${r.yea}, Nay ${r.nay}; absent or not voting: ${r.absent}; with the majority on ${r.with_majority} of ${r.decided} decided; in the minority on ${r.in_minority}.`,
    ]);
  /** "A: …; B: …; and C: …" (each entry holds commas of its own). */
  const entries = (items: string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join('; ')}; and ${items[items.length - 1]}`);
  const among = `among the ${rows.length} alderpersons with roll-call votes${on} in the record${within(kit)} (${span})`;
  if (measure === 'missed' || measure === 'attended') {
    const perfect = ranked.filter((r) => r.absent === 0);
    if (measure === 'missed') {
      const missed = ranked.filter((r) => r.absent > 0).slice(0, RANKED);
      if (missed.length === 0) return [`No alderperson was absent from a roll call ${among.replace(/^among /, 'of ')}.`];
      for (const r of missed) cite(r);
      const list = missed.map((r) => `${who(r)}, absent or not voting on ${r.absent} of ${r.total} (${percent(r.absent, r.total)})`);
      return [`Most roll calls missed ${among}: ${entries(list)}.${perfect.length ? ` ${perfect.length} voted on every roll call recorded for them.` : ''}`];
    }
    if (perfect.length) {
      const shown = perfect.slice(0, RANKED);
      for (const r of shown) cite(r);
      const more = perfect.length > shown.length ? `, and ${perfect.length - shown.length} more` : '';
      return [
        `${perfect.length} of the ${rows.length} alderpersons with roll-call votes${on} in the record${within(kit)} (${span}) voted on every roll call recorded for them: ${entries(shown.map((r) => `${who(r)}, ${r.total} of ${r.total}`))}${more}.`,
      ];
    }
    const best = ranked.slice(0, RANKED);
    for (const r of best) cite(r);
    return [
      `Best attendance ${among}: ${entries(best.map((r) => `${who(r)}, voting on ${r.total - r.absent} of ${r.total} (${percent(r.total - r.absent, r.total)})`))}.`,
    ];
  }
  if (measure === 'nay') {
    const nays = ranked.filter((r) => r.nay > 0).slice(0, RANKED);
    if (nays.length === 0) return [`No alderperson voted Nay ${among.replace(/^among /, 'of ')}.`];
    for (const r of nays) cite(r);
    return [`Most Nay votes ${among}: ${entries(nays.map((r) => `${who(r)}, Nay on ${r.nay} of ${r.total} roll calls (Yea on ${r.yea})`))}.`];
  }
  const top = ranked.filter((r) => r.decided > 0).slice(0, RANKED);
  if (top.length === 0) return [`No alderperson cast a Yea or Nay on a decided roll call${within(kit)}.`];
  for (const r of top) cite(r);
  if (measure === 'minority') {
    const shown = top.filter((r) => r.in_minority > 0);
    if (shown.length === 0) return [`No alderperson voted in the minority on a decided roll call ${among.replace(/^among /, 'of ')}.`];
    return [`Most often in the minority ${among}: ${entries(shown.map((r) => `${who(r)}, on ${r.in_minority} of ${r.decided} decided roll calls`))}.`];
  }
  const heading = measure === 'majority' ? 'Most often with the majority' : 'Least often with the majority';
  return [
    `${heading} ${among}: ${entries(top.map((r) => `${who(r)}, on ${r.with_majority} of ${r.decided} decided roll calls (${percent(r.with_majority, r.decided)})`))}.`,
  ];
}

async function agreement(kit: Kit, a: Kit['named']['people'][number], b: Kit['named']['people'][number]): Promise<string[]> {
  const range = kit.q.range ?? {};
  const r = await kit.retrieval.agreement(a.id, b.id, range);
  citePerson(kit, a);
  citePerson(kit, b);
  if (r.both === 0) return [`The record holds no roll call${within(kit)} on which both ${personLabel(a)} and ${personLabel(b)} voted Yea or Nay.`];
  // The roll calls on which they split are the records the difference rests on.
  const split = await kit.retrieval.votesOnRollCallsSplit(a.id, b.id, range);
  for (const s of split)
    kit.sources.add('roll_call', s.roll_call_id, `Roll call on ${s.record_number ?? 'a matter'}, ${s.date}`, [
      `${personLabel(a)} voted ${s.a}; ${personLabel(b)} voted ${s.b}.`,
    ]);
  const differences = split.length ? ` They split on ${joinList(split.map((s) => `${s.record_number ?? 'a matter'} (${s.date}: ${s.a} and ${s.b})`))}.` : '';
  return [
    `${personLabel(a)} and ${personLabel(b)} voted the same way on ${r.same} of ${r.both} roll calls (${percent(r.same, r.both)}) on which both voted Yea or Nay${within(kit)}.${differences}`,
  ];
}

/** Who chairs the committees named, or that the record names no chair; naming no committee, the committees of the people named. */
export const chair: Composer = async (kit) => {
  const bodies = kit.named.bodies;
  if (bodies.length === 0) return (await memberships(kit)) ?? (/\bmost\b/i.test(kit.q.text) ? chairRanking(kit) : null);
  const out: string[] = [];
  for (const b of bodies.slice(0, 3)) {
    const chairs = await kit.retrieval.chairsOf(b.id);
    if (chairs.length === 0) {
      citeBody(kit, b, [`Its membership in the record names no chair.`]);
      out.push(`The record names no chair of the ${b.name}: its membership lists no one with a chair's role.`);
      continue;
    }
    citeBody(
      kit,
      b,
      chairs.map((c) => `${c.role}: ${c.name}.`),
    );
    for (const c of chairs) kit.sources.add('person', c.person_id, c.name, [`${c.role} of the ${b.name}.`]);
    out.push(`${joinList(chairs.map((c) => `${c.name} (${c.role})`))} — the ${b.name}.`);
  }
  return out;
};

/** "Who chairs the most committees?": the alderpersons ranked by the active committees they chair today. */
async function chairRanking(kit: Kit): Promise<string[]> {
  const rows = await kit.retrieval.chairRanking(5);
  if (rows.length === 0) return ['The record names no alderperson as the chair of an active committee.'];
  const list = rows.map((r) => {
    const who = personLabel({ name: r.name, kind: 'alderperson', ward: r.ward });
    const standing = r.standing.length ? `: ${joinList(r.standing.map((n) => `the ${n}`))}` : '';
    const counted = `${r.chairs} committee${r.chairs === 1 ? '' : 's'}${r.joint ? ` (${r.joint} of them joint)` : ''}`;
    citePerson(kit, { id: r.person_id, name: r.name, kind: 'alderperson', ward: r.ward }, [`Chair of ${counted} today${standing}.`]);
    return `${who}, ${counted}${standing}`;
  });
  return [`The alderpersons who chair the most committees today (vice chairs apart): ${list.join('; ')}.`];
}

/** The committees the alderpersons named sit on today, and in what role. */
async function memberships(kit: Kit): Promise<string[] | null> {
  const people = (await peopleMeant(kit)).filter((p) => p.kind === 'alderperson');
  if (people.length === 0) return null;
  const out: string[] = [];
  for (const p of people.slice(0, 2)) {
    const seats = await kit.retrieval.membershipsOf(p.id);
    citePerson(kit, p, seats.length ? [`Member of ${seats.length} active committee${seats.length === 1 ? '' : 's'}.`] : []);
    if (seats.length === 0) {
      out.push(`The record lists ${personLabel(p)} as a member of no active committee.`);
      continue;
    }
    for (const s of seats) kit.sources.add('body', s.body_id, s.name, [`${personLabel(p)}: ${s.role}.`]);
    const led = seats.filter((s) => /chair/i.test(s.role));
    const rest = seats.filter((s) => !/chair/i.test(s.role));
    const parts = [
      led.length ? `${led.length === 1 ? 'holds a chair' : `holds ${led.length} chairs`}: ${joinList(led.map((s) => `${s.role} of the ${s.name}`))}` : '',
      rest.length ? `is a member of ${joinList(rest.map((s) => `the ${s.name}`))}` : '',
    ].filter(Boolean);
    out.push(`${personLabel(p)} sits on ${seats.length} committee${seats.length === 1 ? '' : 's'} today: ${parts.join('; and ')}.`);
  }
  return out;
}
