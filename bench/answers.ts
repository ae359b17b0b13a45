// The answers route in the benchmark: extractive answers (the service runs without a model) to
// questions about the synthetic council, each request a different question. "How did Ald. X vote
// on <record>?" resolves a name and a record number, reads the matter and the votes; "What did the
// council do about <words>?" ranks passages across every kind of record.
import pg from 'pg';
import type { Target } from './measure.ts';

export interface AnswerFixtures {
  votes: string[];
  passages: string[];
}

export async function answerFixtures(databaseUrl: string, terms: string[]): Promise<AnswerFixtures> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const records = await client.query<{ r: string }>(
      "select m.record_number as r from matters m where m.source = 'bench' and exists (select 1 from roll_calls c where c.matter_id = m.id) order by random() limit 500",
    );
    const alders = await client.query<{ name: string }>("select name from people where source = 'bench' and kind = 'alderperson' order by ward");
    const family = alders.rows.map((a) => a.name.split(' ').at(-1)!);
    const votes = records.rows.map((row, i) => `How did Ald. ${family[i % family.length]} vote on ${row.r}?`);
    const passages = terms.flatMap((t) => ['What did the council do about', 'Which records mention', 'Anything on'].map((lead) => `${lead} ${t}?`));
    return { votes, passages };
  } finally {
    await client.end();
  }
}

const body = (question: string) => JSON.stringify({ question });

export function answerTargets(url: string, headers: Record<string, string>, f: AnswerFixtures): Array<{ target: Target; expect: (b: any) => boolean }> {
  const expect = (b: any) => typeof b?.answer === 'string' && b.model === 'extractive' && Array.isArray(b.citations) && b.citations.length > 0;
  return [
    { target: { name: 'POST /api/v1/answers (how did X vote on Y)', url, paths: ['/api/v1/answers'], headers, bodies: f.votes.map(body) }, expect },
    { target: { name: 'POST /api/v1/answers (passages)', url, paths: ['/api/v1/answers'], headers, bodies: f.passages.map(body) }, expect },
  ];
}
