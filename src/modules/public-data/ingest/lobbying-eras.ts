// Reconciling the City's lobbying exports across its 2020 renumbering. The Board of Ethics datasets
// were deduplicated on 2020-02-27 (City of Chicago Open Data Portal blog, "Lobbyist Dataset
// Deduplication Corrections"): ID columns "will remain internally consistent but will not match
// previous values". An export taken before that date uses the legacy numbering, one taken after
// the current one — except its Lobbyist/Employer/Client Combinations, which still name employers and
// clients by their legacy ids. So: the dataset's own keys are trusted within an era; across eras
// only names can match, and only where exactly one record fits; anything else is kept apart.
import { type CsvRow, cell } from './csv.ts';
import { CURRENT_ERA, clientId, type Era, employerId } from './lobbying-map.ts';
import { nameTokens } from './names.ts';
import type { Transport } from './transport.ts';

/** The day the City's deduplication renumbered the ids. */
export const RENUMBERED_ON = '2020-02-27';

/** One recorded export of the portal's datasets: its folder, and the day it was taken. */
export interface Snapshot {
  folder: string;
  exported: string;
}

/**
 * The snapshots of a recorded directory, newest first, from its `snapshots.json`
 * (`[{ "folder": "2021-07", "exported": "2021-07-24" }, …]`); null when it has none (the directory
 * is one export of the current numbering, as the live portal serves).
 */
export async function recordedSnapshots(transport: Transport): Promise<Snapshot[] | null> {
  if (!transport.recorded) return null;
  const text = await transport.text('/snapshots.json');
  if (text === null) return null;
  const list = JSON.parse(text) as unknown;
  if (!Array.isArray(list)) throw new Error('snapshots.json: expected a list of { folder, exported }');
  const out = list.map((s: any) => {
    if (typeof s?.folder !== 'string' || !/^[\w.-]+$/.test(s.folder) || typeof s?.exported !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s.exported)) {
      throw new Error(`snapshots.json: bad entry ${JSON.stringify(s)}`);
    }
    return { folder: s.folder as string, exported: s.exported as string };
  });
  return out.sort((a, b) => b.exported.localeCompare(a.exported));
}

/** "JOHN A. SMITH" and "John Smith" alike: given and family name, lower case, letters only. */
export function personKey(first: string | null, last: string | null): string | null {
  const given = nameTokens(first ?? '')[0];
  const family = nameTokens(last ?? '').join(' ');
  return given && family ? `${given}|${family}` : null;
}

/** What the current-numbering exports read in this run hold: lobbyists and organisations by name. */
export class CurrentIndex {
  readonly lobbyists = new Map<string, Set<string>>();
  /** The employers each current lobbyist registered with, by name. */
  readonly employersOf = new Map<string, Set<string>>();
  readonly ids = { employer: new Set<string>(), client: new Set<string>() };
  readonly orgs = { employer: new Map<string, Set<string>>(), client: new Map<string, Set<string>>() };

  /** A row of a current Lobbyists export (one per lobbyist and registration year). */
  addLobbyist(id: string, first: string | null, last: string | null, employer: string | null): void {
    const key = personKey(first, last);
    if (key) add(this.lobbyists, key, id);
    const org = orgKey(employer);
    if (org) add(this.employersOf, id, org);
  }

  /** An organisation of a current export, with the years it registered in. */
  addOrganisation(kind: 'employer' | 'client', id: string, name: string | null, years: readonly number[]): void {
    this.ids[kind].add(id);
    const key = orgKey(name);
    if (!key) return;
    add(this.orgs[kind], key, id);
    for (const y of years) add(this.orgs[kind], `${key}|${y}`, id);
  }

  /**
   * The organisation a Combinations row names in a current export: its id when this run's
   * Employers/Clients hold it; else (a legacy id) the one current organisation of that name
   * registered that year, or else of that name at all; else the legacy key itself, kept apart (the
   * current exports still list some names under several ids: no guess between them).
   */
  organisation(kind: 'employer' | 'client', raw: string, name: string | null, year: number): { id: string; legacy: boolean } {
    const id = kind === 'employer' ? employerId(raw) : clientId(raw);
    if (this.ids[kind].has(id)) return { id, legacy: false };
    const key = orgKey(name);
    for (const named of key ? [this.orgs[kind].get(`${key}|${year}`), this.orgs[kind].get(key)] : []) {
      if (named?.size === 1) return { id: [...named][0]!, legacy: false };
      if (named && named.size > 1) break;
    }
    return { id, legacy: true };
  }
}

const orgKey = (name: string | null) => (name ? nameTokens(name).join(' ') || null : null);

function add(map: Map<string, Set<string>>, key: string, id: string) {
  const set = map.get(key) ?? new Set<string>();
  set.add(id);
  map.set(key, set);
}

/**
 * The legacy era of one export: each LOBBYIST_ID of its rows becomes the current lobbyist of the
 * same given and family name in the current exports read in this run, when exactly one fits. A
 * name alone is not enough where the rows say more: when the legacy rows name the lobbyist's
 * employers, a current lobbyist fits only if registered with one of them. Otherwise the legacy id
 * stays a person of its own, `lobbyist-legacy-<id>`: two people are never merged on a guess.
 */
export function legacyEra(files: CsvRow[][], index: CurrentIndex): Era & { reconciled: number; apart: number } {
  const names = new Map<string, string | null>();
  const employers = new Map<string, Set<string>>();
  for (const rows of files) {
    for (const r of rows) {
      const raw = cell(r, 'LOBBYIST_ID');
      if (!raw) continue;
      const org = orgKey(cell(r, 'EMPLOYER_NAME'));
      if (org) add(employers, raw, org);
      if (names.get(raw)) continue;
      names.set(
        raw,
        personKey(cell(r, 'FIRST_NAME', 'LOBBYIST_FIRST_NAME', 'LOBBYIST_FIRSTNAME'), cell(r, 'LAST_NAME', 'LOBBYIST_LAST_NAME', 'LOBBYIST_LASTNAME')),
      );
    }
  }
  const ids = new Map<string, string>();
  let reconciled = 0;
  for (const [raw, key] of names) {
    const mine = employers.get(raw);
    const fits = [...((key && index.lobbyists.get(key)) || [])].filter((id) => {
      const theirs = index.employersOf.get(id);
      return !mine || !theirs || [...mine].some((e) => theirs.has(e));
    });
    if (fits.length === 1) {
      ids.set(raw, fits[0]!);
      reconciled++;
    } else ids.set(raw, `lobbyist-legacy-${raw}`);
  }
  return { legacy: true, lobbyist: (raw) => ids.get(raw) ?? `lobbyist-legacy-${raw}`, reconciled, apart: names.size - reconciled };
}

/** The era of a snapshot taken on `exported`. */
export const isLegacy = (exported: string) => exported < RENUMBERED_ON;

export { CURRENT_ERA };
