// The records an answer rests on: each with the citation that opens its public web page and the
// facts read from it. The extractive answer is written from these facts; a model is given them,
// and nothing else, as quoted data.
import type { Citation, CitationType } from './schema.ts';

export interface SourceRecord {
  citation: Citation;
  /** What the record says that bears on the question, one statement per line. */
  facts: string[];
}

/** The public web page of each kind of record (the paths of the website's pages). */
const pages: Record<CitationType, string> = {
  matter: '/matters/',
  meeting: '/meetings/',
  person: '/people/',
  body: '/bodies/',
  roll_call: '/roll-calls/',
  committee: '/money/committees/',
  lobbyist: '/lobbying/lobbyists/',
  lobbying_client: '/lobbying/clients/',
  lobbying_employer: '/lobbying/employers/',
};

const MAX_TITLE = 240;
const clip = (s: string) => (s.length > MAX_TITLE ? `${s.slice(0, MAX_TITLE - 1).trimEnd()}…` : s);

/** Collects the records of one answer, once each, in the order they are first used. */
export class Sources {
  readonly #byKey = new Map<string, SourceRecord>();
  readonly #baseUrl: string;

  constructor(baseUrl: string) {
    this.#baseUrl = baseUrl;
  }

  /** A page of the site as an absolute address ("/wards"), for an answer that points somewhere other than a record. */
  page(path: string): string {
    return `${this.#baseUrl}${path}`;
  }

  /** The record of this type and id (added on first use); `facts` are appended. */
  add(type: CitationType, id: string, title: string, facts: string[] = []): Citation {
    const key = `${type}:${id}`;
    let record = this.#byKey.get(key);
    if (!record) {
      record = { citation: { type, id, title: clip(title), url: `${this.#baseUrl}${pages[type]}${encodeURIComponent(id)}` }, facts: [] };
      this.#byKey.set(key, record);
    }
    for (const fact of facts) if (!record.facts.includes(fact)) record.facts.push(fact);
    return record.citation;
  }

  get size(): number {
    return this.#byKey.size;
  }

  all(): SourceRecord[] {
    return [...this.#byKey.values()];
  }
}

/** A person is cited on the lobbying pages when a lobbyist, else on the people pages. */
export function personType(kind: string): CitationType {
  return kind === 'lobbyist' ? 'lobbyist' : 'person';
}

/** "Ald. Brian Hopkins (Ward 2)", or the name alone for anyone else. */
export function personLabel(p: { name: string; kind: string; ward: number | null }): string {
  return p.kind === 'alderperson' ? `Ald. ${p.name}${p.ward ? ` (Ward ${p.ward})` : ''}` : p.name;
}

/** Dollars as the record has them ("2500.00") written for people ("$2,500.00"). */
export function dollars(amount: string): string {
  const [whole = '0', cents = '00'] = amount.replace(/^-/, '').split('.');
  return `${amount.startsWith('-') ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents.padEnd(2, '0').slice(0, 2)}`;
}

/** "passed 46–3", "was adopted 24–23", "failed 10–38": what a roll call's action did, with its tally. */
export function outcome(action: string, yea: number, nay: number): string {
  const a = action.toLowerCase();
  const tally = `${yea}–${nay}`;
  if (/fail|defeat|not pass/.test(a)) return `failed ${tally}`;
  if (/^pass/.test(a)) return `passed ${tally}`;
  if (/adopt/.test(a)) return `was adopted ${tally}`;
  if (/approv/.test(a)) return `was approved ${tally}`;
  return `${a} (${tally})`;
}

export function joinList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "an ordinance", "a resolution". */
export function article(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}
