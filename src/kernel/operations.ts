// The scope vocabulary (spec "Scopes") and the one scope check. Every route, GraphQL field, MCP
// tool and A2A skill names an operation id from `operations`; nothing else checks scopes.
import type { Actor, Feature, Role } from './actor.ts';
import { AppError } from './errors.ts';

export const scopeCatalogue = {
  'public.read': { kind: 'any', description: 'Read public council data: legislation, votes, meetings, people, money and lobbying.' },
  'public.ai': { kind: 'any', description: 'Ask for AI-written answers that cite public records.' },
  'me.follows.read': { kind: 'personal', description: 'See what you follow.' },
  'me.follows.write': { kind: 'personal', description: 'Follow and unfollow legislation, people, committees and searches for you.' },
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

/** Scopes a member of a given role may put on a team key: writes of follows and positions need owner or admin. */
export function roleCanGrant(scope: Scope, role: Role, teamFeatures: readonly Feature[]): boolean {
  if ((scope === 'team.follows.write' || scope === 'team.positions.write') && role === 'member') return false;
  if (scope === 'people.private.read' && !teamFeatures.includes('offices')) return false;
  return true;
}

export type LimitClass = 'data' | 'me' | 'ai' | 'none';

export interface Operation {
  /** Scopes the credential must hold (all of them). */
  scopes: Scope[];
  /** 'team' routes need a team credential, 'personal' ones a personal credential. */
  context: 'any' | 'team' | 'personal';
  feature?: Feature;
  /** Roles that may perform it (checked against the creator's current role). */
  roles?: Role[];
  limit: LimitClass;
}

const read = (scope: Scope = 'public.read'): Operation => ({ scopes: [scope], context: 'any', limit: 'data' });
const personal = (scope: Scope): Operation => ({ scopes: [scope], context: 'personal', limit: 'data' });
const team = (scope: Scope, feature: Feature, roles?: Role[]): Operation => ({ scopes: [scope], context: 'team', feature, ...(roles ? { roles } : {}), limit: 'data' });
const managers: Role[] = ['owner', 'admin'];
const anyMember: Role[] = ['owner', 'admin', 'member'];

export const operations = {
  // Account
  'me.read': { scopes: [], context: 'any', limit: 'me' },
  // Public data (v1, and v2 with public.read)
  'bodies.list': read(),
  'bodies.read': read(),
  'people.public.list': read(),
  'people.public.read': read(),
  'matters.list': read(),
  'matters.read': read(),
  'roll-calls.list': read(),
  'roll-calls.read': read(),
  'votes.list': read(),
  'meetings.list': read(),
  'meetings.read': read(),
  'money.committees.list': read(),
  'money.committees.read': read(),
  'money.receipts.list': read(),
  'money.expenditures.list': read(),
  'money.totals.read': read(),
  'lobbying.lobbyists.list': read(),
  'lobbying.lobbyists.read': read(),
  'lobbying.clients.list': read(),
  'lobbying.clients.read': read(),
  'lobbying.employers.list': read(),
  'lobbying.employers.read': read(),
  'lobbying.compensation.list': read(),
  'lobbying.expenditures.list': read(),
  'lobbying.contributions.list': read(),
  'lobbying.activity.list': read(),
  'search.read': read(),
  'sources.read': read(),
  'answers.create': { scopes: ['public.ai'], context: 'any', limit: 'ai' },
  // Team data (v2; spec "v2 routes", decisions.md "Team data"): one operation per route. Writes of
  // team follows, positions, stances and targets need an owner or admin; notes and dashboards any member.
  'me.follows.list': personal('me.follows.read'),
  'me.follows.create': personal('me.follows.write'),
  'me.follows.delete': personal('me.follows.write'),
  'team.follows.list': team('team.follows.read', 'team_data'),
  'team.follows.create': team('team.follows.write', 'team_data', managers),
  'team.follows.delete': team('team.follows.write', 'team_data', managers),
  'team.notes.list': team('team.notes.read', 'team_data'),
  'team.notes.create': team('team.notes.write', 'team_data', anyMember),
  'team.notes.update': team('team.notes.write', 'team_data', anyMember),
  'team.notes.delete': team('team.notes.write', 'team_data', anyMember),
  'team.positions.list': team('team.positions.read', 'team_data'),
  'team.positions.replace': team('team.positions.write', 'team_data', managers),
  'team.positions.upsert': team('team.positions.write', 'team_data', managers),
  'team.positions.delete': team('team.positions.write', 'team_data', managers),
  'team.stance.read': team('team.positions.read', 'team_data'),
  'team.stance.set': team('team.positions.write', 'team_data', managers),
  'team.stance.clear': team('team.positions.write', 'team_data', managers),
  'team.targets.read': team('team.positions.read', 'advocacy'),
  'team.targets.add': team('team.positions.write', 'advocacy', managers),
  'team.targets.remove': team('team.positions.write', 'advocacy', managers),
  'team.targets.contacted.add': team('team.positions.write', 'advocacy', managers),
  'team.targets.contacted.remove': team('team.positions.write', 'advocacy', managers),
  'team.dashboards.list': team('team.dashboards.read', 'analytics'),
  'team.dashboards.create': team('team.dashboards.write', 'analytics', anyMember),
  'team.dashboards.update': team('team.dashboards.write', 'analytics', anyMember),
  'team.dashboards.delete': team('team.dashboards.write', 'analytics', anyMember),
  'people.team.list': team('people.read', 'people'),
  'people.team.read': team('people.read', 'people'),
  'testimony.list': team('people.read', 'people'),
} as const satisfies Record<string, Operation>;

export type OperationId = keyof typeof operations;

export function operation(id: OperationId): Operation {
  return operations[id];
}

/**
 * The one scope and context check (house style, gate 2). Role and feature checks of team routes
 * are here too because they depend only on the actor, not on the object.
 */
export function requireOperation(actor: Actor, id: OperationId): void {
  const op: Operation = operations[id];
  // Context first: a team credential can never hold a personal scope (nor the reverse), so the
  // useful answer is which kind of credential to use, not which scope it lacks.
  if (op.context === 'team' && !actor.team) throw new AppError('team_only', 'This operation needs a team credential.');
  if (op.context === 'personal' && actor.team) throw new AppError('personal_only', 'This operation needs a personal credential.');
  for (const scope of op.scopes) {
    if (actor.scopes.includes(scope)) continue;
    // A scope the credential was given (or a session would carry) that the person's current role
    // cannot grant is a role problem, not a missing scope (decisions.md: 403 forbidden).
    if (actor.team && (actor.credential.grantedScopes?.includes(scope) || actor.credential.type === 'session') && !roleCanGrant(scope, actor.team.role, actor.team.features)) {
      throw new AppError('forbidden', `Your role in this team (${actor.team.role}) cannot make this change.`);
    }
    throw new AppError('scope_missing', `This operation needs the ${scope} scope.`);
  }
  if (op.feature && !actor.team?.features.includes(op.feature)) {
    throw new AppError('feature_required', `This operation needs the team feature "${op.feature}".`);
  }
  if (op.roles && (!actor.team || !op.roles.includes(actor.team.role))) {
    throw new AppError('forbidden', `Only team ${op.roles.join(' or ')}s may do this.`);
  }
}
