// Reading a question without the database: record numbers, wards, date phrases against a fixed
// today, intents, and how names are matched (family names, nicknames, everyday words).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chicagoDay, dateRange } from '../../../src/modules/answers/dates.ts';
import { understand } from '../../../src/modules/answers/question.ts';
import { pickBodies, pickPeople } from '../../../src/modules/answers/resolve.ts';
import { searchedAs, tokens } from '../../../src/modules/answers/text.ts';

const today = '2026-11-20';

test('today is the date in Chicago, not in UTC', () => {
  assert.equal(chicagoDay(new Date('2026-11-21T03:00:00Z')), '2026-11-20');
  assert.equal(chicagoDay(new Date('2026-11-21T07:00:00Z')), '2026-11-21');
});

test('date phrases become ranges of days', () => {
  const cases: [string, { from?: string; to?: string; label: string } | null][] = [
    ['what passed last month', { from: '2026-10-01', to: '2026-10-31', label: 'last month' }],
    ['votes in 2019', { from: '2019-01-01', to: '2019-12-31', label: 'in 2019' }],
    ['since 2020', { from: '2020-01-01', label: 'since 2020' }],
    ['before 2020', { to: '2019-12-31', label: 'before 2020' }],
    ['in March 2023', { from: '2023-03-01', to: '2023-03-31', label: 'in March 2023' }],
    ['in december', { from: '2025-12-01', to: '2025-12-31', label: 'in December 2025' }],
    ['on 2026-09-29', { from: '2026-09-29', to: '2026-09-29', label: 'on 2026-09-29' }],
    ['yesterday', { from: '2026-11-19', to: '2026-11-19', label: 'yesterday' }],
    ['this week', { from: '2026-11-16', to: '2026-11-20', label: 'this week' }],
    ['last week', { from: '2026-11-09', to: '2026-11-15', label: 'last week' }],
    ['last year', { from: '2025-01-01', to: '2025-12-31', label: 'in 2025' }],
    ['in the last 30 days', { from: '2026-10-21', to: '2026-11-20', label: 'in the last 30 days' }],
    ['between 2018 and 2020', { from: '2018-01-01', to: '2020-12-31', label: 'from 2018 to 2020' }],
    ['may I ask about parking', null],
    ['on 2026-02-30', null],
    // A year naming a budget or a levy is part of its name: that budget passed the year before.
    ['did the council pass the 2026 budget', null],
    ['who voted against the fiscal year 2026 levy', null],
  ];
  for (const [text, want] of cases) assert.deepEqual(dateRange(text, today)?.range ?? null, want, text);
});

test('record numbers (any letter case) and wards are read; their digits are not dates', () => {
  const q = understand('How did the 1st ward alderperson and Ward 25 vote on so2026-0025407?', today);
  assert.deepEqual(q.records, ['so2026-0025407']);
  assert.deepEqual(
    q.wards.sort((a, b) => a - b),
    [1, 25],
  );
  assert.equal(q.range, null);
  assert.equal(q.intent, 'vote');
});

