// Words of a question: tokens, the words worth searching for, and names as people write them
// (nicknames, family names alone, "Ald." in front).

/** Lower-case words of letters and digits, accents folded ("Sigcho-López" → sigcho, lopez). */
export function tokens(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

// Words that say nothing about which record is meant: English function words, question words,
// and the council's own vocabulary that nearly every record shares.
const stop = new Set(
  (
    'a an and are as at be been being but by can could did do does doing done for from had has have having how i in into is it its me my ' +
    'no not of on or our out over please show so tell than that the their them then there these they this those to under up us was ' +
    'we were what whats when where which while who whom whose why will with would you your about any all also each ever find give know ' +
    'list many more most much new one only other some such there since before after during between last latest recent recently next ' +
    'today yesterday week weeks month months year years day days ago past this current currently upcoming first ' +
    'city chicago council councils alderman alderwoman alderperson alderpersons aldermen ald record records matter matters ' +
    'vote votes voted voting sponsor sponsors sponsored sponsoring cosponsor cosponsored introduce introduced pass passed passes ' +
    'adopted approved meeting meetings meet met ward wards represent represents representing committee committees lobbyist ' +
    'lobbyists lobbying lobbied reported report reports contact contacted contacts gave give given donated donors donor ' +
    'contributed contribution contributions contributor contributors money raised campaign status happened happen against favor ' +
    'favour deal plan proposal measure ordinance ordinances resolution resolutions legislation bill bills item items thing things ' +
    'anything something everything mention mentions mentioned regarding concerning related relating information info detail details ' +
    'say says said going happening get gets got decide decided decision outcome tally margin close final unanimous unanimously ' +
    'dissent dissented opposed anyone anybody fail failed fails defeated rejected approve approves approval handle handles ' +
    'handled handling responsible oversee oversees overseeing yes yea yeas nay nays aye ayes'
  ).split(' '),
);

// Words people use for what the record's titles say otherwise ("the fur ban" is an ordinance on
// the "trade in fur products"; "the police contract" a "collective bargaining agreement"): a
// question's word of a group is searched as the group, any of its words counting as that one
// word. The stemmer takes care of inflections (prohibit, prohibits, prohibition).
const synonymGroups: readonly (readonly string[])[] = [
  ['ban', 'prohibit'],
  ['contract', 'agreement'],
  ['lawsuit', 'settlement'],
  ['budget', 'appropriation'],
  ['union', 'bargaining'],
  ['salary', 'wage'],
  ['gun', 'firearm', 'gunshot'],
  ['shotspotter', 'gunshot'],
  ['bike', 'bicycle'],
  ['car', 'vehicle'],
  ['marijuana', 'cannabis'],
  ['liquor', 'alcohol'],
  ['homeless', 'unhoused', 'homelessness'],
  ['migrant', 'immigrant', 'newcomer', 'asylum'],
  ['casino', 'gaming'],
  ['tif', 'increment'],
  ['rent', 'rental'],
];
/** Words people use for the police, in a question: searched as the record's own word. */
const ownWords: Record<string, string> = { cop: 'police', cops: 'police', cpd: 'police' };

/**
 * A question's search words as a full-text search reads them: a word of a synonym group as the
 * group (`ban|prohibit`), counted as one word (public-data's retrieval reads `|` as "any of").
 */
export function searchedAs(terms: readonly string[]): string[] {
  return terms.map((t) => {
    const word = ownWords[t] ?? t;
    const group = synonymGroups.find((g) => g.includes(word));
    return group ? [word, ...group.filter((w) => w !== word)].join('|') : word;
  });
}

const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** The words of a question worth a full-text search: no function words, dates or council vocabulary. */
export function searchTerms(text: string): string[] {
  return [...new Set(tokens(text).filter((t) => !stop.has(t) && !months.includes(t) && !/^\d{1,2}(st|nd|rd|th)?$/.test(t) && t.length > 1))];
}

// Given names and the short forms people use for them (both directions compare equal).
const nicknames: Record<string, string[]> = {
  james: ['jim', 'jimmy', 'jamie'],
  william: ['bill', 'billy', 'will', 'willie'],
  matthew: ['matt'],
  michael: ['mike', 'mikey'],
  anthony: ['tony'],
  nicholas: ['nick'],
  daniel: ['dan', 'danny'],
  patricia: ['pat', 'patty', 'trish'],
  patrick: ['pat', 'paddy'],
  raymond: ['ray'],
  david: ['dave'],
  christopher: ['chris'],
  timothy: ['tim'],
  thomas: ['tom', 'tommy'],
  edward: ['ed', 'eddie'],
  gregory: ['greg'],
  stephen: ['steve'],
  steven: ['steve'],
  robert: ['bob', 'bobby', 'rob'],
  joseph: ['joe', 'joey'],
  andrew: ['andy', 'drew'],
  benjamin: ['ben'],
  samuel: ['sam'],
  samantha: ['sam'],
  elizabeth: ['liz', 'beth', 'betty'],
  deborah: ['deb', 'debbie'],
  debra: ['deb', 'debbie'],
  jennifer: ['jen', 'jenny'],
  jessica: ['jess'],
  katherine: ['kate', 'kathy', 'katie'],
  susan: ['sue'],
  richard: ['rick', 'rich', 'dick'],
  walter: ['walt'],
  ronald: ['ron', 'ronnie'],
  jeffrey: ['jeff'],
  kenneth: ['ken', 'kenny'],
  lawrence: ['larry'],
  martin: ['marty'],
  gilbert: ['gil'],
  frederick: ['fred'],
  alexander: ['alex'],
  margaret: ['maggie', 'peggy'],
  bennett: ['ben'],
};
const canonical = new Map<string, Set<string>>();
for (const [full, shorts] of Object.entries(nicknames)) {
  for (const name of [full, ...shorts]) {
    const set = canonical.get(name) ?? new Set<string>();
    set.add(full);
    canonical.set(name, set);
  }
}

/** Whether two given names can be the same person's ("Jim" and "James", "Marty" and "Martin"). */
export function sameGivenName(a: string, b: string): boolean {
  if (a === b) return true;
  const ca = canonical.get(a);
  const cb = canonical.get(b);
  return !!ca && !!cb && [...ca].some((x) => cb.has(x));
}

const suffixes = new Set(['jr', 'sr', 'ii', 'iii', 'iv']);

/** A display name's given and family words ("Matthew J. O'Shea" → matthew / o shea). */
export function nameParts(displayName: string): { given: string[]; family: string[] } {
  const cleaned = displayName
    .replace(/\b(jr|sr)\b\.?,?/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const words = cleaned.split(' ').filter((w) => tokens(w).some((t) => !suffixes.has(t)));
  if (words.length === 0) return { given: [], family: [] };
  const family = tokens(words[words.length - 1]!).filter((t) => !suffixes.has(t));
  const given = words
    .slice(0, -1)
    .flatMap(tokens)
    .filter((t) => t.length > 1 && !suffixes.has(t));
  return { given, family };
}

/**
 * How well a name matches a question's words: 0 when the family name is absent (a given name
 * alone is too common to mean anyone), 2 with it, 3 with a given name or its nickname too.
 */
export function nameScore(displayName: string, questionWords: ReadonlySet<string>): number {
  const { given, family } = nameParts(displayName);
  if (family.length === 0 || !family.every((t) => questionWords.has(t))) return 0;
  if (family.length === 1 && family[0]!.length < 3) return 0;
  // A word already matched as the family name does not count again as the given name ("Lee Lee").
  const givenMatch = given.some((g) => !family.includes(g) && [...questionWords].some((w) => sameGivenName(g, w)));
  return givenMatch ? 3 : 2;
}

// Given names that are also everyday words: still names when someone writes them.
const namesToo = new Set(['will', 'may', 'pat', 'ray', 'mark', 'bill', 'rich', 'don', 'art', 'sue', 'grant', 'june', 'april']);

/** Words of a question that may be part of a name (function words and numbers are not). */
export function nameWords(words: ReadonlySet<string>): string[] {
  return [...words].filter((w) => /^[a-z]{2,}$/.test(w) && (!stop.has(w) || namesToo.has(w)));
}

// Family names that are also common words of the record ("City Hall", "Martin Luther King Drive",
// "Cook County"): alone, without a given name or "Ald.", they do not name a person.
const everydayFamilyNames = new Set(
  'hall clay martin king park parks grant street lane hill green young white brown bell stone ford rice burns cook wood rose long may hunt price bush post page law love day hope case black field fields water waters church'.split(
    ' ',
  ),
);
export const isEverydayWord = (familyWord: string) => everydayFamilyNames.has(familyWord);

/** "Ald.", "Alderman", "Alderperson", "Alderwoman": the question speaks of an alderperson. */
export const namesAnAlderperson = (words: ReadonlySet<string>) => ['ald', 'alderman', 'alderwoman', 'alderperson', 'aldermen'].some((w) => words.has(w));
