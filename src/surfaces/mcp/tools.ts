// The MCP tools, generated from the operation catalogue: each operation is one tool, so a new
// operation is a new tool and none can drift from the API. The name is the operation id with `.`
// and `-` as `_` (`matters.read` → `matters_read`; the spec's own name `answer_question` for the
// answers operation), the description is the operation's summary and description, the input schema
// is the operation's input and the output schema its output (MCP 2025-11-25, server/tools §Tool:
// `inputSchema` and `outputSchema` are JSON Schema objects with `type: "object"`). What a caller is
// offered is decided per request by kernel/perform.ts (`mayPerform`), never here.
import type { Tool } from '@modelcontextprotocol/server';
import type { Operation } from '../../kernel/catalogue.ts';

/** Names the specification gives (spec "Purpose": the MCP tool `answer_question`), with their titles. */
const namedBySpec: Readonly<Record<string, { name: string; title: string }>> = {
  'answers.create': { name: 'answer_question', title: 'Answer a question about the council, citing the record' },
};

/** MCP 2025-11-25 server/tools §Tool names: 1–128 of [A-Za-z0-9_.-]; `_` only, as function-calling models accept. */
const TOOL_NAME = /^[A-Za-z0-9_]{1,64}$/;

export function toolName(operationId: string): string {
  return namedBySpec[operationId]?.name ?? operationId.replace(/[.-]/g, '_');
}

type ObjectSchema = Tool['inputSchema'];

/** What tools/list shows of a tool (MCP server/tools §Tool) and the operation it performs. */
export interface ToolDef {
  readonly name: string;
  readonly operation: Operation;
  readonly listing: Tool & { outputSchema: ObjectSchema };
}

/** The last word of an operation id says what a write does: only adding is not destructive. */
function writeHints(id: string): { destructiveHint: boolean; idempotentHint: boolean } {
  const verb = id.slice(id.lastIndexOf('.') + 1);
  return { destructiveHint: !['create', 'add'].includes(verb), idempotentHint: ['delete', 'remove', 'replace', 'set', 'clear', 'upsert'].includes(verb) };
}

/** The id as a short title ("matters.read" → "Matters: read"), or the one given with a spec name. */
function titleOf(op: Operation): string {
  const given = namedBySpec[op.id]?.title;
  if (given) return given;
  const [head, ...rest] = op.id.split('.');
  const words = (s: string) => s.replace(/-/g, ' ');
  return `${words(head!).replace(/^./, (c) => c.toUpperCase())}: ${rest.map(words).join(' ')}`;
}

/** A schema as plain JSON (what goes on the wire), required to be an object schema. */
function objectSchema(schema: unknown, what: string): ObjectSchema {
  const plain = JSON.parse(JSON.stringify(schema)) as ObjectSchema;
  if (plain.type !== 'object') throw new Error(`${what} is not an object schema; an MCP tool needs one.`);
  return plain;
}

function toolOf(op: Operation): ToolDef {
  const name = toolName(op.id);
  if (!TOOL_NAME.test(name)) throw new Error(`Operation ${op.id} makes the tool name "${name}", which MCP clients may refuse.`);
  const title = titleOf(op);
  const read = op.effect === 'read';
  return Object.freeze({
    name,
    operation: op,
    listing: {
      name,
      title,
      description: op.description ? `${op.summary}.\n\n${op.description}` : `${op.summary}.`,
      inputSchema: objectSchema(op.input, `The input of ${op.id}`),
      outputSchema: objectSchema(op.output, `The output of ${op.id}`),
      // MCP server/tools §ToolAnnotations: hints only; the public record is a closed world.
      annotations: read
        ? { title, readOnlyHint: true, idempotentHint: true, openWorldHint: false }
        : { title, readOnlyHint: false, ...writeHints(op.id), openWorldHint: false },
    },
  });
}

export interface Toolbox {
  /** Every tool, in catalogue order. */
  readonly all: readonly ToolDef[];
  byName(name: string): ToolDef | undefined;
}

/**
 * Every operation of the catalogue as a tool, except the batch loaders (tag `batch`): they load the
 * parts of many records at once for GraphQL's nested fields, and each is already offered one record
 * at a time by a tool of its own. Two operations making one name is a programming error.
 */
export function createToolbox(operations: readonly Operation[]): Toolbox {
  const byName = new Map<string, ToolDef>();
  for (const op of operations) {
    if (op.tags.includes('batch')) continue;
    const tool = toolOf(op);
    const taken = byName.get(tool.name);
    if (taken) throw new Error(`Operations ${taken.operation.id} and ${op.id} both make the tool ${tool.name}.`);
    byName.set(tool.name, tool);
  }
  const all = [...byName.values()];
  return { all, byName: (name) => byName.get(name) };
}
