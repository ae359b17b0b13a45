// The extractive answer: the sentences the question's intent composes from what it names, else
// what the question names and the best passages, else a plain statement that nothing was found.
import { introduced, matter, meeting, passed, sponsor, vote } from './intents-legislation.ts';
import { donors, lobbying, members, profile, representative } from './intents-people.ts';
import { amounts, money } from './intents-money.ts';
import { chair, votingRecord } from './intents-record.ts';
import type { Composer, Kit } from './kit.ts';
import { passages } from './passages.ts';
import type { Intent } from './question.ts';

export const NOTHING_FOUND = "I found nothing in the council's public record that answers this question.";

const byIntent: Record<Intent, Composer | null> = {
  vote,
  record: votingRecord,
  sponsor,
  passed,
  introduced,
  donors,
  money,
  chair,
  lobbying,
  representative,
  meeting,
  members,
  amount: amounts,
  matter,
  search: null,
};

/** The answer's sentences; the records they rest on are collected in `kit.sources`. */
export async function composeExtractive(kit: Kit): Promise<string[]> {
  const sentences = await composed(kit);
  return sentences.length ? [...kit.notes, ...sentences] : sentences;
}

async function composed(kit: Kit): Promise<string[]> {
  const own = await byIntent[kit.q.intent]?.(kit);
  if (own?.length) return own;
  const named = [
    ...((kit.named.matters.length || kit.named.unknownRecords.length ? await matter(kit) : null) ?? []),
    ...((kit.q.intent !== 'matter' && kit.named.people.length ? await profile(kit) : null) ?? []),
  ];
  return [...named, ...((await passages(kit)) ?? [])];
}
