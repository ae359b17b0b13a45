// The best passages: when no intent's look-ups answer the question, the records that hold the
// most of its words, from every kind of record. A record must hold enough of them (kit.ts
// wordsNeeded) to count as relevant; with none, the answer says nothing relevant was found.
import type { PassageRow } from '../public-data/index.ts';
import { citeMatter, type Composer, type Kit, quote, topicTerms, wordsNeeded } from './kit.ts';
import { searchedAs } from './text.ts';

const MAX_PASSAGES = 5;

function describe(kit: Kit, p: PassageRow): string {
  switch (p.type) {
    case 'matter': {
      const [record, type] = (p.detail ?? '').split(' · ');
      citeMatter(kit, { recordNumber: p.record_number ?? record ?? p.id, title: p.title, type: type ?? 'Matter', introductionDate: p.date });
      return `${p.record_number} (${(type ?? 'matter').toLowerCase()}${p.date ? `, introduced ${p.date}` : ''}): ${quote(p.title, 160)}`;
    }
    case 'meeting':
      kit.sources.add('meeting', p.id, `${p.title} meeting, ${p.date}`, [`${p.title} meeting on ${p.date}${p.detail ? ` (${p.detail})` : ''}.`]);
      return `the ${p.title} meeting of ${p.date}${p.detail ? ` (${p.detail})` : ''}`;
    case 'agenda_item':
      kit.sources.add('meeting', p.meeting_id!, `${p.meeting_title} meeting, ${p.date}`, [
        `Agenda item${p.record_number ? ` ${p.record_number}` : ''}: ${quote(p.title, 300)}${p.detail ? ` (${p.detail})` : ''}.`,
      ]);
      return `an agenda item of the ${p.meeting_title} meeting of ${p.date}: ${quote(p.title, 140)}${p.record_number ? ` (${p.record_number})` : ''}`;
    case 'testimony':
      kit.sources.add('meeting', p.meeting_id!, `${p.meeting_title} meeting, ${p.date}`, [`Testimony by ${p.detail}: ${quote(p.title, 300)}.`]);
      return `testimony by ${p.detail} at the ${p.meeting_title} meeting of ${p.date}: ${quote(p.title, 140)}`;
    case 'person': {
      const lobbyist = (p.detail ?? '').startsWith('lobbyist');
      kit.sources.add(lobbyist ? 'lobbyist' : 'person', p.id, p.title, [`${p.title}: ${p.detail}.`]);
      return `${p.title} (${p.detail})`;
    }
    case 'body':
      kit.sources.add('body', p.id, p.title, [`${p.title} (${p.detail}).`]);
      return `the ${p.title}`;
    case 'lobbying_client':
    case 'lobbying_employer': {
      const role = p.type === 'lobbying_client' ? 'a lobbying client' : 'an employer of lobbyists';
      kit.sources.add(p.type, p.id, p.title, [`${p.title}: ${role}${p.detail ? ` in ${p.detail}` : ''}.`]);
      return `${p.title} (${role}${p.detail ? `, ${p.detail}` : ''})`;
    }
    default:
      return p.title;
  }
}

export const passages: Composer = async (kit) => {
  const terms = searchedAs(topicTerms(kit));
  if (terms.length === 0) return null;
  const needed = wordsNeeded(terms.length);
  const rows = (await kit.retrieval.passages(terms, needed, kit.q.range ?? {}, 3)).filter((p) => p.matched >= needed).slice(0, MAX_PASSAGES);
  if (rows.length === 0) return null;
  const items = rows.map((p) => describe(kit, p));
  return [`The records that best match the question${kit.q.range ? ` (${kit.q.range.label})` : ''}: ${items.join('; ')}.`];
};
