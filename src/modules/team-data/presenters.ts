// Rows → the resources of decisions.md "Team data". Timestamps as ISO 8601 UTC.
import type { DirectoryPerson, DirectoryTestimony } from '../public-data/index.ts';
import type { HistoryRow, PositionRow } from './repo-positions.ts';
import type { TeamDashboardsRow, TeamNoteRow } from './repo.ts';
import type { DashboardOut, FollowOut, LayoutValue, NoteOut, PositionOut, StanceRecordOut, TargetsOut, TeamPersonOut, TestimonyOut } from './schema.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

export const presentFollow = (r: { id: string; type: FollowOut['type']; ref_id: string; label: string; created_at: Date }): FollowOut => ({
  id: r.id,
  type: r.type,
  refId: r.ref_id,
  label: r.label,
  createdAt: iso(r.created_at),
});

export const presentNote = (r: TeamNoteRow, by: { authorName: string | null; yours: boolean }): NoteOut => ({
  id: r.id,
  body: r.body,
  subject: r.subject_type && r.subject_ref ? { type: r.subject_type, refId: r.subject_ref } : null,
  authorId: r.author_id,
  ...by,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export const presentPosition = (r: PositionRow): PositionOut => ({
  id: r.id,
  recordId: r.record_number,
  matterId: r.matter_id,
  label: r.label,
  stance: r.stance,
  updatedAt: iso(r.updated_at),
});

export const presentStance = (r: PositionRow, history: HistoryRow[]): StanceRecordOut => ({
  ...presentPosition(r),
  history: history.map((h) => ({
    stance: h.stance,
    previous: h.previous,
    source: h.source,
    at: iso(h.at),
    by: { accountId: h.account_id, name: h.account_name, credential: { type: h.credential_type, id: h.credential_id } },
  })),
});

export const presentTargets = (rows: { person_id: string; contacted: boolean }[]): TargetsOut => ({
  onTargetList: rows.map((r) => r.person_id),
  contacted: rows.filter((r) => r.contacted).map((r) => r.person_id),
});

export const presentDashboard = (r: TeamDashboardsRow): DashboardOut => ({
  id: r.id,
  name: r.name,
  layout: (typeof r.layout === 'string' ? JSON.parse(r.layout) : r.layout) as LayoutValue,
  version: r.version,
  createdBy: r.created_by,
  updatedAt: iso(r.updated_at),
});

export const presentPerson = (p: DirectoryPerson): TeamPersonOut => p;

export const presentTestimony = (t: DirectoryTestimony): TestimonyOut => ({
  id: t.id,
  meetingId: t.meetingId,
  matterId: t.matterId,
  speaker: { name: t.speakerName, kind: t.speakerKind, organization: t.organization },
  position: t.position,
  mode: t.mode,
  summary: t.summary,
});
