// What a question asks, read without the database: the record numbers and wards it names, its
// date phrase, its intent and the words left to search for. Names are resolved later (resolve.ts).
import { type DayRange, dateRange } from './dates.ts';
import { searchTerms, tokens } from './text.ts';

export type Intent =
  | 'vote'
  | 'record'
  | 'sponsor'
  | 'passed'
  | 'introduced'
  | 'donors'
  | 'money'
  | 'lobbying'
  | 'chair'
  | 'representative'
  | 'meeting'
  | 'members'
  | 'amount'
  | 'matter'
  | 'search';

export interface Question {
  text: string;
  /** Record numbers as written (O2024-0001234, any letter case). */
  records: string[];
  wards: number[];
  range: DayRange | null;
  intent: Intent;
  /** Every word of the question (for names). */
  words: ReadonlySet<string>;
  /** Words worth a full-text search: no record numbers, dates, function words or council vocabulary. */
  terms: string[];
  /** "next", "upcoming" (a meeting ahead) rather than "last" (the latest one). */
  ahead: boolean;
  /** A point given as latitude and longitude in decimal degrees ("41.8837, -87.6319"). */
  point: { lat: number; lon: number } | null;
  /** The asker's own alderperson or ward ("my alderperson", "I live in…"), which only a ward or a point can tell. */
  asksOwn: boolean;
}

// Decimal latitude and longitude, as a map copies them: "41.8837, -87.6319".
const pointPattern = /(-?\d{1,2}\.\d{2,})\s*,\s*(-?\d{1,3}\.\d{2,})/;
const ownPattern = /\b(my|our)\s+(alder\w*|ald|ward|council\s*(member|person|woman|man)|representative|rep)\b|\bi\s+live\b|\bwho\s+represents\s+(me|us)\b/;

// Record numbers look like O2023-0001234, SO2026-0025407, Or2026-0028321 (repo-matters.ts).
const recordPattern = /\b([A-Za-z]{1,4}\d{4}-\d{1,10})\b/g;
const ordinals = '(\\d{1,2})(?:st|nd|rd|th)?';
const wardPatterns = [new RegExp(`\\bward\\s*(?:no\\.?|number|#)?\\s*${ordinals}\\b`, 'gi'), new RegExp(`\\b${ordinals}\\s+ward\\b`, 'gi')];

/** Words asking an amount of money ("cost the most", "how much… pay", "the biggest"), in lower case. */
export const amountWords = /\b(cost(s|ly|liest)?|expensive|biggest|largest|paid|pay|pays|paying|payouts?|amounts?|worth|how much|price)\b/;
/** Words asking who has served longest or shortest ("the longest serving alderman", "the newest"), in lower case. */
export const seniorityWords =
  /\b(longest|most senior|senior-?most|newest|most recently (elected|appointed|sworn)|served the longest|serving the longest|(been|served|serving) (the )?(longest|least|shortest))\b/;
/** Words naming the council's members as a whole, in lower case. */
const membersWords = /\b(alder(men|women|persons|people)|council ?members|members of the (city )?council|wards)\b/;

/** Words of a question about Nay votes ("voted no", "nays"), in lower case. */
export const asksNays = /\b(voted? (no|nay|against)|nays|no votes)\b/;

