// The scope vocabulary (spec "Scopes") and the one access check. Every operation of the catalogue
// (kernel/catalogue.ts) declares its Access; every route, page, GraphQL field, MCP tool and A2A
// skill performs an operation through kernel/perform.ts, which calls `requireAccess` exactly once.
// Nothing else checks scopes, contexts, features or roles.
import type { Actor, Feature, Role } from './actor.ts';
import { AppError } from './errors.ts';

export const scopeCatalogue = {
  'public.read': { kind: 'any', description: 'Read public council data: legislation, votes, meetings, people, money and lobbying.' },
  'public.ai': { kind: 'any', description: 'Ask for AI-written answers that cite public records.' },
  'me.follows.read': { kind: 'personal', description: 'See what you follow.' },
  'me.follows.write': { kind: 'personal', description: 'Follow and unfollow legislation, people, committees and searches for you.' },
  'me.keys.read': { kind: 'personal', description: 'See your API keys, the apps you connected and your security log (prefixes and names; never the secrets).' },
  'me.keys.write': { kind: 'personal', description: "Make, change and revoke your API keys and disconnect apps (never more power than the caller's own)." },
  'team.follows.read': { kind: 'team', description: "See the team's follows." },
  'team.follows.write': { kind: 'team', description: "Change the team's follows (owners and admins)." },
  'team.notes.read': { kind: 'team', description: "Read the team's shared notes." },
  'team.notes.write': { kind: 'team', description: 'Write shared notes, and edit or delete your own.' },
  'team.positions.read': { kind: 'team', description: "See the team's positions, stances and target lists." },
  'team.positions.write': { kind: 'team', description: 'Change positions, stances and target lists (owners and admins).' },
  'team.dashboards.read': { kind: 'team', description: "See the team's analytics dashboards." },
  'team.dashboards.write': { kind: 'team', description: 'Create, edit and delete analytics dashboards.' },
  'people.read': { kind: 'team', description: 'Read officials, City staff and lobbyists, and meeting testimony.' },
  'people.private.read': { kind: 'team', description: 'Also read residents and organization representatives (offices teams).' },
  'team.members.read': { kind: 'team', description: "See the team's members and their roles." },
  'team.members.write': { kind: 'team', description: 'Add and remove members and change their roles (owners and admins); any member may leave the team.' },
  'team.keys.read': { kind: 'team', description: "List the team's API keys (prefixes, names, scopes; never the secrets)." },
  'team.keys.write': {
    kind: 'team',
    description: "Create, change and revoke the team's API keys (owners and admins; never more power than the caller's own).",
  },
  'me.webhooks.read': { kind: 'personal', description: 'See your webhooks and their deliveries.' },
  'me.webhooks.write': { kind: 'personal', description: 'Create and delete your webhooks.' },
} as const;

export type Scope = keyof typeof scopeCatalogue;
export const allScopes = Object.keys(scopeCatalogue) as Scope[];
export const legacyScopes: Scope[] = ['public.read', 'public.ai'];

export function isScope(s: string): s is Scope {
  return Object.hasOwn(scopeCatalogue, s);
}

/** Which key kinds may hold a scope (decisions.md, "Credentials"). */
export function scopeFitsKeyKind(scope: Scope, keyKind: 'personal' | 'team'): boolean {
  const kind = scopeCatalogue[scope].kind;
  return kind === 'any' || kind === keyKind;
}

/**
 * How a performed operation counts against the limits (decisions.md "Envelopes and limits").
 * 'answer' is one AI answer alone: an answer performed within a request already counted (a
 * GraphQL document counts once, plus one AI answer per `answer` field).
 */
export type LimitClass = 'data' | 'me' | 'ai' | 'answer' | 'none';

/** Who may perform an operation: the gate every surface passes through (house style, gate 2). */
export interface Access {
  /** Scopes the credential must hold (all of them). */
  readonly scopes: readonly Scope[];
  /** 'team' operations need a team credential, 'personal' ones a personal credential. */
  readonly context: 'any' | 'team' | 'personal';
  readonly feature?: Feature;
  /** Roles that may perform it (checked against the creator's current role). */
  readonly roles?: readonly Role[];
  /** What a caller whose role may not do this is told (403 forbidden); a general sentence when omitted. */
  readonly forbidden?: string;
}

const managers: readonly Role[] = ['owner', 'admin'];
const anyMember: readonly Role[] = ['owner', 'admin', 'member'];

/** The access shapes of the spec's scope table. */
export const access = {
  /** Any credential (GET /me). */
  account: { scopes: [], context: 'any' } as Access,
  /** Public data, and any other scope that any key kind may hold (public.ai). */
  open: (scope: Scope = 'public.read'): Access => ({ scopes: [scope], context: 'any' }),
  personal: (scope: Scope): Access => ({ scopes: [scope], context: 'personal' }),
  /** A team operation; `who` is 'managers' (owners and admins), 'members' (anyone in the team) or omitted (reads). */
  team: (scopes: Scope | readonly Scope[], feature: Feature, who?: 'managers' | 'members'): Access => ({
    scopes: typeof scopes === 'string' ? [scopes] : scopes,
    context: 'team',
    feature,
    ...(who ? { roles: who === 'managers' ? managers : anyMember } : {}),
  }),
};

/** Why an actor may not perform an operation of this access, or null when it may. */
export function accessRefusal(actor: Actor, a: Access): AppError | null {
  // Context first: a team credential can never hold a personal scope (nor the reverse), so the
  // useful answer is which kind of credential to use, not which scope it lacks.
  if (a.context === 'team' && !actor.team) return new AppError('team_only', 'This operation needs a team credential.');
  if (a.context === 'personal' && actor.team) return new AppError('personal_only', 'This operation needs a personal credential.');
  for (const scope of a.scopes) {
    if (actor.scopes.includes(scope)) continue;
    // A scope the credential was given (or a session would carry) that the person's current role
    // or the team's features withhold is a role problem, not a missing scope (decisions.md: 403
    // forbidden). Which scopes those are is the credentials module's rule, carried on the Actor.
    if (actor.team && actor.withheld?.includes(scope)) {
      return new AppError('forbidden', a.forbidden ?? `Your role in this team (${actor.team.role}) cannot make this change.`);
    }
    return new AppError('scope_missing', `This operation needs the ${scope} scope.`);
  }
  if (a.feature && !actor.team?.features.includes(a.feature)) {
    return new AppError('feature_required', `This operation needs the team feature "${a.feature}".`);
  }
  if (a.roles && (!actor.team || !a.roles.includes(actor.team.role))) {
    return new AppError('forbidden', a.forbidden ?? `Only team ${a.roles.join(' or ')}s may do this.`);
  }
  return null;
}

/** The one access check (house style, gate 2): throws the refusal. */
export function requireAccess(actor: Actor, a: Access): void {
  const refusal = accessRefusal(actor, a);
  if (refusal) throw refusal;
}
