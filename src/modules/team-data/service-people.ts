// The people routes: officials, City staff and lobbyists with people.read; residents and
// organization representatives too with people.private.read on an offices team. A person the
// actor may not see does not exist for them (404), like any other hidden object.
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Kit } from './kit.ts';
import * as policy from './policy.ts';
import { presentPerson, presentTestimony } from './presenters.ts';
import type { PeopleInput, TeamPersonOut, TestimonyOut } from './schema.ts';

export function createPeopleService(kit: Kit) {
  const { directory } = kit;
  return {
    async list(actor: Actor, input: PeopleInput) {
      const visible = policy.visiblePersonKinds(actor);
      if (input.kind !== undefined && !visible.includes(input.kind)) {
        throw new AppError('forbidden', 'Residents and organization representatives need the people.private.read scope on a team with the offices feature.');
      }
      const page = await directory.people({ kinds: input.kind ? [input.kind] : visible, q: input.q, limit: input.limit, cursor: input.cursor });
      return { data: page.data.map(presentPerson), meta: page.meta };
    },
    async get(actor: Actor, input: { id: string }): Promise<TeamPersonOut> {
      const person = await directory.person(input.id, policy.visiblePersonKinds(actor));
      if (!person) throw new AppError('not_found', `No person "${input.id}".`);
      return presentPerson(person);
    },
    async testimony(actor: Actor, input: { meetingId: string }): Promise<{ data: TestimonyOut[] }> {
      const rows = await directory.testimony(input.meetingId, policy.visibleSpeakerKinds(actor));
      if (!rows) throw new AppError('not_found', `No meeting "${input.meetingId}".`);
      return { data: rows.map(presentTestimony) };
    },
  };
}
