// Extractive answers about legislation: how people voted, who sponsored a matter, where a matter
// stands, what a body passed at its last sitting (or in a period), and when a body meets.
import type { BodyRef, DayRange, MatterDetailOut } from '../public-data/index.ts';
import {
  bodyName,
  citeBody,
  citeMatter,
  citePerson,
  citeRollCall,
  type Composer,
  type Kit,
  mattersFor,
  outsideRecord,
  quote,
  topicTerms,
  wordsHeld,
} from './kit.ts';
import { article, joinList, outcome, personLabel } from './records.ts';

const within = (kit: Kit) => (kit.q.range ? ` ${kit.q.range.label}` : '');

function voteWords(value: string): string {
  switch (value) {
    case 'Yea':
    case 'Nay':
    case 'Present':
      return `voted ${value}`;
    case 'Absent':
      return 'was absent';
    case 'Not Voting':
      return 'did not vote';
    case 'Recused':
      return 'recused';
    default:
      return `was recorded as ${value}`;
  }
}

/** How named people voted on a matter; a matter's roll calls; or a person's latest votes. */
export const vote: Composer = async (kit) => {
  const people = kit.named.people;
  const listing = !kit.named.matters.length && !people.length ? rollCallListing(kit) : null;
  if (listing) return rollCallsListed(kit, listing);
  const matters = await mattersFor(kit, { voted: true });
  if (matters.length && people.length) return votesOfPeople(kit, matters, people);
  if (matters.length) return rollCallsOf(kit, matters);
  if (people.length) return latestVotes(kit);
  return null;
};

const closestWords = /\b(closest|close|narrow\w*|tightest|tight|contested|divided|split)\b/;
/** Words of a question about roll calls in general, once the margin's own are set aside. */
const generalWords =
  /^(votes?|voted|voting|roll|calls?|council|city|alder\w*|most|ever|were|was|which|what|hold|held|take|took|taken|cast|there|many|all|list)$/;

/**
 * A question about the period's roll calls themselves, with no subject to search for: the closest
 * (`margin`: "which votes were closest in 2026?"), or all of them, latest first ("what did the
 * council vote on in September 2026?", "how many roll calls were there in 2025?").
 */
function rollCallListing(kit: Kit): 'margin' | 'latest' | 'unanimous' | null {
  const text = kit.q.text.toLowerCase();
  if (!topicTerms(kit).every((t) => closestWords.test(t) || generalWords.test(t))) return null;
  if (closestWords.test(text)) return 'margin';
  // "How many votes were unanimous in 2026?": the period's roll calls with no vote on the other side.
  if (/\bunanim/.test(text)) return 'unanimous';
  return kit.q.range || /\bhow many\b/.test(text) ? 'latest' : null;
}

/** At most this many roll calls are named. */
const LISTED = 5;

/** The period's roll calls (the closest, or the latest), each with its matter, cited; and how many there were. */
async function rollCallsListed(kit: Kit, order: 'margin' | 'latest' | 'unanimous'): Promise<string[]> {
  const rows = await kit.retrieval.rollCallsIn(kit.q.range ?? {}, order, LISTED);
  if (rows.length === 0) {
    if (order !== 'unanimous') return [`The record holds no roll call with Yea or Nay votes${within(kit)}.`];
    const all = (await kit.retrieval.rollCallsIn(kit.q.range ?? {}, 'latest', 1))[0]?.total ?? 0;
    return [
      all
        ? `None of the ${all} roll call${all === 1 ? '' : 's'} with Yea or Nay votes${within(kit)} in the record was unanimous.`
        : `The record holds no roll call with Yea or Nay votes${within(kit)}.`,
    ];
  }
  const items = rows.map((r) => {
    const about = r.record_number ?? 'a matter';
    if (r.record_number && r.title && r.type)
      citeMatter(kit, { recordNumber: r.record_number, title: r.title, type: r.type }, [`${r.action_name} on ${r.date}, ${r.yea}–${r.nay}.`]);
    kit.sources.add('roll_call', r.id, `Roll call on ${about}, ${r.date}: ${r.action_name} ${r.yea}–${r.nay}`, [
      `Roll call of ${r.date} on ${about}${r.body_name ? ` (${r.body_name})` : ''}: ${outcome(r.action_name, r.yea, r.nay)}, a margin of ${Math.abs(r.yea - r.nay)}.`,
    ]);
    const what = r.title ? `${about} (${quote(r.title, 90)})` : about;
    return `${what} ${outcome(r.action_name, r.yea, r.nay)} on ${r.date}${r.body_name ? ` in the ${r.body_name}` : ''}`;
  });
  const total = rows[0]!.total;
  const count = `The record holds ${total} roll call${total === 1 ? '' : 's'} with Yea or Nay votes${within(kit)}`;
  if (order === 'margin') return [`${count}. The closest, by the margin between Yea and Nay: ${items.join('; ')}.`];
  if (order === 'unanimous') {
    const all = rows[0]!.all_total;
    return [
      `Of the ${all} roll call${all === 1 ? '' : 's'} with Yea or Nay votes${within(kit)} in the record, ${total} ${total === 1 ? 'was' : 'were'} unanimous (no vote on the other side)${total > rows.length ? `; the latest ${rows.length}` : ''}: ${items.join('; ')}.`,
    ];
  }
  return [`${count}${total > rows.length ? `; the latest ${rows.length}` : ''}: ${items.join('; ')}.`];
}

