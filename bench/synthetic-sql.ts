// The synthetic council as set-based SQL: each step is one INSERT … SELECT over generate_series,
// so PostgreSQL builds millions of rows without a round trip per row. Randomness comes from
// random() after setseed() (same data on every generation) and, for votes, from a hash of
// (matter, ward) so tallies and statuses can be computed before the votes are written and
// always equal their sums.
import * as words from './synthetic-words.ts';

export const sizes = {
  matters: 200_000,
  meetings: 5_000,
  alderpersons: 50,
  committees: words.committees.length,
  /** Every 28th meeting is a City Council meeting (about one a month); the rest are committees. */
  councilEvery: 28,
  /** Matters are introduced at meetings 1..introMeetings, which all lie in the past. */
  introMeetings: 4_800,
  voteChunks: 10,
} as const;

/** Every even-numbered matter gets one roll call of all 50 alderpersons. */
export const rollCalls = sizes.matters / 2;
export const votes = rollCalls * sizes.alderpersons;

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
const arr = (list: readonly string[]) => `array[${list.map(q).join(',')}]::text[]`;
/** One entry per call; `skewed` makes early entries far more likely (a rough Zipf curve). */
const pick = (list: readonly string[], skewed = false) => `(${arr(list)})[1 + floor(${skewed ? 'power(random(), 2)' : 'random()'} * ${list.length})::int]`;
const int = (lo: number, hi: number) => `(${lo} + floor(random() * ${hi - lo + 1}))::int`;
const pad = (expr: string, width: number) => `lpad((${expr})::text, ${width}, '0')`;

export const personId = (ward: string) => `'bench-person-' || ${pad(ward, 2)}`;
export const meetingId = (i: string) => `'bench-meeting-' || ${pad(i, 4)}`;
const bodyId = (b: string) => `'bench-body-' || ${pad(b, 2)}`;
const meetingTime = (i: string) => `(timestamptz '2011-01-03 10:00:00-06' + ((${i}) - 1) * interval '28 hours')`;
const chicagoDate = (ts: string) => `((${ts}) at time zone 'America/Chicago')::date`;

export const alderNames: string[] = Array.from({ length: sizes.alderpersons }, (_, i) => {
  const w = i + 1;
  return `${words.givenNames[(w * 7) % words.givenNames.length]} ${words.familyNames[(w * 11) % words.familyNames.length]}`;
});
const officials = [
  { key: 'mayor', given: 'Teresa', family: 'Alvarez', office: 'Mayor' },
  { key: 'clerk', given: 'Marcus', family: 'Bell', office: 'City Clerk' },
  { key: 'treasurer', given: 'Hannah', family: 'Lindqvist', office: 'City Treasurer' },
];

/**
 * One alderperson's vote on matter `n`, from a hash of (n, ward): mostly Yea; about one matter
 * in 97 is contentious and splits the council.
 */
export function voteExpr(n: string, ward: string): string {
  const h = `mod(hashint8((${n})::bigint * 100 + (${ward}))::bigint + 2147483648, 1000)`;
  return `case when (${n}) % 97 = 0 then
      (case when ${h} < 430 then 'Yea' when ${h} < 900 then 'Nay' when ${h} < 970 then 'Absent' else 'Not Voting' end)
    else
      (case when ${h} < 905 then 'Yea' when ${h} < 940 then 'Nay' when ${h} < 985 then 'Absent'
            when ${h} < 993 then 'Not Voting' when ${h} < 998 then 'Present' else 'Recused' end)
    end`;
}

const address = () => `${int(1, 12000)} || ' ' || ${pick(words.directions)} || ' ' || ${pick(words.streets, true)}`;
const person = () => `${pick(words.givenNames)} || ' ' || ${pick(words.familyNames)}`;
const business = () => `${pick(words.familyNames)} || '''s ' || ${pick(words.businessKinds, true)}`;
const topic = () => pick(words.topics, true);