function intentOf(q: string, hasRecord: boolean, hasWard: boolean): Intent {
  const has = (re: RegExp) => re.test(q);
  // Who chairs (or vice-chairs) a committee (and, below, which committees a person sits on).
  if (has(/\bchair(s|ed|man|woman|person|persons|ing)?\b/) && !hasRecord) return 'chair';
  // "Which committee handles zoning?": the committee named by its subject, with who chairs it.
  if (has(/\b(which|what) committees?\b/) && has(/\b(handles?|deals? with|responsible|oversees?|in charge|covers?)\b/) && !hasRecord) return 'chair';
  if (
    has(/\blobb(y|ies|ied|ying|yist|yists)\b/) &&
    has(/\b(contact\w*|met|meet\w*|lobbied|lobbies|report\w*|sought|talk\w*|spoke|reach\w*|who|which|how much|paid|pay|compensat\w*|clients?|most|gifts?)\b/)
  )
    return 'lobbying';
  // Sums of campaign money: what someone raised, which committee raised the most, a period's total.
  // "Raise" alone may be legislation ("raise the minimum wage"): money only with words of money.
  const aboutMoney = has(/\b(campaigns?|committees?|money|cash|funds?|fundrais\w*|donat\w*|contribut\w*|receipts?|dollars?|how much)\b|\$/);
  if (
    (has(/\b(rais(e|ed|es|ing)|receipts?|war chest|haul|brought in|bring in|took in|take in|collected|fundrais\w*|spen(d|ds|t|ding)|expenditures?)\b/) &&
      aboutMoney) ||
    (has(/\bhow much\b/) && has(/\b(gave|give|given|donat\w*|contribut\w*|money)\b/))
  )
    return 'money';
  if (has(/\b(gave|give|given|giving|donat\w*|donors?|contribut\w*|funders?|funded|fund-?rais\w*|bankroll\w*)\b/)) return 'donors';
  // "Which settlement cost the most?", "how much did the city pay in settlements?": amounts of matters.
  if (!hasRecord && has(amountWords) && !has(/\bvot(e|ed|es|ing)\b/) && has(/\b(settle\w*|contracts?|lawsuits?|judgm?ents?|claims?|leases?|grants?|loans?)\b/))
    return 'amount';
  // "Who voted no the most in 2026?": the alderpersons ranked by their Nay votes.
  if (!hasRecord && has(/\b(most|fewest|least)\b/) && has(asksNays)) return 'record';
  // "Who dissents most often?", "who skipped the most roll calls?": the same rankings.
  if (!hasRecord && has(/\b(most|fewest|least|often)\b/) && has(/\b(dissent\w*|skip(s|ped|ping)?|outvoted)\b/)) return 'record';
  // How someone votes over many roll calls: with the majority, attendance, agreement with another.
  if (
    !hasRecord &&
    has(
      /\b(how often|how many times(?!.*\b(meet|meets|met|meeting|meetings)\b)|attendance|attend\w*|miss(ed|es|ing)?|absen\w*|agree|agrees|agreed|agreeing|disagree\w*|alike|same way|side with|majority|minority|losing side|winning side|voting record|track record|most like|votes? like|vote similarly|most similar\w*|(?<=\w'?s'? )record)\b/,
    )
  )
    return 'record';
  // What failed, listed: "which ordinances failed?", "has the council ever voted down an ordinance?".
  if (has(/\b(fail(ed|s)?|voted down|vote down|defeated|rejected|turned down)\b/)) {
    const asksOne = has(/^\s*(did|was|were|has|have|is|does)\b/) && !has(/\b(any|ever|anything|everything)\b/);
    if (!hasRecord && !asksOne && has(/\b(what|which|list|how many|any|ever|everything)\b/)) return 'passed';
    if (asksOne || hasRecord) return 'matter';
  }
  if (has(/\bvot(e|ed|es|ing)\b|\broll[ -]?calls?\b|\b(tally|tallies|margin|how close|unanimous\w*|dissent\w*|opposed)\b/)) return 'vote';
  if (has(/\bcommittees?\b/) && has(/\b(sits?|sitting|sat|serves?|serving|served|members?|membership|assigned|assignments?)\b/) && !hasRecord) return 'chair';
  // "What committees is Ald. Hopkins on?"
  if (!hasRecord && has(/\b(what|which) committees? (is|are|was|does|do)\b.*\b(on|in)\s*\??\s*$/)) return 'chair';
  // "What is the most recent ordinance?": the latest matters introduced, listed.
  if (
    !hasRecord &&
    has(/\b(latest|most recent|newest|recently introduced)\b/) &&
    has(/\b(ordinances?|resolutions?|orders|appointments?|matters|legislation|bills?)\b/) &&
    !has(/\b(vot\w*|pass\w*|fail\w*)\b/)
  )
    return 'introduced';
  // "How many ordinances were introduced in 2025?": matters introduced in a period, counted.
  if (!hasRecord && has(/\bhow many\b/) && has(/\b(introduced|filed|proposed|submitted)\b/) && !has(/\b(by|who|whom)\b/)) return 'introduced';
  if (has(/\b(sponsor\w*|co-?sponsor\w*|introduced by|filed by|authored)\b/) || (has(/\bwho\b/) && has(/\bintroduc(e|ed|es)\b/))) return 'sponsor';
  if (has(/\b(pass(ed|es)?|adopt(ed)?|approv(ed|e)|enact(ed)?)\b/)) {
    // "What passed at the last meeting?" asks for a list; "Did the settlement pass?" or "Was the
    // agreement approved?" about one matter.
    const asksOne = has(/^\s*(did|was|were|has|have|is|does)\b/);
    const list =
      has(/\b(what|which|list|how many|everything|anything)\b[^?]*\b(pass(ed|es)?|adopt(ed)?|approv(ed|e)|enact(ed)?)\b/) ||
      has(/\b(meeting|sitting|session|today|yesterday|week|month|year|in \d{4})\b/);
    return list && !asksOne && !hasRecord ? 'passed' : 'matter';
  }
  // "How many alderpersons are there?", "who are the aldermen?", "who is the longest serving
  // alderman?": the council's members.
  if (!hasRecord && !hasWard && has(/\b(alder\w*|council ?members?)\b/) && has(seniorityWords)) return 'members';
  if (
    !hasRecord &&
    !hasWard &&
    has(membersWords) &&
    has(/^\s*(how many|who are|list|name)\b|\b(are there|serve|serving|sit|sits|make up|does (the|chicago'?s?|the city'?s?) (city )?council have)\b/)
  )
    return 'members';
  if (hasWard && has(/\b(who|which|represent\w*|alder\w*|ald)\b/)) return 'representative';
  if (has(/\bwhich ward\b|\bwhat ward\b/)) return 'representative';
  if (
    !hasRecord &&
    has(/\b(meet|meets|meeting|meetings|hearing|hearings|session|agenda)\b/) &&
    has(/\b(when|next|last|latest|upcoming|recent|agenda|how many|testif\w*|testimony|spoke|speakers?|scheduled|coming up|planned|held|hold|holds)\b/)
  )
    return 'meeting';
  // "What did the council decide at its meeting in July 2026?": a sitting's or a period's outcomes, listed.
  if (!hasRecord && has(/\b(decide|decided|decisions?)\b/) && has(/\b(meeting|sitting|session|today|yesterday|week|month|year|in \d{4})\b/)) return 'passed';
  // "When was the Lorenzo Williams settlement introduced?", "which committee was the parking meter
  // transfer referred to?": one matter's own facts.
  if (has(/\bwhen (was|were|did|is)\b.*\b(introduc\w*|filed|proposed|submitted|referred)\b/) || has(/\b(referred|re-referred|sent|assigned) to\b/))
    return 'matter';
  if (hasRecord || has(/\b(decide|decided|decision|status|outcome|happened)\b/)) return 'matter';
  return 'search';
}

