// Which records the public surfaces may show. Pure functions and constants, no I/O.
import { publicPersonKinds } from './schema-people.ts';

/**
 * Alderpersons, officials and lobbyists act in public capacities. Staff, residents and
 * organization representatives are reachable only through the team `people.*` routes.
 */
export const publicPeopleKinds: readonly string[] = publicPersonKinds;