// Title and category by type and template number (tpl 0..3): Chicago's own phrasing.
const titles: Record<string, Array<[string, string]>> = {
  Ordinance: [
    ['Municipal Code Amendment', `'Amendment of Municipal Code Chapter ' || ${int(2, 19)} || '-' || ${int(1, 200)} || ' regarding ' || ${topic()}`],
    ['Zoning Reclassification', `'Zoning Reclassification Map No. ' || ${int(1, 28)} || '-' || chr(${int(65, 76)}) || ' at ' || ${address()}`],
    ['Grant of Privilege', `'Grant of privilege in public way for ' || ${business()} || ' at ' || ${address()}`],
    ['Intergovernmental Agreement', `'Intergovernmental agreement with ' || ${pick(words.agencies)} || ' regarding ' || ${topic()}`],
  ],
  Order: [
    ['Sign Permit', `'Sign permit for ' || ${business()} || ' at ' || ${address()}`],
    ['Traffic Regulation', `'Installation of ' || ${pick(words.trafficThings, true)} || ' on ' || ${pick(words.streets, true)}`],
    ['Permit Parking', `'Residential permit parking zone on ' || ${pick(words.streets, true)} || ' in Ward ' || ${int(1, 50)}`],
    ['Sewer Refund', `'Senior citizen sewer refund for ' || ${person()} || ' at ' || ${address()}`],
  ],
  Resolution: [
    ['Hearing Call', `'Call for hearing on ' || ${topic()}`],
    ['Honorific', `'Congratulations extended to ' || ${person()} || ' on ' || ${pick(words.occasions)}`],
    ['Hearing Call', `'Call for hearing on ' || ${topic()} || ' in Ward ' || ${int(1, 50)}`],
    ['Declaration', `'Declaration of support for ' || ${topic()} || ' initiatives'`],
  ],
  Claim: [['Claim', `'Claim of ' || ${person()} || ' for ' || ${pick(['damage to vehicle', 'property damage', 'personal injury', 'sewer backup'])}`]],
  Appointment: [['Appointment', `'Appointment of ' || ${person()} || ' as member of ' || ${pick(words.boards)}`]],
  Communication: [['Report', `'Report of ' || ${pick(words.agencies)} || ' on ' || ${topic()}`]],
};

function byTemplate(index: 0 | 1): string {
  const arms = Object.entries(titles).flatMap(([type, list]) =>
    list.map(([category, title], tpl) => `when b.type = ${q(type)} and b.tpl % ${list.length} = ${tpl} then ${index === 0 ? q(category) : title}`),
  );
  return `case ${arms.join('\n      ')} end`;
}

export interface Step {
  label: string;
  sql: string;
}

const names = arr(alderNames);
const sponsorWard = (k: string) => `1 + ((m.n * 7 + (${k}) * 17) % ${sizes.alderpersons})`;

