// Rows → the views the CLI, the dashboard and /me present.
import type { Feature, Role } from '../../kernel/actor.ts';
import type { AccountView, LimitOverrides, MembershipView, TeamMemberView, TeamView } from './schema.ts';
import { effectiveLimits } from './schema.ts';

interface LimitColumns {
  requests_per_day: number | null;
  requests_per_minute: number | null;
  ai_answers_per_day: number | null;
}

export function overridesOf(row: LimitColumns): LimitOverrides {
  return { requestsPerDay: row.requests_per_day, requestsPerMinute: row.requests_per_minute, aiAnswersPerDay: row.ai_answers_per_day };
}

// Selected timestamps are Dates on both backends; typed loosely because Kysely's column type leaks through.
const iso = (d: unknown) => new Date(d as Date).toISOString();

export function presentAccount(row: LimitColumns & { id: string; email: string; name: string | null; created_at: unknown }): AccountView {
  const limitOverrides = overridesOf(row);
  return { id: row.id, email: row.email, name: row.name, createdAt: iso(row.created_at), limits: effectiveLimits('account', limitOverrides), limitOverrides };
}

export function presentTeam(row: LimitColumns & { id: string; name: string; features: string[]; created_at: unknown }): TeamView {
  const limitOverrides = overridesOf(row);
  return {
    id: row.id,
    name: row.name,
    features: row.features as Feature[],
    createdAt: iso(row.created_at),
    limits: effectiveLimits('team', limitOverrides),
    limitOverrides,
  };
}

export function presentMember(row: {
  id: string;
  email: string;
  name: string | null;
  email_verified_at: unknown;
  role: Role;
  created_at: unknown;
}): TeamMemberView {
  return { accountId: row.id, email: row.email, name: row.name, role: row.role, since: iso(row.created_at), emailVerified: row.email_verified_at != null };
}

export function presentMembership(row: { id: string; name: string; features: string[]; role: Role }): MembershipView {
  return { teamId: row.id, teamName: row.name, role: row.role, features: row.features as Feature[] };
}