async function votesOfPeople(kit: Kit, matters: MatterDetailOut[], people: Kit['named']['people']): Promise<string[]> {
  const votes = await kit.retrieval.votesOn(
    matters.map((m) => m.id),
    people.map((p) => p.id),
  );
  const out: string[] = [];
  for (const m of matters) {
    citeMatter(kit, m);
    if (m.rollCalls.length === 0) {
      out.push(`${m.recordNumber} has no recorded roll call; its status is ${m.status ?? 'not recorded'}.`);
      continue;
    }
    for (const p of people) {
      citePerson(kit, p);
      for (const rc of m.rollCalls) {
        const v = votes.find((x) => x.roll_call_id === rc.id && x.person_id === p.id);
        citeRollCall(kit, rc, m.recordNumber, v ? [`${personLabel(p)} ${voteWords(v.value)}.`] : []);
        const result = `the ${m.type.toLowerCase()} ${outcome(rc.actionName, rc.tallies.yea, rc.tallies.nay)}`;
        out.push(
          v
            ? `${personLabel(p)} ${voteWords(v.value)} on ${m.recordNumber} on ${rc.date}; ${result}.`
            : `The roll call on ${m.recordNumber} of ${rc.date} lists no vote by ${personLabel(p)}; ${result}.`,
        );
      }
    }
  }
  return out;
}

/** "Who voted yes on…?", "who supported…?": the Yea side is listed; otherwise the Nay side. */
const asksYeas = /\b(yes|yea|yeas|aye|ayes|in favou?r|supported|support)\b|\bvot(ed|es|e|ing) for\b/i;

async function rollCallsOf(kit: Kit, matters: MatterDetailOut[]): Promise<string[]> {
  const side = asksYeas.test(kit.q.text) ? 'Yea' : 'Nay';
  const out: string[] = [];
  for (const m of matters) {
    citeMatter(kit, m);
    if (m.rollCalls.length === 0) {
      out.push(`${m.recordNumber} (${quote(m.title)}) has no recorded roll call; its status is ${m.status ?? 'not recorded'}.`);
      continue;
    }
    for (const summary of m.rollCalls.slice(-3)) {
      const rc = await kit.retrieval.rollCall(summary.id);
      if (!rc) continue;
      const voters = rc.votes.filter((v) => v.value === side).map((v) => `${v.name}${v.ward ? ` (Ward ${v.ward})` : ''}`);
      citeRollCall(kit, rc, m.recordNumber, [voters.length ? `Voting ${side}: ${voters.join(', ')}.` : `No one voted ${side}.`]);
      const body = bodyName(kit, rc.bodyId) ?? 'the body';
      out.push(
        `On ${rc.date} ${body === 'the body' ? body : `the ${body}`} voted on ${m.recordNumber} (${quote(m.title)}): it ${outcome(rc.actionName, rc.tallies.yea, rc.tallies.nay)}. ${
          voters.length === 0
            ? `No one voted ${side}.`
            : side === 'Yea' || voters.length <= 25
              ? `Voting ${side}: ${joinList(voters)}.`
              : `${voters.length} voted ${side}.`
        }`,
      );
    }
  }
  return out;
}

/** "What did X vote against?" asks for the Nay votes alone, "what did X vote for?" the Yea ones. */
function sideAsked(text: string): 'Nay' | 'Yea' | null {
  const t = text.toLowerCase();
  if (/\bvot(e|ed|es|ing) (against|no)\b|\bnays?\b|\bopposed\b/.test(t)) return 'Nay';
  if (/\bvot(e|ed|es|ing) (for|yes|yea|in favou?r)\b/.test(t)) return 'Yea';
  return null;
}

async function latestVotes(kit: Kit): Promise<string[]> {
  const out: string[] = [];
  const side = sideAsked(kit.q.text);
  // "How many Nay votes did X cast in 2026?": the count first, then the latest of them.
  const counting = side !== null && /\bhow many\b/i.test(kit.q.text);
  for (const p of kit.named.people.slice(0, 3)) {
    citePerson(kit, p);
    if (counting) {
      const r = await kit.retrieval.votingRecord(p.id, kit.q.range ?? {});
      const n = side === 'Nay' ? r.nay : r.yea;
      out.push(`${personLabel(p)} voted ${side} ${n === 1 ? 'once' : `${n} times`} in the ${r.total} roll calls the record holds for them${within(kit)}.`);
    }
    const votes = await kit.retrieval.recentVotes(p.id, kit.q.range ?? {}, 5, side ? [side] : []);
    if (votes.length === 0) {
      out.push(`The record holds no ${side ? `${side} ` : ''}votes by ${personLabel(p)}${within(kit)}.`);
      continue;
    }
    const items = votes.map((v) => {
      const about = v.record_number ?? 'a matter';
      if (v.record_number && v.title) citeMatter(kit, { recordNumber: v.record_number, title: v.title, type: v.type ?? 'Matter' });
      kit.sources.add('roll_call', v.roll_call_id, `Roll call on ${about}, ${v.date}: ${v.action} ${v.yea}–${v.nay}`, [
        `${personLabel(p)} ${voteWords(v.value)} on ${about} on ${v.date}; it ${outcome(v.action, v.yea, v.nay)}.`,
      ]);
      return `${v.value} on ${about}${v.title ? ` (${quote(v.title, 80)})` : ''} on ${v.date}, which ${outcome(v.action, v.yea, v.nay)}`;
    });
    out.push(`${personLabel(p)}'s latest recorded ${side ? `${side} ` : ''}votes${within(kit)}: ${items.join('; ')}.`);
  }
  return out;
}