test('intents', () => {
  const intents: [string, string][] = [
    ['How did Ald. Hopkins vote on O2024-0001234?', 'vote'],
    ['Who sponsored the parking meter ordinance?', 'sponsor'],
    ['How many ordinances were introduced in 2025?', 'introduced'],
    ['How many ordinances were introduced by Ald. Hopkins?', 'sponsor'],
    ['How many times has Ald. Hopkins voted no this year?', 'record'],
    ['Who voted no the most in 2026?', 'record'],
    ['Which committee handles zoning?', 'chair'],
    ['How many meetings did the Committee on Finance hold in 2023?', 'meeting'],
    ['How many times did the zoning committee meet?', 'meeting'],
    ['What passed at the last City Council meeting?', 'passed'],
    ['Did the Lorenzo Williams settlement pass?', 'matter'],
    ["Who gave the most to Hopkins's committee?", 'donors'],
    ['Which lobbyists reported contact with Ald. Burnett?', 'lobbying'],
    ['Who represents the 3rd ward?', 'representative'],
    ['When is the next City Council meeting?', 'meeting'],
    ['What is SO2026-0025407?', 'matter'],
    ['parking meters', 'search'],
    // Phrasings of the facts computed over many records.
    ['How often does Sigcho-Lopez vote with the majority?', 'record'],
    ['Do Hopkins and Reilly agree?', 'record'],
    ['Was the Foundry Park redevelopment agreement approved?', 'matter'],
    ['Tell me the tally on the Solache settlement', 'vote'],
    ['Who chairs the Finance Committee?', 'chair'],
    ['Who is the vice chair of the Committee on Finance?', 'chair'],
    ['Which committees does Ald. Hopkins sit on?', 'chair'],
    ['What committees is the 25th ward alderman a member of?', 'chair'],
    // Committee members' votes are votes, not memberships.
    ['How did the Finance Committee members vote on SO2026-0025407?', 'vote'],
    ['How many times was Ald. Raymond Lopez in the minority?', 'record'],
    ['Which committee brought in the most campaign cash in 2017?', 'money'],
    ['How much did Ed Burke raise in 2017?', 'money'],
    // "Raise" without words of money is legislation, not campaign money.
    ['Did the council vote to raise the minimum wage?', 'vote'],
    ['Who lobbies for Uber?', 'lobbying'],
    ['Who introduced the Solache settlement order?', 'sponsor'],
    ['What is on the agenda for the next council meeting?', 'meeting'],
    // The council's members, as a whole; a ward's or a committee's are other questions.
    ['How many alderpersons are there?', 'members'],
    ['Who are the aldermen?', 'members'],
    ['How many council members does the City Council have?', 'members'],
    ['Who are the alderpersons of the 3rd ward?', 'representative'],
    ['How many aldermen serve on the Committee on Finance?', 'chair'],
    ['How many aldermen voted against the budget?', 'vote'],
    ['Who testified at the zoning committee meeting on October 12, 2023?', 'meeting'],
    ['What committees is Ald. Hopkins on?', 'chair'],
    ['Who chairs the most committees?', 'chair'],
    ['What is the most recent ordinance?', 'introduced'],
    ['What is the newest legislation about housing?', 'introduced'],
    ['What was the latest ordinance the council passed?', 'passed'],
    ['Who dissents most often?', 'record'],
    ['Who skipped the most roll calls this year?', 'record'],
    ['Which alderman voted against the most settlements?', 'record'],
    ['Who is the longest serving alderman?', 'members'],
    ['Who is the newest alderperson?', 'members'],
    ['Who has served longest on the Committee on Finance?', 'chair'],
    ['How many votes were unanimous in 2026?', 'vote'],
    // Amounts of matters; a vote on one, or campaign or lobbying money, is not.
    ['Which settlement cost the most?', 'amount'],
    ['How much did the city pay in settlements in 2026?', 'amount'],
    ['How did the council vote on the largest settlement?', 'vote'],
    ['How much did lobbyists get paid by Uber?', 'lobbying'],
    ['Which alderperson received the most lobbyist gifts?', 'lobbying'],
    // One matter's own facts: when it came in, where it was sent.
    ['When was the Lorenzo Williams settlement introduced?', 'matter'],
    ['Which committee was the parking meter transfer referred to?', 'matter'],
    ['Who introduced the Solache settlement order?', 'sponsor'],
    // Meetings listed for a period, held or scheduled.
    ['What meetings were held in October 2023?', 'meeting'],
    ['What meetings are scheduled this week?', 'meeting'],
    ['Which meetings did the Committee on Finance hold in 2023?', 'meeting'],
    ["How much did Ald. Hopkins' campaign spend?", 'money'],
    ['Which roll calls did Ald. Hadden miss?', 'record'],
    ['What did Ald. Sigcho-Lopez vote against in 2026?', 'vote'],
  ];
  for (const [text, intent] of intents) assert.equal(understand(text, today).intent, intent, text);
});

test('search terms leave out function words, council vocabulary, dates and record numbers', () => {
  assert.deepEqual(understand('What did the council pass about speed humps in 2019 (O2019-0001234)?', today).terms, ['speed', 'humps']);
  // Control characters, a NUL among them, are not part of a question.
  assert.deepEqual(understand('parking\u0000 meters', today).terms, ['parking', 'meters']);
});

