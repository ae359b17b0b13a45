// The shape of an operation: one entry of the catalogue that every surface binds. A module defines
// its operations next to its services (modules/<m>/operations.ts): what the operation is called
// and does, its input and output schemas, who may perform it (Access), how it counts against the
// limits, and `run`, which calls the module's service. Surfaces never copy a handler: an HTTP
// route, a dashboard page, a GraphQL field, an MCP tool and an A2A skill all perform the same
// entry through kernel/perform.ts, so none can drift from another.
import type { Static, TObject, TSchema } from 'typebox';
import type { Actor } from './actor.ts';
import type { Access, LimitClass } from './access.ts';

/** The surface an operation is performed through (some operations record it, e.g. stance history). */
export type SurfaceName = 'v1' | 'v2' | 'dashboard' | 'web' | 'graphql' | 'mcp' | 'a2a';

export interface Call {
  surface: SurfaceName;
}

export interface OperationDef<S, I extends TObject = TObject, O extends TSchema = TSchema> {
  summary: string;
  description?: string;
  /** Groups in the API descriptions (matters, votes, team, …). */
  tags: readonly string[];
  /** The whole input as one object: path, query and body fields of a route, a tool's arguments. */
  input: I;
  /** What `run` returns; an HTTP answer is serialized through it, so nothing else is ever sent. */
  output: O;
  access: Access;
  limit: LimitClass;
  /** Reads change nothing (MCP read-only tools, GraphQL query fields); writes change something. */
  effect: 'read' | 'write';
  /** The answer depends only on the input and the public record: it may be kept until that changes. */
  cached?: boolean;
  /**
   * A read whose answer also depends on rows that name their changes (kernel/coherence.ts, migration
   * 0150): the key of the change that makes it stale. An answer kept with this read in it (a public
   * page showing a record's follower count) is dropped when that key changes, and only then.
   */
  changesWith?(input: Static<I>, output: Static<O>): string;
  /** About a person, a team or an account: never stored by shared caches. */
  private?: boolean;
  /**
   * Its run waits on the AI model and changes no data: an Idempotency-Key's answer is kept after it
   * ran, not in a unit of work held open through the model's seconds (surfaces/http/idempotency.ts).
   */
  waitsOnModel?: boolean;
  run(svc: S, actor: Actor, input: Static<I>, call: Call): Promise<unknown>;
}

/** An operation bound to its module's service: what the performer runs. */
export interface Operation {
  readonly id: string;
  readonly summary: string;
  readonly description: string | undefined;
  readonly tags: readonly string[];
  readonly input: TObject;
  readonly output: TSchema;
  readonly access: Access;
  readonly limit: LimitClass;
  readonly effect: 'read' | 'write';
  readonly cached: boolean;
  readonly changesWith: ((input: any, output: any) => string) | undefined;
  readonly private: boolean;
  readonly waitsOnModel: boolean;
  run(actor: Actor, input: any, call: Call): Promise<unknown>;
}

/** Typed definitions for one module's service `S`: `const op = operationsOf<PublicData>()`. */
export function operationsOf<S>() {
  return <I extends TObject, O extends TSchema>(def: OperationDef<S, I, O>): OperationDef<S, I, O> => def;
}

/** Binds a module's definitions to its service. */
export function bindOperations<S>(svc: S, defs: Record<string, OperationDef<S, any, any>>): Operation[] {
  return Object.entries(defs).map(([id, def]) =>
    Object.freeze({
      id,
      summary: def.summary,
      description: def.description,
      tags: def.tags,
      input: def.input,
      output: def.output,
      access: def.access,
      limit: def.limit,
      effect: def.effect,
      cached: def.cached === true,
      changesWith: def.changesWith,
      private: def.private === true,
      waitsOnModel: def.waitsOnModel === true,
      run: (actor: Actor, input: unknown, call: Call) => def.run(svc, actor, input as never, call),
    }),
  );
}
