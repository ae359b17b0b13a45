// Types and input checks of accounts, teams and memberships. Each check throws 400
// invalid_request with a message that names the field, so the CLI and the dashboard say the same.
import { type Feature, features, type Limits, type Role, roles } from '../../kernel/actor.ts';
import { Type } from 'typebox';
import { AppError } from '../../kernel/errors.ts';
import { Nullable } from '../../kernel/schema.ts';

export interface AccountView {
  id: string;
  email: string;
  name: string | null;
  createdAt: string;
  limits: Limits;
  /** The operator's overrides; null means the default. */
  limitOverrides: LimitOverrides;
}

export interface TeamMemberView {
  accountId: string;
  email: string;
  name: string | null;
  role: Role;
  since: string;
  emailVerified: boolean;
}

export interface TeamView {
  id: string;
  name: string;
  features: Feature[];
  createdAt: string;
  limits: Limits;
  limitOverrides: LimitOverrides;
}

export interface MembershipView {
  teamId: string;
  teamName: string;
  role: Role;
  features: Feature[];
}

export interface LimitOverrides {
  requestsPerDay: number | null;
  requestsPerMinute: number | null;
  aiAnswersPerDay: number | null;
}

/** A change of overrides: a number sets it, null returns to the default, absent leaves it. */
export type LimitChange = Partial<LimitOverrides>;

/** decisions.md "Envelopes and limits" and spec "Limits". */
export const defaultLimits: { account: Limits; team: Limits } = {
  account: { requestsPerDay: 1000, requestsPerMinute: 60, aiAnswersPerDay: 50 },
  team: { requestsPerDay: 5000, requestsPerMinute: 120, aiAnswersPerDay: 200 },
};

export function effectiveLimits(kind: 'account' | 'team', o: LimitOverrides): Limits {
  const d = defaultLimits[kind];
  return {
    requestsPerDay: o.requestsPerDay ?? d.requestsPerDay,
    requestsPerMinute: o.requestsPerMinute ?? d.requestsPerMinute,
    aiAnswersPerDay: o.aiAnswersPerDay ?? d.aiAnswersPerDay,
  };
}

const invalid = (message: string) => new AppError('invalid_request', message);

export function parseName(value: unknown, field: string, required: boolean): string | null {
  if (value === undefined || value === null) {
    if (required) throw invalid(`${field} is required.`);
    return null;
  }
  if (typeof value !== 'string') throw invalid(`${field} must be a string.`);
  const name = value.trim();
  if (name.length === 0) {
    if (required) throw invalid(`${field} must not be empty.`);
    return null;
  }
  if (name.length > 200) throw invalid(`${field} must be at most 200 characters.`);
  // Names are shown in lists and logs: control characters would garble them.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(name)) throw invalid(`${field} must not contain control characters.`);
  return name;
}

export function parseRole(value: unknown): Role {
  if (typeof value === 'string' && (roles as readonly string[]).includes(value)) return value as Role;
  throw invalid(`role must be one of ${roles.join(', ')}; got "${String(value)}".`);
}

export function parseFeatures(values: readonly unknown[]): Feature[] {
  const out: Feature[] = [];
  for (const v of values) {
    if (typeof v !== 'string' || !(features as readonly string[]).includes(v)) {
      throw invalid(`unknown feature "${String(v)}"; features are ${features.join(', ')}.`);
    }
    if (!out.includes(v as Feature)) out.push(v as Feature);
  }
  return out;
}

const LIMIT_MAX = 1_000_000_000;

export function parseLimitChange(change: LimitChange): LimitChange {
  const out: LimitChange = {};
  for (const key of ['requestsPerDay', 'requestsPerMinute', 'aiAnswersPerDay'] as const) {
    const v = change[key];
    if (v === undefined) continue;
    if (v !== null && (!Number.isInteger(v) || v < 0 || v > LIMIT_MAX)) {
      throw invalid(`${key} must be a whole number from 0 to ${LIMIT_MAX}, or null for the default.`);
    }
    out[key] = v;
  }
  return out;
}

const Iso = Type.String({ format: 'date-time' });

/** A member of a team as the members operations answer it. */
export const TeamMember = Type.Object({
  accountId: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String()),
  role: Type.Union(roles.map((r) => Type.Literal(r))),
  since: Iso,
  emailVerified: Type.Boolean({
    description: 'Whether they have opened mail sent to this address (signed in with a link): false for someone added by email who has not yet.',
  }),
});
export const TeamMembers = Type.Object({ data: Type.Array(TeamMember) }, { description: 'Every member, in the order they joined.' });