/**
 * The words to search for: those of the sentence that asks (the last one with a question mark)
 * when it has any, so a long preamble does not drown the question; else of the whole text.
 */
function focusTerms(text: string): string[] {
  const sentences = text.split(/(?<=[.!?])\s+/);
  const asking = [...sentences].reverse().find((x) => x.includes('?'));
  const focused = asking ? searchTerms(asking) : [];
  return focused.length ? focused : searchTerms(text);
}

/**
 * A point, or the asker's own alderperson ("who is my alderperson?"), is a question of who
 * represents where, unless the words ask something else of them ("how did my alderman vote on…").
 */
function whoRepresents(intent: Intent, point: boolean, own: boolean): Intent {
  return (point || own) && (intent === 'search' || intent === 'matter') ? 'representative' : intent;
}

export function understand(raw: string, today: string): Question {
  // Control characters (a NUL included) are never part of a question.
  const text = raw
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const records = [...new Set([...text.matchAll(recordPattern)].map((m) => m[1]!))];
  const at = pointPattern.exec(text);
  const point = at ? { lat: Number(at[1]), lon: Number(at[2]) } : null;
  let rest = text.replace(recordPattern, ' ').replace(pointPattern, ' ');
  const wards = new Set<number>();
  for (const pattern of wardPatterns) {
    for (const m of rest.matchAll(pattern)) {
      const n = Number(m[1]);
      if (n >= 1 && n <= 50) wards.add(n);
    }
    rest = rest.replace(pattern, ' ');
  }
  const dated = dateRange(rest, today);
  if (dated) rest = dated.rest;
  const lower = text.toLowerCase();
  const asksOwn = ownPattern.test(lower);
  return {
    text,
    records,
    wards: [...wards],
    range: dated?.range ?? null,
    intent: whoRepresents(intentOf(lower, records.length > 0, wards.size > 0), point !== null, asksOwn),
    words: new Set(tokens(text)),
    terms: focusTerms(rest),
    ahead: /\b(next|upcoming|coming|future|scheduled)\b/.test(lower),
    point,
    asksOwn,
  };
}
