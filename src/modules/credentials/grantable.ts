// Which scopes a credential may hold (decisions.md "Credentials"; spec "Scopes", "Rules" 1): the
// one rule behind key creation, the live cut of every key and OAuth grant on every request, what a
// signed-in session carries, and what the consent page and the key forms offer. The kernel knows
// only the scope grammar; the domain's exceptions (writes for owners and admins, a scope that needs
// a team feature, settings out of reach of registration keys) are spelled here, once.
import type { Feature, Role } from '../../kernel/actor.ts';
import { allScopes, legacyScopes, type Scope, scopeFitsKeyKind } from '../../kernel/access.ts';

/** The kinds of credential: a key's kind, an OAuth grant, a website session. */
export type GrantKind = 'scoped' | 'registration' | 'legacy' | 'oauth' | 'session';

/**
 * Team scopes only owners and admins may hold: the writes that change what the whole team sees
 * (follows, positions; spec "v2 rules" 5) and its keys. `team.members.write` is not among them:
 * any member may leave a team with it, and the accounts policy lets a member do nothing else
 * (adding, changing or removing anyone else is 403 for them).
 */
const managersOnly: ReadonlySet<Scope> = new Set<Scope>(['team.follows.write', 'team.positions.write', 'team.keys.write']);

/** Scopes that need a team feature: residents and organization representatives are for offices teams. */
const needsFeature: Partial<Record<Scope, Feature>> = { 'people.private.read': 'offices' };

/**
 * The scopes a credential of `kind` may hold for `team` (null: a personal credential) when its
 * person has `role` there now. Keys issued by agent registration (and legacy keys) hold
 * public.read public.ai at most: they never read or change a person's follows, positions or
 * settings (spec "Rules" 4). A team credential of someone who is not a member holds nothing.
 */
export function grantableScopes(kind: GrantKind, team: { features: readonly Feature[] } | null, role: Role | null): Scope[] {
  const fitting = allScopes.filter((s) => scopeFitsKeyKind(s, team ? 'team' : 'personal'));
  if (kind === 'registration' || kind === 'legacy') return fitting.filter((s) => legacyScopes.includes(s));
  if (!team) return fitting;
  if (!role) return [];
  return fitting.filter((s) => {
    if (role === 'member' && managersOnly.has(s)) return false;
    const feature = needsFeature[s];
    return !feature || team.features.includes(feature);
  });
}

/**
 * Of the scopes a team credential was given (a session: would carry), those its person's current
 * role or the team's features withhold now. The access check refuses these as `forbidden` (a role
 * problem) rather than `scope_missing` (decisions.md).
 */
export function withheldScopes(given: readonly Scope[], held: readonly Scope[]): Scope[] {
  return given.filter((s) => !held.includes(s));
}
