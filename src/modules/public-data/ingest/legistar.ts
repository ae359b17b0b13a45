// Legistar Web API for any Legistar city (`legistar:<client>`): Bodies, Persons, OfficeRecords,
// then Matters (+ Histories, Sponsors, Attachments), then Events (+ EventItems, Votes). Pages with
// $top/$skip; incremental with $filter on the LastModifiedUtc fields from the watermark.
import { type AdapterOutcome, type AdapterRun, counter, pages } from './adapter.ts';
import type { MatterRows, MeetingRows } from './elms-map.ts';
import { actionRow, bodyRow, day, type L, legistarId, matterRow, meetingRow, personRow } from './legistar-map.ts';
import { tallies, voteValue } from './names.ts';
import { replaceChildren, type Row, upsertRows } from './store.ts';
import { later } from './sync-state.ts';
import { existingIds, writeMatters, writeMeetings, writeRollCalls } from './write.ts';

export const LEGISTAR_BASE_URL = 'https://webapi.legistar.com';
const PAGE = { top: '$top', skip: '$skip', size: 1000 };

export function syncLegistar(client: string) {
  return async (run: AdapterRun): Promise<AdapterOutcome> => {
    const base = `/v1/${client}`;
    const { db, transport } = run;
    const source = `legistar:${client}`;
    const since = run.since ? run.since.slice(0, 19) : null;
    const modified = (field: string) => (since ? { $filter: `${field} gt datetime'${since}'` } : {});
    let highWater: string | null = null;
    const list = async (path: string, query: Record<string, string> = {}) => {
      const all: L[] = [];
      for await (const page of pages<L>(transport, `${base}${path}`, query, PAGE)) all.push(...page);
      return all;
    };

    // Bodies, people and terms.
    const people = counter(run, 'bodies and people');
    const bodies = await list('/Bodies');
    const bodyRows = bodies.map((b) => bodyRow(client, b, transport.url(`${base}/Bodies/${b.BodyId}`)));
    const councilIds = new Set(bodyRows.filter((b) => b.kind === 'council').map((b) => String(b.source_id)));
    const records = await list('/OfficeRecords');
    const today = run.clock.now().toISOString().slice(0, 10);
    const council = new Map<string, { current: boolean }>();
    for (const r of records.filter((x) => councilIds.has(String(x.OfficeRecordBodyId)))) {
      const end = day(r.OfficeRecordEndDate);
      const had = council.get(String(r.OfficeRecordPersonId));
      council.set(String(r.OfficeRecordPersonId), { current: (had?.current ?? false) || end === null || end >= today });
    }
    const persons = await list('/Persons');
    const personRows = persons.map((p) => personRow(client, p, transport.url(`${base}/Persons/${p.PersonId}`), council.get(String(p.PersonId))));
    const personIds = new Set(personRows.map((p) => String(p.id)));
    const bodyIds = new Set(bodyRows.map((b) => String(b.id)));
    const memberships = records
      .map((r) => ({
        body_id: legistarId(client, 'body', r.OfficeRecordBodyId),
        person_id: legistarId(client, 'person', r.OfficeRecordPersonId),
        role: (r.OfficeRecordTitle ?? r.OfficeRecordMemberType ?? 'Member').toString().trim() || 'Member',
        start_date: day(r.OfficeRecordStartDate),
        end_date: day(r.OfficeRecordEndDate),
      }))
      .filter((m) => bodyIds.has(m.body_id) && personIds.has(m.person_id));
    const uniqueMemberships = [...new Map(memberships.map((m) => [`${m.body_id}|${m.person_id}|${m.role}|${m.start_date}`, m])).values()];
    const changedPeople = await db.transaction().execute(async (trx) => {
      const b = await upsertRows(trx, 'bodies', bodyRows);
      const p = await upsertRows(trx, 'people', personRows);
      const cols = ['body_id', 'person_id', 'role', 'start_date', 'end_date'];
      const m = await replaceChildren(trx, 'body_memberships', 'body_id', [...bodyIds], uniqueMemberships, cols);
      return new Set([...b, ...m]).size + p.size;
    });
    people.add(bodyRows.length + personRows.length, changedPeople);
    const peopleDone = people.done();

    // Matters with their histories (actions), sponsors and attachments.
    const matters = counter(run, 'matters', 100);
    for await (const page of pages<L>(transport, `${base}/Matters`, modified('MatterLastModifiedUtc'), PAGE)) {
      const batch: MatterRows[] = [];
      for (const m of page) {
        highWater = later(highWater, m.MatterLastModifiedUtc ?? null);
        const id = legistarId(client, 'matter', m.MatterId);
        const histories = (await transport.json<L[]>(`${base}/Matters/${m.MatterId}/Histories`)) ?? [];
        const sponsors = ((await transport.json<L[]>(`${base}/Matters/${m.MatterId}/Sponsors`)) ?? []).sort(
          (a, b) => (a.MatterSponsorSequence ?? 0) - (b.MatterSponsorSequence ?? 0),
        );
        const attachments = (await transport.json<L[]>(`${base}/Matters/${m.MatterId}/Attachments`)) ?? [];
        // The same history can be listed twice (a known Legistar duplicate); keep one.
        const uniqueHistories = [...new Map(histories.map((h) => [h.MatterHistoryId, h])).values()].sort(
          (a, b) => String(a.MatterHistoryActionDate).localeCompare(String(b.MatterHistoryActionDate)) || a.MatterHistoryId - b.MatterHistoryId,
        );
        const sponsorRows = [...new Map(sponsors.map((s) => [String(s.MatterSponsorName).trim(), s])).values()].map((s, i) => {
          const personId = legistarId(client, 'person', s.MatterSponsorNameId);
          return {
            matter_id: id,
            person_id: personIds.has(personId) ? personId : null,
            name: String(s.MatterSponsorName).trim(),
            role: i === 0 ? 'sponsor' : 'cosponsor',
            sort: i,
          };
        });
        batch.push({
          matter: matterRow(
            client,
            m,
            transport.url(`${base}/Matters/${m.MatterId}`),
            sponsorRows.map((s) => s.name),
            bodyIds.has(legistarId(client, 'body', m.MatterBodyId)),
          ),
          sponsors: sponsorRows,
          actions: uniqueHistories.map((h, i) => actionRow(client, id, h, i + 1, bodyIds.has(legistarId(client, 'body', h.MatterHistoryActionBodyId)))),
          attachments: [...new Map(attachments.filter((a) => a.MatterAttachmentHyperlink).map((a) => [a.MatterAttachmentHyperlink, a])).values()].map(
            (a, i) => ({
              matter_id: id,
              sort: i + 1,
              name: String(a.MatterAttachmentName ?? a.MatterAttachmentFileName ?? 'Attachment'),
              kind: null,
              url: String(a.MatterAttachmentHyperlink),
            }),
          ),
          relations: [],
          rollCalls: [],
          votes: [],
          unmatched: [],
        });
      }
      matters.add(batch.length, await writeMatters(db, batch, false));
    }
    const mattersDone = matters.done();

    // Events with their items; an item with votes is a roll call.
    const events = counter(run, 'meetings', 100);
    const now = run.clock.now();
    for await (const page of pages<L>(transport, `${base}/Events`, modified('EventLastModifiedUtc'), PAGE)) {
      const batch: MeetingRows[] = [];
      const rollCalls: Row[] = [];
      const votes: Row[] = [];
      const itemsByEvent = new Map<string, L[]>();
      for (const e of page) {
        highWater = later(highWater, e.EventLastModifiedUtc ?? null);
        itemsByEvent.set(String(e.EventId), (await transport.json<L[]>(`${base}/Events/${e.EventId}/EventItems`)) ?? []);
      }
      const matterIds = [...itemsByEvent.values()]
        .flat()
        .filter((i) => i.EventItemMatterId)
        .map((i) => legistarId(client, 'matter', i.EventItemMatterId));
      const knownMatters = await existingIds(db, 'matters', [...new Set(matterIds)]);
      const actionIds = [...itemsByEvent.values()].flat().map((i) => legistarId(client, 'action', i.EventItemId));
      const knownActions = await existingIds(db, 'matter_actions', actionIds);
      for (const e of page) {
        const meeting = meetingRow(client, e, transport.url(`${base}/Events/${e.EventId}`), now, bodyIds.has(legistarId(client, 'body', e.EventBodyId)));
        const items = (itemsByEvent.get(String(e.EventId)) ?? []).sort((a, b) => (a.EventItemAgendaSequence ?? 0) - (b.EventItemAgendaSequence ?? 0));
        const agenda = items.map((it, i) => {
          const matterId = it.EventItemMatterId ? legistarId(client, 'matter', it.EventItemMatterId) : null;
          return {
            id: legistarId(client, 'item', it.EventItemId),
            meeting_id: meeting.id,
            sort: i + 1,
            matter_id: matterId && knownMatters.has(matterId) ? matterId : null,
            record_number: it.EventItemMatterFile ?? null,
            title: it.EventItemTitle ?? null,
            action_text: it.EventItemActionText ?? null,
            minutes_note: it.EventItemMinutesNote ?? null,
          };
        });
        for (const it of items.filter((x) => x.EventItemRollCallFlag === 1 || x.EventItemPassedFlag !== null)) {
          const raw = (await transport.json<L[]>(`${base}/EventItems/${it.EventItemId}/Votes`)) ?? [];
          const rollCallId = legistarId(client, 'rollcall', it.EventItemId);
          const values = raw
            .map((v) => ({ person: legistarId(client, 'person', v.VotePersonId), value: voteValue(v.VoteValueName) }))
            .filter((v) => v.value && personIds.has(v.person));
          const unique = [...new Map(values.map((v) => [v.person, v])).values()];
          if (unique.length === 0) continue;
          const matterId = it.EventItemMatterId ? legistarId(client, 'matter', it.EventItemMatterId) : null;
          const date = String(meeting.start_time).slice(0, 10);
          rollCalls.push({
            id: rollCallId,
            matter_id: matterId && knownMatters.has(matterId) ? matterId : null,
            action_id: knownActions.has(legistarId(client, 'action', it.EventItemId)) ? legistarId(client, 'action', it.EventItemId) : null,
            meeting_id: meeting.id,
            body_id: meeting.body_id,
            date,
            action_name: it.EventItemActionName ?? 'Vote',
            result: it.EventItemPassedFlagName ?? null,
            ...tallies(unique.map((v) => v.value!)),
            source,
            source_id: String(it.EventItemId),
            source_url: transport.url(`${base}/EventItems/${it.EventItemId}/Votes`),
          });
          for (const v of unique)
            votes.push({
              roll_call_id: rollCallId,
              person_id: v.person,
              value: v.value,
              date,
              matter_id: matterId && knownMatters.has(matterId) ? matterId : null,
            });
        }
        batch.push({ meeting, documents: meetingDocuments(meeting.id as string, e), agenda, attendance: [] });
      }
      let changed = await writeMeetings(db, batch);
      changed += (await db.transaction().execute((trx) => writeRollCalls(trx, rollCalls, votes, [], source))).rollCalls.size;
      events.add(batch.length, changed);
    }
    const eventsDone = events.done();
    return {
      seen: peopleDone.seen + mattersDone.seen + eventsDone.seen,
      changed: peopleDone.changed + mattersDone.changed + eventsDone.changed,
      highWater,
    };
  };
}

function meetingDocuments(meetingId: string, e: L): Row[] {
  return [
    ['Agenda', e.EventAgendaFile],
    ['Minutes', e.EventMinutesFile],
  ]
    .filter(([, url]) => typeof url === 'string' && url)
    .map(([kind, url], i) => ({ meeting_id: meetingId, sort: i + 1, name: `${kind}`, kind, url }));
}
