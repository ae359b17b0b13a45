// Team notes: any member writes; only the author edits or deletes (spec "Note"). A note may be
// attached to a matter (by record number), person, meeting or body, resolved against public data.
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Kit } from './kit.ts';
import * as policy from './policy.ts';
import { presentNote } from './presenters.ts';
import * as repo from './repo.ts';
import type { ListInput, NoteChange, NoteInput, NoteOut } from './schema.ts';

type SubjectIn = { type: 'matter' | 'person' | 'meeting' | 'body'; refId: string } | null | undefined;

export function createNotesService(kit: Kit) {
  const { db, directory } = kit;
  const notFound = (id: string) => new AppError('not_found', `No note "${id}".`);

  /** Notes as this actor sees them: each author's name (looked up once per author) and whether it is theirs. */
  async function present(actor: Actor, rows: Parameters<typeof presentNote>[0][]): Promise<NoteOut[]> {
    const ids = [...new Set(rows.map((r) => r.author_id))];
    const names = new Map(await Promise.all(ids.map(async (id) => [id, await kit.accountName(id)] as const)));
    return rows.map((r) => presentNote(r, { authorName: names.get(r.author_id) ?? null, yours: r.author_id === actor.account.id }));
  }

  /** The stored subject (canonical refId) or null; 404 when what it names does not exist. */
  async function resolveSubject(actor: Actor, subject: SubjectIn): Promise<{ type: NonNullable<SubjectIn>['type']; ref: string } | null> {
    if (!subject) return null;
    const ref = subject.refId.trim();
    switch (subject.type) {
      case 'matter':
        return { type: 'matter', ref: (await kit.matter(ref)).recordNumber };
      case 'person':
        if (!(await directory.person(ref, policy.visiblePersonKinds(actor)))) throw new AppError('not_found', `No person with id "${ref}".`);
        return { type: 'person', ref };
      case 'meeting':
        if (!(await directory.meeting(ref))) throw new AppError('not_found', `No meeting with id "${ref}".`);
        return { type: 'meeting', ref };
      case 'body':
        if (!(await directory.body(ref))) throw new AppError('not_found', `No body with id "${ref}".`);
        return { type: 'body', ref };
    }
  }

  /** The note as this actor may change it: another team's is not found, someone else's forbidden. */
  async function ownNote(actor: Actor, teamId: string, id: string) {
    const note = await repo.findNote(db, teamId, id);
    if (!note) throw notFound(id);
    policy.requireNoteAuthor(actor, note);
    return note;
  }

  return {
    async list(actor: Actor, input: ListInput) {
      const teamId = policy.teamOf(actor);
      const rows = await repo.listNotes(db, teamId, input.limit, repo.decodeCursor(input.cursor));
      const page = repo.page(rows, input.limit, (r) => r);
      return { ...page, data: await present(actor, page.data) };
    },
    async create(actor: Actor, input: NoteInput): Promise<NoteOut> {
      const teamId = policy.teamOf(actor);
      const subject = await resolveSubject(actor, input.subject);
      const row = await repo.insertNote(db, {
        id: kit.newId('note'),
        team_id: teamId,
        author_id: actor.account.id,
        body: input.body,
        subject_type: subject?.type ?? null,
        subject_ref: subject?.ref ?? null,
        at: kit.clock.now(),
      });
      await kit.emit({ teamId, kind: 'note', action: 'created', id: row.id });
      return (await present(actor, [row]))[0]!;
    },
    async update(actor: Actor, input: { id: string; change: NoteChange }): Promise<NoteOut> {
      const teamId = policy.teamOf(actor);
      const { change } = input;
      await ownNote(actor, teamId, input.id);
      const subject = change.subject === undefined ? undefined : await resolveSubject(actor, change.subject);
      const row = await db.transaction().execute(async (trx) => {
        // Re-checked under the row lock: the note may have been deleted since it was read.
        const locked = await repo.findNote(trx, teamId, input.id, true);
        if (!locked) throw notFound(input.id);
        return repo.updateNote(trx, teamId, input.id, {
          ...(change.body !== undefined ? { body: change.body } : {}),
          ...(subject !== undefined ? { subject_type: subject?.type ?? null, subject_ref: subject?.ref ?? null } : {}),
          updated_at: kit.clock.now(),
        });
      });
      await kit.emit({ teamId, kind: 'note', action: 'updated', id: row.id });
      return (await present(actor, [row]))[0]!;
    },
    async remove(actor: Actor, input: { id: string }) {
      const teamId = policy.teamOf(actor);
      await ownNote(actor, teamId, input.id);
      await repo.deleteNote(db, teamId, input.id);
      await kit.emit({ teamId, kind: 'note', action: 'deleted', id: input.id });
      return { id: input.id, deleted: true as const };
    },
  };
}
