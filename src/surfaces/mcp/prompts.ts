// MCP prompts (MCP 2025-11-25 server/prompts): a few tasks people pick from a menu, each filled
// with the records it is about, read through catalogue operations. prompts/get admits the
// prompt's first operation as a tool call is admitted (./server.ts: the access check and one
// request); the reads that follow are performed for the same caller through the same access check
// (kernel/perform.ts), uncounted, as GraphQL's nested reads are. Records travel as embedded
// resources (server/prompts §Embedded Resources), JSON the model reads as data.
import type { OperationId } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Admission } from '../../kernel/perform.ts';
import { chicagoDay } from '../../modules/answers/dates.ts';
import { TEMPLATES, type TemplateDef, uriOf } from './resources.ts';

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
  /** The search type completing it (completion/complete on a ref/prompt). */
  completes?: TemplateDef['searchType'];
}

export interface PromptDef {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** The operation admitted for prompts/get (and what it reads first). */
  operation: OperationId;
  /** The arguments checked and turned into the admitted operation's input. */
  input(args: Record<string, string>): Record<string, unknown>;
  /** The messages, from the admitted read and further reads as the same caller. */
  messages(first: unknown, args: Record<string, string>, more: Reads): Promise<PromptMessage[]>;
}

type PromptMessage = { role: 'user'; content: Record<string, unknown> };
type Reads = <T>(id: OperationId, input: Record<string, unknown>) => Promise<T>;

const template = (name: string) => TEMPLATES.find((t) => t.name === name)!;
const text = (t: string): PromptMessage => ({ role: 'user', content: { type: 'text', text: t } });
const embedded = (def: TemplateDef, id: string, record: unknown): PromptMessage => ({
  role: 'user',
  content: { type: 'resource', resource: { uri: uriOf(def, id), mimeType: 'application/json', text: JSON.stringify(record) } },
});

function required(args: Record<string, string>, name: string): string {
  const value = args[name]?.trim();
  if (!value) throw new AppError('invalid_request', `The prompt needs the argument "${name}".`);
  return value;
}

export function promptDefs(ctx: Pick<AppContext, 'clock'>): PromptDef[] {
  const today = () => chicagoDay(ctx.clock.now());
  return [
    {
      name: 'brief_me_on_a_bill',
      title: 'Brief me on a bill',
      description: 'A briefing on one matter: what it does, where it stands, who sponsored it and how the council voted.',
      arguments: [{ name: 'record', description: 'The record number, e.g. SO2026-0025407 (any letter case).', required: true, completes: 'matter' }],
      operation: 'matters.read',
      input: (args) => ({ record: required(args, 'record') }),
      async messages(matter) {
        const m = matter as { recordNumber: string };
        return [
          text(
            `Brief me on ${m.recordNumber} from the Chicago City Council's public record attached: what it would do, its status and latest action, who sponsored it, and each roll call's outcome and tally with who voted Nay. Use only the record; say what it does not show.`,
          ),
          embedded(template('matter'), m.recordNumber, matter),
        ];
      },
    },
    {
      name: 'how_did_my_alderperson_vote',
      title: 'How did my alderperson vote this year',
      description: "An alderperson's roll-call votes this year, found by ward number or by name.",
      arguments: [
        { name: 'ward', description: 'Your ward, 1–50 (or give the alderperson).', required: false },
        { name: 'alderperson', description: 'The alderperson’s person id (completed from a name).', required: false, completes: 'person' },
      ],
      operation: 'people.public.list',
      input(args) {
        if (args.alderperson?.trim()) return { q: args.alderperson.trim().slice(0, 200), kind: 'alderperson', limit: 1 };
        const ward = Number(args.ward);
        if (!Number.isInteger(ward) || ward < 1 || ward > 50) throw new AppError('invalid_request', 'Give a ward from 1 to 50, or the alderperson.');
        return { ward, current: true, limit: 1 };
      },
      async messages(people, args, more) {
        const byId = args.alderperson?.trim();
        const person = byId
          ? await more<{ id: string; name: string }>('people.public.read', { id: byId }).catch(
              () => (people as { data: { id: string; name: string }[] }).data[0],
            )
          : (people as { data: { id: string; name: string }[] }).data[0];
        if (!person) throw new AppError('not_found', byId ? `No alderperson "${byId}".` : `No current alderperson of ward ${args.ward} in the record.`);
        const year = today().slice(0, 4);
        const votes = await more('votes.list', { person: person.id, from: `${year}-01-01`, limit: 200 });
        return [
          text(
            `How did ${person.name} vote in ${year}? Summarise the roll-call votes attached (Chicago City Council public record): how often Yea, Nay or absent, the closest votes and any vote against the majority, citing record numbers. If there are none this year, say so.`,
          ),
          embedded(template('person'), person.id, person),
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri: `${uriOf(template('person'), person.id)}/votes?from=${year}-01-01`, mimeType: 'application/json', text: JSON.stringify(votes) },
            },
          },
        ];
      },
    },
    {
      name: 'next_council_agenda',
      title: 'What is on the next council agenda',
      description: 'The next meeting of the City Council (or a committee) in the record, with its agenda.',
      arguments: [
        { name: 'body', description: 'A committee’s body id (completed from its name); the City Council when left out.', required: false, completes: 'body' },
      ],
      operation: 'bodies.list',
      input: () => ({ limit: 200 }),
      async messages(bodies, args, more) {
        const list = (bodies as { data: { id: string; name: string; kind: string }[] }).data;
        const body = args.body?.trim() ? list.find((b) => b.id === args.body!.trim()) : list.find((b) => b.kind === 'council');
        if (!body) throw new AppError('not_found', `No body "${args.body}" in the record.`);
        const next = (await more<{ data: { id: string }[] }>('meetings.list', { body: body.id, from: today(), sort: 'date', limit: 1 })).data[0];
        if (!next) {
          const last = (await more<{ data: { id: string; date?: string }[] }>('meetings.list', { body: body.id, sort: '-date', limit: 1 })).data[0];
          return [
            text(
              `The public record holds no upcoming meeting of the ${body.name} (today is ${today()}). Tell me so, and what its latest meeting in the record (attached, if any) took up.`,
            ),
            ...(last ? [embedded(template('meeting'), last.id, await more('meetings.read', { id: last.id }))] : []),
          ];
        }
        const meeting = await more('meetings.read', { id: next.id });
        return [
          text(`What is on the agenda of the next meeting of the ${body.name}? List the items attached (public record), with record numbers, in order.`),
          embedded(template('meeting'), next.id, meeting),
        ];
      },
    },
  ];
}

/** prompts/get: the prompt's messages for this caller (its admission already counted). */
export async function getPrompt(
  ctx: AppContext,
  def: PromptDef,
  admission: Admission,
  actor: Actor,
  args: Record<string, string>,
): Promise<{ description: string; messages: PromptMessage[] }> {
  const first = await ctx.performer.execute(admission, def.input(args));
  const more: Reads = async (id, input) => (await ctx.performer.perform(actor, id, input, { call: { surface: 'mcp' }, count: false })).result as never;
  return { description: def.description, messages: await def.messages(first, args, more) };
}