/** A record whose source gave no sponsors cannot tell that someone sponsored nothing: it says so. */
const NO_SPONSORS = 'The record lists no sponsors for any matter (its source gave none)';
const sponsorsKept = (kit: Kit) => kit.retrieval.sponsorshipsHeld();

/** Who sponsored a matter, or what a named person sponsored. */
export const sponsor: Composer = async (kit) => {
  const matters = await mattersFor(kit);
  if (matters.length) {
    const kept = await sponsorsKept(kit);
    return matters.map((m) => {
      for (const s of m.sponsors)
        if (s.personId) kit.sources.add('person', s.personId, s.name, [`Listed as ${s.role.replace('_', ' ')} of ${m.recordNumber}.`]);
      const lead = m.sponsors.filter((s) => s.role !== 'cosponsor').map((s) => s.name);
      const co = m.sponsors.filter((s) => s.role === 'cosponsor').map((s) => s.name);
      citeMatter(
        kit,
        m,
        m.sponsors.length ? [`Sponsors: ${m.sponsors.map((s) => `${s.name} (${s.role.replace('_', ' ')})`).join(', ')}.`] : ['No sponsors are listed.'],
      );
      if (m.sponsors.length === 0)
        return kept
          ? `The record lists no sponsors for ${m.recordNumber} (${quote(m.title)}).`
          : `${NO_SPONSORS}, ${m.recordNumber} (${quote(m.title)}) among them.`;
      return `${m.recordNumber} (${quote(m.title)}) was sponsored by ${joinList(lead.length ? lead : co)}${lead.length && co.length ? `, with ${co.length} co-sponsor${co.length === 1 ? '' : 's'}: ${joinList(co)}` : ''}.`;
    });
  }
  if (kit.named.people.length === 0) return /\b(most|top|fewest|least|rank\w*)\b/.test(kit.q.text.toLowerCase()) ? sponsorRanking(kit) : null;
  if (!(await sponsorsKept(kit))) {
    for (const p of kit.named.people.slice(0, 3)) citePerson(kit, p);
    return [`${NO_SPONSORS}, so it cannot tell what ${joinList(kit.named.people.slice(0, 3).map(personLabel))} sponsored.`];
  }
  const out: string[] = [];
  for (const p of kit.named.people.slice(0, 3)) {
    citePerson(kit, p);
    const list = await kit.retrieval.sponsoredBy(p.id, kit.q.range ?? {}, 8);
    if (list.length === 0) {
      out.push(`The record lists ${personLabel(p)} as sponsor of no matter${within(kit)}.`);
      continue;
    }
    for (const m of list)
      citeMatter(kit, { recordNumber: m.record_number, title: m.title, type: m.type, status: m.status, introductionDate: m.introduction_date });
    out.push(
      `${personLabel(p)} is listed as a sponsor of ${list.map((m) => `${m.record_number} (${quote(m.title, 80)}${m.introduction_date ? `, introduced ${m.introduction_date}` : ''})`).join('; ')}${within(kit)}.`,
    );
  }
  return out;
};

