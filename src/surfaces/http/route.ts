// One route table shape for every JSON surface. A route names its operation id (the scope
// check), its schemas (validation, serialization and OpenAPI from the same objects) and a
// handler that only parses, calls a service and presents.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { Actor } from '../../kernel/actor.ts';
import { type OperationId, operations } from '../../kernel/operations.ts';

/** Methods that change something: they take an Idempotency-Key, and a session needs CSRF for them. */
export const writeMethods: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface RouteInput<Q, P, B> {
  actor: Actor;
  query: Q;
  params: P;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteDef<QS extends TSchema = TSchema, PS extends TSchema = TSchema, BS extends TSchema = TSchema> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the surface prefix, Fastify style: `/matters/:record`. */
  path: string;
  operation: OperationId;
  summary: string;
  description?: string;
  tags: string[];
  querystring?: QS;
  params?: PS;
  body?: BS;
  /** Schema of a 2xx body; fields not in it are never sent. */
  response: TSchema;
  status?: number;
  /** Responses about people, teams or accounts are never cached by shared caches. */
  private?: boolean;
  /**
   * The 200 answer depends only on the URL and the public record: it is kept in memory until the
   * public record changes (./response-cache.ts). The guard still runs on every request.
   */
  cached?: boolean;
  handler(input: RouteInput<Static<QS>, Static<PS>, Static<BS>>): Promise<unknown>;
}

export function defineRoute<QS extends TSchema, PS extends TSchema, BS extends TSchema>(def: RouteDef<QS, PS, BS>): RouteDef {
  return def as unknown as RouteDef;
}

/** What the route's `config` carries for hooks and the OpenAPI transform. */
export interface RouteConfig {
  operation: OperationId;
}

export function scopesOf(operation: OperationId): string[] {
  return [...operations[operation].scopes];
}
