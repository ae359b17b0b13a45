// The meeting detail document and its computed insights.
import { presentMeeting } from './presenters.ts';
import type { MeetingDetailOut, RollCallOut } from './schema.ts';

type Row = Record<string, any>;
interface TestimonyRow {
  id: string;
  matterId: string | null;
  speakerName: string;
  speakerKind: string;
  organization: string | null;
  position: 'supports' | 'opposes' | 'neutral' | null;
  mode: 'in_person' | 'virtual' | 'written' | null;
  summary: string | null;
}

// Officials, staff and lobbyists testify in a public capacity. Residents and organization
// representatives are private people (people.private.read): they are counted, never named here.
const publicSpeakers = new Set(['official', 'staff', 'lobbyist']);

export function presentMeetingDetail(r: Row): MeetingDetailOut {
  const rollCalls: RollCallOut[] = r.roll_calls.map((x: { j: RollCallOut }) => x.j);
  const attendance: { personId: string; name: string; ward: number | null; value: string }[] = r.attendance;
  const testimony: TestimonyRow[] = r.testimony;
  const agenda: { matter: { id: string } | null; recordNumber: string | null }[] = r.agenda;
  const is = (value: string, word: string) => value.toLowerCase() === word;
  const absentees = attendance.filter((a) => is(a.value, 'absent')).map((a) => ({ personId: a.personId, name: a.name }));
  const count = (p: string) => testimony.filter((t) => t.position === p).length;
  return {
    ...presentMeeting(r),
    agenda: r.agenda,
    attendance,
    documents: r.documents,
    rollCalls,
    testimony: testimony.filter((t) => publicSpeakers.has(t.speakerKind)) as MeetingDetailOut['testimony'],
    insights: {
      agendaItems: agenda.length,
      matters: new Set(agenda.map((i) => i.matter?.id ?? i.recordNumber).filter((v) => v != null)).size,
      rollCalls: rollCalls.length,
      splitVotes: rollCalls.filter((c) => c.tallies.yea > 0 && c.tallies.nay > 0).length,
      present: attendance.filter((a) => is(a.value, 'present')).length,
      absent: absentees.length,
      absentees,
      testimony: { total: testimony.length, supports: count('supports'), opposes: count('opposes'), neutral: count('neutral') },
    },
  };
}