/** Where matters stand: those named by record number, else the one the question's words describe. */
export const matter: Composer = async (kit) => {
  const out = kit.named.unknownRecords.map((r) => `The record holds no matter numbered ${r}.`);
  // "Did the council pass the 2026 budget?": a matter voted on first, as for a vote.
  const voted = /\b(pass\w*|approv\w*|adopt\w*|fail\w*|reject\w*|defeat\w*|vot\w+)\b/i.test(kit.q.text);
  const matters = kit.named.unknownRecords.length ? kit.named.matters : await mattersFor(kit, { voted });
  for (const m of matters) {
    citeMatter(kit, m);
    const last = m.actions.at(-1);
    const rc = m.rollCalls.at(-1);
    if (rc) citeRollCall(kit, rc, m.recordNumber);
    out.push(
      [
        `${m.recordNumber} is ${article(m.type.toLowerCase())}${m.introductionDate ? ` introduced on ${m.introductionDate}` : ''}: ${quote(m.title, 200)}.`,
        m.status ? `Its status is ${m.status}${m.finalActionDate ? ` (final action ${m.finalActionDate})` : ''}.` : '',
        last ? `Its latest action: ${last.name}${last.bodyName ? ` by the ${last.bodyName}` : ''}${last.date ? ` on ${last.date}` : ''}.` : '',
        rc ? `On its roll call of ${rc.date} it ${outcome(rc.actionName, rc.tallies.yea, rc.tallies.nay)}.` : '',
        asksIntroduction(kit.q.text) && !m.introductionDate ? `The record gives no date of its introduction.` : '',
        asksCommittee(kit.q.text) ? committeePath(m.actions) : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  return out.length ? out : null;
};

const asksIntroduction = (text: string) => /\b(introduc\w*|filed|proposed|submitted)\b/i.test(text);
const asksCommittee = (text: string) => /\b(refer\w*|re-referred|committees?)\b/i.test(text);

/**
 * A matter's way through committee, from its actions: referrals, and what committees did with it
 * (the council's own referral rows name no committee, so a committee is known by its actions).
 */
function committeePath(actions: readonly { name: string; bodyName: string | null; date: string | null }[]): string {
  const inCommittee = actions.filter((a) => a.bodyName && /\bcommittee\b/i.test(a.bodyName));
  const referred = actions.filter((a) => /^(re-?)?refer/i.test(a.name) && !inCommittee.includes(a));
  const committees = [...new Set(inCommittee.map((a) => a.bodyName!))];
  if (referred.length === 0 && inCommittee.length === 0) {
    return 'The record holds no referral of it and no committee action on it, so it cannot tell which committee handled it.';
  }
  const when = (a: { bodyName: string | null; date: string | null }) => `${a.bodyName ? ` by the ${a.bodyName}` : ''}${a.date ? ` on ${a.date}` : ''}`;
  const out: string[] = [];
  if (referred.length) out.push(`It was referred${referred.map(when).join(', and again')}.`);
  if (inCommittee.length) out.push(`In committee: ${inCommittee.map((a) => `${a.name}${when(a)}`).join('; ')}, so it was in the ${joinList(committees)}.`);
  else out.push('The referral names no committee, and the record holds no committee action on it.');
  return out.join(' ');
}

/** The bodies a question about sittings means: those it names, else the City Council. */
function bodiesMeant(kit: Kit): BodyRef[] {
  return kit.named.bodies.length ? kit.named.bodies : kit.named.allBodies.filter((b) => b.kind === 'council');
}

const passing = /^(passed|adopted|approved|confirmed)/i;
const isCommittee = (b: BodyRef) => b.kind === 'committee' || b.kind === 'joint_committee';
/** A committee does not pass a matter: it recommends it to the council ("Recommended to Pass"; against it, "Do Not Pass" fails). */
const committeePassing = /^(passed|adopted|approved|confirmed|recommend(ed)? to pass)/i;
const failing = /fail|defeat|not pass|reject/i;
/** "Which ordinances failed?", "has the council ever voted down…": a list of what failed. */
const failedWords = /\b(fail(ed|s|ing)?|voted down|vote down|defeated|rejected|turned down)\b/;
const asksFailed = (text: string) => failedWords.test(text.toLowerCase());

/** "Who sponsored the most ordinances in 2026?": the alderpersons ranked by the matters they sponsored, cited. */
async function sponsorRanking(kit: Kit): Promise<string[]> {
  const kinds = kindsNamed(kit.q.text);
  const rows = await kit.retrieval.sponsorRanking(kit.q.range ?? {}, kinds, 5);
  const what = kinds.length ? joinList(kinds.map(plural)) : 'matters';
  const period = kit.q.range ? ` introduced ${kit.q.range.label}` : '';
  if (rows.length === 0) return [(await sponsorsKept(kit)) ? `The record lists no alderperson as a sponsor of ${what}${period}.` : `${NO_SPONSORS}.`];
  for (const r of rows)
    citePerson(kit, { id: r.person_id, name: r.name, kind: 'alderperson', ward: r.ward }, [
      `Sponsor of ${r.sponsored} ${what}${period} (lead sponsor of ${r.lead}).`,
    ]);
  const list = rows.map((r) => `${personLabel({ name: r.name, kind: 'alderperson', ward: r.ward })}, ${r.sponsored} (lead sponsor of ${r.lead})`);
  return [`The alderpersons listed as sponsors of the most ${what}${period}, co-sponsors counted: ${list.join('; ')}.`];
}

/** Kinds of matter as eLMS and Legistar type them, by the words a question uses for them. */
const KINDS: readonly [RegExp, string][] = [
  [/\bordinances?\b/, 'ordinance'],
  [/\bresolutions?\b/, 'resolution'],
  [/\borders\b/, 'order'],
  [/\bappointments?\b/, 'appointment'],
  [/\bclaims?\b/, 'claim'],
];
const kindsNamed = (text: string) => KINDS.filter(([re]) => re.test(text.toLowerCase())).map(([, kind]) => kind);

/** Whether a title holds half or more of the words (as word beginnings, a plural's "s" aside). */
function aboutTopic(title: string, words: readonly string[]): boolean {
  const stems = words.map((w) => (w.length > 3 ? w.replace(/(es|s)$/, '') : w).replace(/[^\p{L}\p{N}]/gu, ''));
  const held = stems.filter((st) => st && new RegExp(`\\b${st}`, 'iu').test(title)).length;
  return held >= Math.ceil(stems.length / 2);
}
const plural = (kind: string) => `${kind}s`;

/**
 * "How many meetings did the Committee on Finance hold in 2023?": the meetings of the period counted
 * (cancelled ones said apart), within the span of the body's meetings the record holds; a period
 * outside it is one the record cannot tell.
 */
async function meetingCount(kit: Kit, bodies: BodyRef[]): Promise<string[]> {
  const names = joinList(bodies.map((b) => `the ${b.name}`));
  for (const b of bodies) citeBody(kit, b);
  const range = kit.q.range;
  const r = await kit.retrieval.meetingCount(
    bodies.map((b) => b.id),
    range ?? {},
  );
  const outside = outsideRecord(kit, r, `meetings of ${names}`);
  if (outside) return [outside];
  const cancelled = r.cancelled ? `, and ${r.cancelled} cancelled` : '';
  return [
    `The record holds the meetings of ${names} from ${r.first} to ${r.last}: ${r.met} meeting${r.met === 1 ? '' : 's'}${within(kit) || ' in all'}${cancelled}.`,
  ];
}

/** At most this many of the matters introduced are named. */
const INTRODUCED_LISTED = 5;

/**
 * How many matters (of the kinds the question names) were introduced in the period, or in the
 * whole record, with the latest named: "how many ordinances were introduced in 2025?". A subject
 * besides the kinds is a search, not a count: left to the other look-ups.
 */
export const introduced: Composer = async (kit) => {
  // "What is the newest legislation about housing?": the matters whose titles hold the subject.
  const subject = topicTerms(kit).filter((t) => !KINDS.some(([re]) => re.test(t)) && !introducedWords.test(t));
  const about = wordsHeld(subject);
  const kinds = kindsNamed(kit.q.text);
  const range = kit.q.range;
  const r = await kit.retrieval.introducedIn(range ?? {}, kinds, INTRODUCED_LISTED, about);
  const matters = (n: number) => (kinds.length ? joinList(kinds.map((k) => (n === 1 ? k : plural(k)))) : `matter${n === 1 ? '' : 's'}`);
  const what = (n: number) => `${matters(n)}${subject.length ? ` about “${subject.join(' ')}”` : ''}`;
  const when = range ? ` ${range.label}` : '';
  // Matters known from a roll call alone come without an introduction day: what is dated is said.
  const n = (x: number) => x.toLocaleString('en-US');
  const outside = outsideRecord(
    kit,
    { first: r.dated_first, last: r.dated_last, count: r.dated },
    `introduction dates of ${n(r.dated)} of its ${n(r.matters)} matters`,
  );
  if (outside) return [outside];
  const partial =
    r.dated < r.matters ? ` The record dates the introduction of ${n(r.dated)} of its ${n(r.matters)} matters, from ${r.dated_first} to ${r.dated_last}.` : '';
  if (r.total === 0)
    return [`The record holds no ${what(0)} introduced${when}${kinds.length || about ? ` (of ${n(r.all_types)} matters introduced${when})` : ''}.${partial}`];
  for (const m of r.latest)
    citeMatter(kit, { recordNumber: m.record_number, title: m.title, type: m.type, status: m.status, introductionDate: m.introduction_date });
  const span = kit.q.range ? '' : ` (from ${r.first} to ${r.last})`;
  const of = kinds.length || about ? `, of ${n(r.all_types)} matters of every kind${about ? ' and subject' : ''}` : '';
  const items = r.latest.map((m) => `${m.record_number} (${m.type.toLowerCase()}, ${quote(m.title, 90)}, introduced ${m.introduction_date})`);
  return [`The record holds ${n(r.total)} ${what(r.total)} introduced${when}${span}${of}. The latest: ${items.join('; ')}.${partial}`];
};
/** Words of the question that say "introduced" or "the latest", not a subject. */
const introducedWords = /^(introduced|filed|proposed|submitted|latest|newest|recent|recently|legislation|bills?|matters?)$/;

/**
 * What a body passed at its last sitting, or in the period the question names; or what failed
 * ("which ordinances failed?"), in the period or else over the whole record.
 */
export const passed: Composer = async (kit) => {
  const bodies = bodiesMeant(kit);
  if (bodies.length === 0) return null;
  const key = { ids: bodies.map((b) => b.id), names: bodies.map((b) => b.name) };
  const names = joinList(bodies.map((b) => `the ${b.name}`));
  let range = kit.q.range?.from || kit.q.range?.to ? { from: kit.q.range.from ?? '1900-01-01', to: kit.q.range.to ?? kit.today } : null;
  // What failed is rare at any one sitting: asked without a period, the whole record is read.
  const failed = asksFailed(kit.q.text);
  const committees = bodies.every(isCommittee);
  const outcomeOf = failed ? failing : committees ? committeePassing : passing;
  const passedWord = committees ? 'recommended to pass' : 'passed';
  const verb = failed ? 'failed to pass' : passedWord;
  if (failed && !range) range = { from: '1900-01-01', to: kit.today };
  const notes: string[] = [];
  let all: Awaited<ReturnType<Kit['retrieval']['actionsBetween']>> | null = null;
  if (!range) {
    const day = await kit.retrieval.lastSitting(key, kit.today);
    if (!day) return [`The record holds no sitting of ${names}.`];
    range = { from: day, to: day };
    all = await kit.retrieval.actionsBetween(key, range, 500, outcomeOf);
    if (all.length === 0) {
      // The last meeting has no business recorded yet: say so, and answer from the last sitting that has.
      const withBusiness = await kit.retrieval.lastSitting(key, kit.today, true);
      for (const g of await kit.retrieval.meetingsOn(key.ids, [day]))
        kit.sources.add('meeting', g.id, `${g.body_name} meeting, ${g.day}`, [`${g.body_name} met on ${g.day}; no actions are recorded for it.`]);
      notes.push(`The record holds no actions from the meeting of ${names} on ${day}.`);
      if (!withBusiness) return notes;
      range = { from: withBusiness, to: withBusiness };
      all = null;
    }
  }
  const everyKind = (all ?? (await kit.retrieval.actionsBetween(key, range, 500, outcomeOf))).filter((a) => outcomeOf.test(a.action));
  // A period the record holds no business of the body for ("what did the Committee on Finance pass
  // in 2025?" when its actions end in 2023) is one it cannot tell, not one where nothing passed.
  if (everyKind.length === 0 && kit.q.range) {
    const outside = outsideRecord(kit, await kit.retrieval.actionsExtent(key), `actions of ${names}`);
    if (outside) {
      for (const b of bodies) citeBody(kit, b);
      return [...notes, outside];
    }
  }
  // "How many ordinances passed in 2025?": the kinds of matter the question names, if any.
  const kinds = kindsNamed(kit.q.text);
  // "How many settlements were approved in 2026?": the words of a subject, in the matters' titles.
  const topic = topicTerms(kit).filter((t) => !KINDS.some(([re]) => re.test(t)));
  const actions = everyKind.filter((a) => (!kinds.length || kinds.includes(a.type.toLowerCase())) && (!topic.length || aboutTopic(a.title, topic)));
  const filtered = kinds.length > 0 || topic.length > 0;
  const what = (n: number) =>
    `${kinds.length ? joinList(kinds.map((k) => (n === 1 ? k : plural(k)))) : `matter${n === 1 ? '' : 's'}`}${topic.length ? ` about “${topic.join(' ')}”` : ''}`;
  for (const b of bodies) citeBody(kit, b);
  const days = [...new Set(actions.map((a) => a.date))];
  for (const g of await kit.retrieval.meetingsOn(key.ids, range.from === range.to ? [range.from] : days)) {
    kit.sources.add('meeting', g.id, `${g.body_name} meeting, ${g.day}`, [`${g.body_name} met on ${g.day}.`]);
  }
  const last = notes.length ? 'at its last sitting with recorded business' : 'at its last sitting in the record';
  const when = kit.q.range ? kit.q.range.label : failed ? 'in the record' : `${last}, on ${range.from}`;
  if (actions.length === 0) {
    const others = everyKind.length ? ` (${everyKind.length} other matter${everyKind.length === 1 ? '' : 's'} ${failed ? 'failed' : passedWord})` : '';
    return [
      ...notes,
      `The record shows ${filtered ? `no ${what(0)}` : 'nothing'} ${failed ? 'that failed to pass in' : `${verb} by`} ${names} ${when}${others}.`,
    ];
  }
  const shown = actions.slice(0, 10);
  const items = shown.map((a) => {
    citeAction(kit, a);
    return `${a.record_number} (${a.type.toLowerCase()}, ${quote(a.title, 90)}, ${a.action.toLowerCase()}${a.yea !== null ? ` ${a.yea}–${a.nay}` : ''}${kit.q.range || failed ? ` on ${a.date}` : ''})`;
  });
  const more = actions.length > shown.length ? `, and ${actions.length - shown.length} more` : '';
  const count = `${actions.length} ${what(actions.length)}${filtered ? ` (of ${everyKind.length} matter${everyKind.length === 1 ? '' : 's'} ${failed ? 'that failed' : 'passed'})` : ''}`;
  const lead = kit.q.range
    ? `${kit.q.range.label.charAt(0).toUpperCase()}${kit.q.range.label.slice(1)}, ${names} ${verb} ${count}`
    : failed
      ? `In the record (to ${kit.today}), ${names} ${verb} ${count}`
      : `${last.charAt(0).toUpperCase()}${last.slice(1)}, on ${range.from}, ${names} ${verb} ${count}`;
  const decided = [...notes, `${lead}: ${items.join('; ')}${more}.`];
  // "What did the council decide…?": what failed in the same days is part of the answer.
  if (!failed && /\b(decide|decided|decisions?)\b/i.test(kit.q.text)) {
    const lost = (await kit.retrieval.actionsBetween(key, range, 500, failing)).filter((a) => failing.test(a.action));
    for (const a of lost.slice(0, 10)) citeAction(kit, a);
    decided.push(
      lost.length
        ? `${lost.length} failed: ${lost
            .slice(0, 10)
            .map((a) => `${a.record_number} (${quote(a.title, 90)}, ${a.action.toLowerCase()}${a.yea !== null ? ` ${a.yea}–${a.nay}` : ''})`)
            .join('; ')}.`
        : 'Nothing failed.',
    );
  }
  return decided;
};

/** When a body next meets, or last met. */
export const meeting: Composer = async (kit) => {
  const listing = asksMeetingList(kit);
  const bodies = listing ? meetingBodies(kit) : bodiesMeant(kit);
  if (bodies.length === 0) return null;
  if (/\bhow many (meetings|hearings|times)\b/i.test(kit.q.text)) return meetingCount(kit, bodies);
  if (listing && kit.q.range) return meetingList(kit, bodies, kit.q.range);
  const ids = bodies.map((b) => b.id);
  const ahead = kit.q.ahead;
  const day = ahead ? (kit.q.range?.from ?? kit.today) : (kit.q.range?.to ?? kit.today);
  const found = (await kit.retrieval.meetings(ids, day, ahead ? 'next' : 'last', 5)).filter((g) => ahead || g.status !== 'cancelled');
  const names = bodiesCalled(kit, bodies);
  const g = found[0];
  if (!g) {
    const none = `The record holds no ${ahead ? 'upcoming' : 'past'} meeting of ${names}${within(kit)}.`;
    if (!ahead) return [none];
    // Nothing ahead: say where the record's meetings end, citing the latest one held.
    const latest = (await kit.retrieval.meetings(ids, kit.today, 'last', 5)).find((m) => m.status !== 'cancelled');
    if (!latest) return [none];
    kit.sources.add('meeting', latest.id, `${latest.body_name} meeting, ${latest.day}`, [`${latest.body_name} met on ${latest.day} at ${latest.time}.`]);
    const [its, meets] = bodies.length > 1 ? ['Their', 'they meet'] : ['Its', 'it meets'];
    return [`${none} ${its} latest meeting in the record was on ${latest.day}, so the record cannot tell when ${meets} next.`];
  }
  const place = g.location ? ` at ${g.location}` : '';
  kit.sources.add('meeting', g.id, `${g.body_name} meeting, ${g.day}`, [`${g.body_name} meeting on ${g.day} at ${g.time}${place} (${g.status}).`]);
  const asksWhatHappened =
    !ahead && !/^\s*when\b/i.test(kit.q.text) && /\b(happen\w*|do|did|done|decide\w*|vote\w*|pass\w*|business|action\w*|outcome\w*)\b/i.test(kit.q.text);
  const asksAgenda = /\bagenda\b/i.test(kit.q.text);
  if (!ahead) {
    // Business recorded on a later day than the last meeting the record holds (a roll call whose
    // meeting was not published): that later sitting is the latest that happened, and the body
    // met then ("when did the council last meet?").
    const key = { ids, names: bodies.map((b) => b.name) };
    const sitting = await kit.retrieval.lastSitting(key, day, true);
    if (sitting && sitting > g.day) {
      const later = `The latest business of ${names} in the record is from ${sitting}, a sitting whose meeting the record does not hold (its last meeting in the record was on ${g.day}${asksWhatHappened ? '' : ` at ${g.time}${place}`}).`;
      if (asksWhatHappened) return [later, await businessOf(kit, key, sitting)];
      // Its agenda and testimony are the meeting's, which the record lacks.
      const lacks = [asksAgenda && 'agenda', testimonyWords.test(kit.q.text) && 'testimony'].filter(Boolean);
      if (lacks.length) return [later, `So the record holds no ${lacks.join(' or ')} for that sitting.`];
      // The sitting's latest business, cited: what shows the body met then.
      for (const a of await kit.retrieval.actionsBetween(key, { from: sitting, to: sitting }, 1)) citeAction(kit, a);
      return [later];
    }
  }
  return [
    ahead
      ? `The next meeting of the ${g.body_name} in the record is on ${g.day} at ${g.time}${place} (${g.status}).`
      : `The ${g.body_name} last met on ${g.day} at ${g.time}${place}.`,
    ...(asksAgenda ? [await agendaOf(kit, g)] : []),
    ...(testimonyWords.test(kit.q.text) ? [await testimonyOf(kit, g)] : []),
    ...(asksWhatHappened ? [await businessOf(kit, { ids, names: bodies.map((b) => b.name) }, g.day)] : []),
  ];
};

/** "What meetings were held in October 2023?", "which committee meetings are coming up?": meetings listed, not the one next or last. */
const asksMeetingList = (kit: Kit) =>
  /\b(meetings|hearings)\b/i.test(kit.q.text) && /\b(what|which|list|any|are there|were there|coming up|scheduled|held)\b/i.test(kit.q.text);

/**
 * The bodies whose meetings a list means: those named; the committees when it says committees; else,
 * for a period, every body (unless it says the council), and the City Council otherwise.
 */
function meetingBodies(kit: Kit): BodyRef[] {
  if (kit.named.bodies.length) return kit.named.bodies;
  const text = kit.q.text.toLowerCase();
  if (/\bcommittees?\b/.test(text)) return kit.named.allBodies.filter(isCommittee);
  if (kit.q.range && !/\bcouncil\b/.test(text)) return kit.named.allBodies;
  return bodiesMeant(kit);
}

/** The bodies as an answer names them (and cites them), or, when the question named none and means many, as a whole. */
function bodiesCalled(kit: Kit, bodies: BodyRef[]): string {
  if (bodies.length === 1 || kit.named.bodies.length) {
    for (const b of bodies) citeBody(kit, b);
    return joinList(bodies.map((b) => `the ${b.name}`));
  }
  return bodies.some((b) => b.kind === 'council') ? 'the City Council and its committees' : "the City Council's committees";
}

/** At most this many meetings of a period are named. */
const MEETINGS_LISTED = 10;

/** The bodies' meetings in a period, earliest first, each cited; where the record's meetings end when it holds none. */
async function meetingList(kit: Kit, bodies: BodyRef[], range: DayRange): Promise<string[]> {
  const ids = bodies.map((b) => b.id);
  const whose = bodiesCalled(kit, bodies);
  const count = await kit.retrieval.meetingCount(ids, range);
  const outside = outsideRecord(kit, count, `meetings of ${whose}`);
  if (outside) return [outside];
  const found = await kit.retrieval.meetingsIn(ids, range, MEETINGS_LISTED);
  if (found.length === 0) return [`The record holds no meeting of ${whose}${within(kit)}.`];
  const items = found.map((g) => {
    const place = g.location ? ` at ${g.location}` : '';
    kit.sources.add('meeting', g.id, `${g.body_name} meeting, ${g.day}`, [`${g.body_name} meeting on ${g.day} at ${g.time}${place} (${g.status}).`]);
    return `${g.day} ${g.time}${bodies.length > 1 ? `, ${g.body_name}` : ''}${g.status === 'held' ? '' : ` (${g.status})`}`;
  });
  const total = found[0]!.total;
  const more = total > found.length ? `; and ${total - found.length} more` : '';
  return [`The record holds ${total} meeting${total === 1 ? '' : 's'} of ${whose}${within(kit)}: ${items.join('; ')}${more}.`];
}

/** An action on a matter, as actionsBetween reads it: its matter cited, and its roll call when it had one. */
function citeAction(kit: Kit, a: Awaited<ReturnType<Kit['retrieval']['actionsBetween']>>[number]): void {
  citeMatter(kit, { recordNumber: a.record_number, title: a.title, type: a.type }, [`${a.action} on ${a.date}${a.yea !== null ? `, ${a.yea}–${a.nay}` : ''}.`]);
  if (a.roll_call_id)
    kit.sources.add('roll_call', a.roll_call_id, `Roll call on ${a.record_number}, ${a.date}: ${a.action} ${a.yea}–${a.nay}`, [
      `${a.record_number} ${outcome(a.action, a.yea ?? 0, a.nay ?? 0)} on ${a.date}.`,
    ]);
}

/** At most this many of a sitting's actions are named, those with a roll call first. */
const BUSINESS_NAMED = 8;

/** "What happened at the last meeting?": the actions recorded that day, those voted on first, and how many more. */
async function businessOf(kit: Kit, key: { ids: string[]; names: string[] }, day: string): Promise<string> {
  const actions = await kit.retrieval.actionsBetween(key, { from: day, to: day }, 500);
  if (actions.length === 0) return `The record holds no actions from that day.`;
  const ordered = [...actions.filter((a) => a.roll_call_id), ...actions.filter((a) => !a.roll_call_id)];
  const shown = ordered.slice(0, BUSINESS_NAMED);
  const items = shown.map((a) => {
    citeAction(kit, a);
    return `${a.record_number} (${quote(a.title, 70)}): ${a.action.toLowerCase()}${a.yea !== null ? ` ${a.yea}–${a.nay}` : ''}`;
  });
  const voted = actions.filter((a) => a.roll_call_id).length;
  const more = actions.length > shown.length ? `; and ${actions.length - shown.length} more` : '';
  const limited = actions.length === 500 ? ' (the first 500 read)' : '';
  return `The record holds ${actions.length} action${actions.length === 1 ? '' : 's'} from that day${limited}, ${voted} with a roll call: ${items.join('; ')}${more}.`;
}

/** Words asking who testified at a meeting. */
const testimonyWords = /\b(testif\w*|testimony|public comments?|spoke|speakers?)\b/i;

/** Who testified at a meeting: those in a public capacity named with their position, the others counted. */
async function testimonyOf(kit: Kit, g: { id: string; body_name: string; day: string }): Promise<string> {
  const { named, others } = await kit.retrieval.testimonyAt(g.id, 10);
  const residents = others ? `${others} resident${others === 1 ? '' : 's'} or community member${others === 1 ? '' : 's'} testified (not named here)` : '';
  if (named.length === 0) return others ? `${residents.charAt(0).toUpperCase()}${residents.slice(1)}.` : 'The record holds no testimony for that meeting.';
  const list = named.map((t) => {
    const who = `${t.speaker_name}${t.organization ? ` (${t.organization})` : ''}`;
    kit.sources.add('meeting', g.id, `${g.body_name} meeting, ${g.day}`, [
      `Testimony by ${who}${t.position ? `, ${t.position}` : ''}${t.summary ? `: ${quote(t.summary, 200)}` : ''}.`,
    ]);
    return `${who}${t.position ? `, ${t.position}` : ''}`;
  });
  return `Testimony in a public capacity: ${list.join('; ')}.${residents ? ` Besides, ${residents}.` : ''}`;
}

/** What is on a meeting's agenda, from its agenda items. */
async function agendaOf(kit: Kit, g: { id: string; body_name: string; day: string }): Promise<string> {
  const items = await kit.retrieval.agenda(g.id, 15);
  if (items.length === 0) return `The record holds no agenda items for that meeting.`;
  const list = items.map((i) => {
    if (i.record_number)
      kit.sources.add('matter', i.record_number, `${i.record_number}: ${i.title ?? ''}`, [`On the agenda of the ${g.body_name} meeting of ${g.day}.`]);
    return i.record_number ? `${i.record_number} (${quote(i.title ?? '', 80)})` : quote(i.title ?? '', 80);
  });
  return `Its agenda lists ${list.length} item${list.length === 1 ? '' : 's'}: ${list.join('; ')}.`;
}