export function steps(): Step[] {
  const { matters, meetings, alderpersons, councilEvery, introMeetings } = sizes;
  const list: Step[] = [
    { label: 'seed', sql: 'select setseed(0.42)' },
    {
      label: 'bodies',
      sql: `insert into bodies (id, name, abbreviation, kind, source, source_id)
        values ('bench-body-01', 'City Council', 'Council', 'council', 'bench', '1'),
        ${words.committees.map((name, i) => `('bench-body-${String(i + 2).padStart(2, '0')}', ${q(name)}, null, 'committee', 'bench', '${i + 2}')`).join(',\n')}`,
    },
    {
      label: 'people',
      sql: `insert into people (id, name, sort_name, given_name, family_name, kind, ward, current, email, source, source_id)
        values ${alderNames
          .map((name, i) => {
            const [given, family] = name.split(' ') as [string, string];
            const w = String(i + 1).padStart(2, '0');
            return `('bench-person-${w}', ${q(name)}, ${q(`${family}, ${given}`)}, ${q(given)}, ${q(family)}, 'alderperson', ${i + 1}, true, 'ward${w}@bench.invalid', 'bench', 'ward-${w}')`;
          })
          .concat(
            officials.map(
              (o) =>
                `('bench-person-${o.key}', ${q(`${o.given} ${o.family}`)}, ${q(`${o.family}, ${o.given}`)}, ${q(o.given)}, ${q(o.family)}, 'official', null, true, null, 'bench', '${o.key}')`,
            ),
          )
          .join(',\n')}`,
    },
    {
      label: 'terms and memberships',
      sql: `insert into person_terms (person_id, office, ward, start_date)
          select ${personId('w')}, 'Alderperson', w, date '2023-05-15' from generate_series(1, ${alderpersons}) w
          union all values ${officials.map((o) => `('bench-person-${o.key}', ${q(o.office)}, null::int, date '2023-05-15')`).join(', ')};
        insert into body_memberships (body_id, person_id, role, start_date)
          select ${bodyId('b')}, ${personId(`1 + ((b * 11 + j * 7) % ${alderpersons})`)},
                 case j when 0 then 'Chair' when 1 then 'Vice Chair' else 'Member' end, date '2023-05-15'
          from generate_series(2, ${sizes.committees + 1}) b cross join generate_series(0, 9) j`,
    },
    {
      label: `${meetings} meetings`,
      sql: `insert into meetings (id, body_id, body_name, start_time, location, status, source, source_id)
        select ${meetingId('i')}, b.id, b.name, ${meetingTime('i')},
               case when b.kind = 'council' then ${q(words.locations[0]!)} else ${pick(words.locations.slice(1))} end,
               case when ${meetingTime('i')} > now() then 'scheduled' else 'held' end, 'bench', i::text
        from generate_series(1, ${meetings}) i
        join bodies b on b.id = case when i % ${councilEvery} = 0 then 'bench-body-01' else ${bodyId(`2 + i % ${sizes.committees}`)} end`,
    },
    {
      // Per-matter facts every later step reads: type, dates, meeting numbers, vote tallies.
      label: 'matter plan',
      sql: `create temp table bench_m on commit drop as
        with b as (
          select n,
                 case when n % 20 < 6 then 'Ordinance' when n % 20 < 13 then 'Order' when n % 20 < 16 then 'Resolution'
                      when n % 20 < 18 then 'Claim' when n % 20 = 18 then 'Appointment' else 'Communication' end as type,
                 1 + ((n - 1)::bigint * ${introMeetings} / ${matters})::int as mi,
                 n % 2 = 0 as voted,
                 floor(random() * 4)::int as tpl
          from generate_series(1, ${matters}) n
        )
        select b.n, b.type, b.mi, b.voted, b.tpl,
               'bench-matter-' || ${pad('b.n', 6)} as id,
               ${chicagoDate(meetingTime('b.mi'))} as intro_date,
               case when b.voted then (b.mi / ${councilEvery} + 1 + b.n % 3) * ${councilEvery} end as rc_meeting,
               ${byTemplate(0)} as category,
               ${byTemplate(1)} as title,
               case b.type when 'Appointment' then 0 when 'Communication' then 0 else 1 + b.n % 3 end as sponsor_count,
               2 + b.n % 4 as action_count,
               case when random() < 0.4 then array[${topic()}, ${topic()}] else array[${topic()}] end as topics,
               coalesce(t.yea, 0) as yea, coalesce(t.nay, 0) as nay, coalesce(t.absent, 0) as absent,
               coalesce(t.not_voting, 0) as not_voting, coalesce(t.present, 0) as present, coalesce(t.recused, 0) as recused
        from b
        left join lateral (
          select count(*) filter (where v = 'Yea')::int as yea, count(*) filter (where v = 'Nay')::int as nay,
                 count(*) filter (where v = 'Absent')::int as absent, count(*) filter (where v = 'Not Voting')::int as not_voting,
                 count(*) filter (where v = 'Present')::int as present, count(*) filter (where v = 'Recused')::int as recused
          from (select ${voteExpr('b.n', 'w')} as v from generate_series(1, ${alderpersons}) w) x
        ) t on b.voted;
        alter table bench_m add column rc_date date, add column passed boolean, add column record_number text, add column sponsor_names text;
        update bench_m set
          rc_date = ${chicagoDate(meetingTime('rc_meeting'))},
          passed = case when voted then yea > ${alderpersons / 2} end,
          record_number = (case type when 'Ordinance' then 'O' when 'Order' then 'Or' when 'Resolution' then 'R' when 'Claim' then 'CL'
                           when 'Appointment' then 'A' else 'F' end) || extract(year from intro_date)::int || '-' || ${pad('n', 7)},
          sponsor_names = case when type = 'Appointment' then ${q(`${officials[0]!.given} ${officials[0]!.family}`)}
                          else array_to_string((array[${[0, 1, 2].map((k) => `(${names})[${sponsorWard(String(k)).replaceAll('m.n', 'n')}]`).join(', ')}])[1:sponsor_count], ' ') end`,
    },
    {
      label: `${matters} matters`,
      sql: `insert into matters (id, record_number, type, title, status, category, introduction_date, final_action_date,
                                 controlling_body_id, topics, sponsor_names, source, source_id, source_url)
        select m.id, m.record_number, m.type, m.title,
               case when m.voted and m.passed then (case m.type when 'Resolution' then 'Adopted' when 'Appointment' then 'Approved' else 'Passed' end)
                    when m.voted then 'Failed to Pass'
                    else (array['In Committee', 'Placed on File', 'Referred', 'Introduced', 'Withdrawn'])[1 + m.n % 5] end,
               m.category, m.intro_date, m.rc_date, ${bodyId(`2 + m.n % ${sizes.committees}`)}, m.topics, m.sponsor_names,
               'bench', m.n::text, 'https://bench.invalid/matters/' || m.n
        from bench_m m order by m.n`,
    },
    {
      label: 'sponsors',
      sql: `insert into matter_sponsors (matter_id, person_id, name, role, sort)
          select m.id, ${personId(sponsorWard('k'))}, (${names})[${sponsorWard('k')}],
                 case k when 0 then 'sponsor' else 'cosponsor' end, k
          from bench_m m cross join lateral generate_series(0, m.sponsor_count - 1) k;
        insert into matter_sponsors (matter_id, person_id, name, role, sort)
          select m.id, 'bench-person-mayor', m.sponsor_names, 'sponsor', 0 from bench_m m where m.type = 'Appointment'`,
    },
    {
      label: 'actions',
      sql: `insert into matter_actions (id, matter_id, sort, action_date, action_name, body_id, body_name, meeting_id, result, source, source_id)
        select a.id, m.id, k, a.action_date, a.name, a.body_id, bo.name, a.meeting_id, a.result, 'bench', a.id
        from bench_m m
        cross join lateral generate_series(1, m.action_count) k
        cross join lateral (
          select 'bench-action-' || ${pad('m.n', 6)} || '-' || k as id,
                 m.voted and k = m.action_count as is_vote
        ) v
        cross join lateral (
          select v.id,
                 case when v.is_vote then m.rc_date when m.voted then m.intro_date + (m.rc_date - m.intro_date) * (k - 1) / m.action_count
                      else least(m.intro_date + (k - 1) * 14, current_date) end as action_date,
                 case when v.is_vote then (case when not m.passed then 'Failed to Pass' when m.type = 'Resolution' then 'Adopted'
                                                when m.type = 'Appointment' then 'Approved' else 'Passed' end)
                      else (array['Introduced', 'Referred', 'Recommended to Pass', 'Held in Committee', 'Deferred and Published'])[k] end as name,
                 case when k = 1 or v.is_vote then 'bench-body-01' else ${bodyId(`2 + m.n % ${sizes.committees}`)} end as body_id,
                 case when k = 1 then ${meetingId('m.mi')} when v.is_vote then ${meetingId('m.rc_meeting')} end as meeting_id,
                 case when v.is_vote then (case when m.passed then 'Pass' else 'Fail' end) end as result
        ) a
        join bodies bo on bo.id = a.body_id
        order by m.n, k`,
    },
    {
      label: `${rollCalls} roll calls`,
      sql: `insert into roll_calls (id, matter_id, action_id, meeting_id, body_id, date, action_name, result,
                                    yea, nay, absent, not_voting, present, recused, source, source_id)
        select 'bench-rc-' || ${pad('m.n', 6)}, m.id, 'bench-action-' || ${pad('m.n', 6)} || '-' || m.action_count,
               ${meetingId('m.rc_meeting')}, 'bench-body-01', m.rc_date,
               case when m.type = 'Resolution' then 'Adopted' when m.type = 'Appointment' then 'Approved' else 'Passed' end,
               case when m.passed then 'Pass' else 'Fail' end,
               m.yea, m.nay, m.absent, m.not_voting, m.present, m.recused, 'bench', m.n::text
        from bench_m m where m.voted order by m.n`,
    },
  ];
  const per = Math.ceil(matters / sizes.voteChunks);
  for (let c = 0; c < sizes.voteChunks; c++) {
    list.push({
      label: `votes ${c + 1}/${sizes.voteChunks}`,
      sql: `insert into votes (roll_call_id, person_id, value, date, matter_id)
        select 'bench-rc-' || ${pad('m.n', 6)}, ${personId('w')}, ${voteExpr('m.n', 'w')}, m.rc_date, m.id
        from bench_m m cross join generate_series(1, ${alderpersons}) w
        where m.voted and m.n > ${c * per} and m.n <= ${(c + 1) * per}
        order by m.n, w`,
    });
  }
  list.push(
    {
      label: 'agenda items',
      sql: `insert into agenda_items (id, meeting_id, sort, matter_id, record_number, title, action_text)
          select 'bench-item-' || ${pad('m.n', 6)} || '-i', ${meetingId('m.mi')}, m.n, m.id, m.record_number, m.title, 'Introduced'
          from bench_m m
        union all
          select 'bench-item-' || ${pad('m.n', 6)} || '-v', ${meetingId('m.rc_meeting')}, m.n, m.id, m.record_number, m.title,
                 case when m.passed then 'Passed' else 'Failed to Pass' end
          from bench_m m where m.voted`,
    },
    {
      label: 'attendance',
      sql: `insert into attendance (meeting_id, person_id, value)
        select mt.id, ${personId('w')}, case when mod(hashint8(mt.source_id::bigint * 100 + w)::bigint + 2147483648, 100) < 95 then 'Present' else 'Absent' end
        from meetings mt cross join generate_series(1, ${alderpersons}) w
        where mt.source = 'bench' and mt.body_id = 'bench-body-01' and mt.status = 'held'`,
    },
  );
  return list;
}
