// Positions and stances: the team's stance on a bill IS its positions row, so the positions routes
// and the stance routes change the same row, and every change of a stance appends a history entry
// (stance, previous, source, at, by). All position writes of a team take one transaction-scoped
// advisory lock, so concurrent changes queue and each history entry's `previous` is exact.
import { sql } from 'kysely';
import type { Actor } from '../../kernel/actor.ts';
import type { Call } from '../../kernel/catalogue.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Kit } from './kit.ts';
import * as policy from './policy.ts';
import { presentPosition, presentStance } from './presenters.ts';
import * as repo from './repo.ts';
import * as prepo from './repo-positions.ts';
import type { ListInput, PositionIn, PositionOut, StanceRecordOut, StanceSource, StanceValue } from './schema.ts';

type Change = { kind: 'created' | 'updated' | 'deleted'; id: string };

export function createPositionsService(kit: Kit) {
  const { db } = kit;

  async function lockTeamPositions(trx: repo.Db, teamId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`team_positions:${teamId}`}, 0))`.execute(trx);
  }

  function history(
    actor: Actor,
    teamId: string,
    matterId: string,
    stance: StanceValue | null,
    previous: StanceValue | null,
    source: StanceSource,
  ): prepo.HistoryInsert {
    return { team_id: teamId, matter_id: matterId, stance, previous, source, at: kit.clock.now(), ...policy.historyAuthor(actor) };
  }

  /** Writes one position inside `trx`; returns the row and what changed (null: nothing did). */
  async function put(
    trx: repo.Db,
    actor: Actor,
    teamId: string,
    m: { id: string; recordNumber: string },
    want: { stance: StanceValue; label?: string | undefined },
    source: StanceSource,
  ) {
    const existing = await prepo.findPosition(trx, teamId, { matterId: m.id });
    const label = want.label ?? existing?.label ?? '';
    if (existing && existing.stance === want.stance && existing.label === label) return { row: existing, change: null };
    const row = await prepo.upsertPosition(trx, {
      id: existing?.id ?? kit.newId('pos'),
      teamId,
      matterId: m.id,
      recordNumber: m.recordNumber,
      label,
      stance: want.stance,
      at: kit.clock.now(),
    });
    if (existing?.stance !== want.stance) await prepo.insertHistory(trx, [history(actor, teamId, m.id, want.stance, existing?.stance ?? null, source)]);
    return { row, change: { kind: existing ? 'updated' : 'created', id: row.id } as Change };
  }

  async function clear(trx: repo.Db, actor: Actor, teamId: string, row: prepo.PositionRow, source: StanceSource): Promise<Change> {
    await prepo.deletePosition(trx, teamId, row.id);
    await prepo.insertHistory(trx, [history(actor, teamId, row.matter_id, null, row.stance, source)]);
    return { kind: 'deleted', id: row.id };
  }

  /** Resolves every record number of a positions body; unknown ones are one 404 naming them all. */
  async function resolveAll(positions: PositionIn[]) {
    const seen = new Set<string>();
    for (const p of positions) {
      const key = p.recordId.trim().toLowerCase();
      if (seen.has(key)) throw new AppError('invalid_request', `Record ${p.recordId} appears more than once in positions.`);
      seen.add(key);
    }
    const found = await kit.directory.mattersByRecord(positions.map((p) => p.recordId.trim()));
    const unknown = positions.filter((p) => !found.has(p.recordId.trim().toLowerCase())).map((p) => p.recordId);
    if (unknown.length) throw new AppError('not_found', `No matter with record number ${unknown.map((r) => `"${r}"`).join(', ')}.`);
    return positions.map((p) => ({ ...p, matter: found.get(p.recordId.trim().toLowerCase())! }));
  }

  async function announce(teamId: string, kind: 'position' | 'stance', changes: Change[]): Promise<void> {
    for (const c of changes) await kit.emit({ teamId, kind, action: c.kind, id: c.id });
  }

  async function write(actor: Actor, body: { positions: PositionIn[] }, replace: boolean, call: Call): Promise<{ data: PositionOut[] }> {
    const teamId = policy.teamOf(actor);
    const source = policy.stanceSource(call, 'v2.positions');
    const wanted = await resolveAll(body.positions);
    const changes: Change[] = [];
    const rows = await db.transaction().execute(async (trx) => {
      await lockTeamPositions(trx, teamId);
      if (replace) {
        const keep = new Set(wanted.map((w) => w.matter.id));
        for (const row of await prepo.allPositions(trx, teamId)) {
          if (!keep.has(row.matter_id)) changes.push(await clear(trx, actor, teamId, row, source));
        }
      }
      const out: prepo.PositionRow[] = [];
      for (const w of wanted) {
        const r = await put(trx, actor, teamId, w.matter, { stance: w.stance, label: w.label }, source);
        if (r.change) changes.push(r.change);
        out.push(r.row);
      }
      return replace ? prepo.allPositions(trx, teamId) : out;
    });
    await announce(teamId, 'position', changes);
    return { data: rows.map(presentPosition) };
  }

  async function stanceRecord(q: repo.Db, teamId: string, record: string, matterId: string): Promise<StanceRecordOut> {
    const row = await prepo.findPosition(q, teamId, { matterId });
    if (!row) throw new AppError('not_found', `The team has no stance on ${record}.`);
    return presentStance(row, await prepo.historyOf(q, teamId, matterId));
  }

  return {
    positions: {
      async list(actor: Actor, input: ListInput) {
        const teamId = policy.teamOf(actor);
        const rows = await prepo.listPositions(db, teamId, input.limit, repo.decodeCursor(input.cursor));
        return repo.page(rows, input.limit, presentPosition);
      },
      /** PUT: the body becomes the team's whole set; positions not in it are cleared. */
      replace: (actor: Actor, input: { positions: PositionIn[] }, call: Call) => write(actor, input, true, call),
      /** POST: adds or updates the positions in the body, by record number. */
      upsert: (actor: Actor, input: { positions: PositionIn[] }, call: Call) => write(actor, input, false, call),
      async remove(actor: Actor, input: { id: string }, call: Call) {
        const teamId = policy.teamOf(actor);
        const source = policy.stanceSource(call, 'v2.positions');
        const change = await db.transaction().execute(async (trx) => {
          await lockTeamPositions(trx, teamId);
          const row = await prepo.findPosition(trx, teamId, { id: input.id });
          if (!row) throw new AppError('not_found', `No position "${input.id}".`);
          return clear(trx, actor, teamId, row, source);
        });
        await announce(teamId, 'position', [change]);
        return { id: input.id, deleted: true as const };
      },
    },
    stance: {
      async get(actor: Actor, input: { record: string }): Promise<StanceRecordOut> {
        const teamId = policy.teamOf(actor);
        const m = await kit.matter(input.record);
        return stanceRecord(db, teamId, m.recordNumber, m.id);
      },
      async set(actor: Actor, input: { record: string; stance: StanceValue; label?: string | undefined }, call: Call): Promise<StanceRecordOut> {
        const teamId = policy.teamOf(actor);
        const source = policy.stanceSource(call, 'v2.stance');
        const m = await kit.matter(input.record);
        const { record, change } = await db.transaction().execute(async (trx) => {
          await lockTeamPositions(trx, teamId);
          const r = await put(trx, actor, teamId, m, input, source);
          return { record: await stanceRecord(trx, teamId, m.recordNumber, m.id), change: r.change };
        });
        if (change) await announce(teamId, 'stance', [change]);
        return record;
      },
      async clear(actor: Actor, input: { record: string }, call: Call) {
        const teamId = policy.teamOf(actor);
        const source = policy.stanceSource(call, 'v2.stance');
        const m = await kit.matter(input.record);
        const change = await db.transaction().execute(async (trx) => {
          await lockTeamPositions(trx, teamId);
          const row = await prepo.findPosition(trx, teamId, { matterId: m.id });
          if (!row) throw new AppError('not_found', `The team has no stance on ${m.recordNumber}.`);
          return clear(trx, actor, teamId, row, source);
        });
        await announce(teamId, 'stance', [change]);
        return { id: change.id, deleted: true as const };
      },
    },
  };
}