test('words people use for what titles say otherwise are searched as groups, each counted as one word', () => {
  assert.deepEqual(searchedAs(understand('Was the fur ban rejected?', today).terms), ['fur', 'ban|prohibit']);
  assert.deepEqual(searchedAs(understand('Did the council approve the cop contract?', today).terms), ['police', 'contract|agreement']);
  assert.deepEqual(searchedAs(['speed', 'humps']), ['speed', 'humps']);
  // Vote values are not subjects: "who voted yes on the ShotSpotter ordinance" searches ShotSpotter alone.
  assert.deepEqual(searchedAs(understand('Who voted yes on the ShotSpotter ordinance?', today).terms), ['shotspotter|gunshot']);
});

test('a committee is named by part of its name only beside "committee"', () => {
  const bodies = [
    { id: 'police', name: 'Committee on Police and Fire', abbreviation: null, kind: 'committee' as const, active: true },
    { id: 'finance', name: 'Committee on Finance', abbreviation: null, kind: 'committee' as const, active: true },
  ];
  const named = (question: string) => pickBodies(bodies, understand(question, today)).map((b) => b.id);
  assert.deepEqual(named('What did the police committee do?'), ['police']);
  assert.deepEqual(named('What was the vote on the Chicago Police contract?'), []);
  assert.deepEqual(named('Who chairs Finance?'), ['finance']);
});

const person = (id: string, name: string, kind = 'alderperson', ward: number | null = 1) => ({ id, name, kind, ward, current: true });
const pick = (question: string, people: ReturnType<typeof person>[]) => pickPeople(people, new Set(tokens(question))).map((p) => p.id);

test('names: family names alone for alderpersons, nicknames, and no everyday words', () => {
  const alders = [
    person('hopkins', 'Brian Hopkins'),
    person('gardiner', 'James M. Gardiner'),
    person('hall', 'William E. Hall'),
    person('oshea', "Matthew J. O'Shea"),
    person('quinn', 'Marty Quinn'),
  ];
  assert.deepEqual(pick('How did Hopkins vote?', alders), ['hopkins']);
  assert.deepEqual(pick('How did Jim Gardiner vote?', alders), ['gardiner']);
  assert.deepEqual(pick("What did Ald. O'Shea sponsor?", alders), ['oshea']);
  assert.deepEqual(pick('Martin Quinn', alders), ['quinn']);
  // "Hall" is a word of the record ("City Hall"): alone it names no one, with a title or given name it does.
  assert.deepEqual(pick('What happened at City Hall?', alders), []);
  assert.deepEqual(pick('How did Ald. Hall vote?', alders), ['hall']);
  assert.deepEqual(pick('Bill Hall', alders), ['hall']);
  // Two people in one question.
  assert.deepEqual(pick('How did Hopkins and Gardiner vote?', alders).sort(), ['gardiner', 'hopkins']);
});

test('names: anyone but an alderperson needs a given name too, and a repeated word counts once', () => {
  const people = [person('lee', 'Nicole T. Lee'), person('paul', 'PAUL K LEE LEE', 'lobbyist', null), person('smith', 'John Smith', 'lobbyist', null)];
  assert.deepEqual(pick('How did Ald. Lee vote?', people), ['lee']);
  assert.deepEqual(pick('What does Smith lobby for?', people), []);
  assert.deepEqual(pick('What does John Smith lobby for?', people), ['smith']);
  // A shorter family name inside a longer one is the same mention.
  const rs = [person('rodriguez', 'Michael D. Rodriguez'), person('rs', 'Rossana Rodriguez Sanchez')];
  assert.deepEqual(pick('How did Rossana Rodriguez Sanchez vote?', rs), ['rs']);
});

test('a point copied from a map, and the asker’s own alderperson, are questions of who represents where', () => {
  const point = understand('Which ward is 41.8837, -87.6319 in?', today);
  assert.deepEqual(point.point, { lat: 41.8837, lon: -87.6319 });
  assert.equal(point.intent, 'representative');
  assert.deepEqual(point.terms, [], 'the coordinates are not words to search for');
  const own = understand('Who is my alderperson if I live at 121 N LaSalle?', today);
  assert.equal(own.intent, 'representative');
  assert.equal(own.asksOwn, true);
  // Asked something else of them, the question keeps its own intent.
  assert.equal(understand('My alderman is Reilly, how did he vote on the parking meters?', today).intent, 'vote');
  assert.equal(understand('How did the council vote on the budget?', today).point, null);
});
