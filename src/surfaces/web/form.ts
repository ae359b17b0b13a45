// HTML form bodies (application/x-www-form-urlencoded) and reading their fields. A repeated field
// (checkboxes) becomes an array; everything else stays a string. The parser and its caps are
// shared with query strings (surfaces/http/body-parsers.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseForm } from '../http/body-parsers.ts';

export function useFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, async (_request: FastifyRequest, body: string) => parseForm(body));
}

function record(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** One field's value: the first one if repeated, '' when absent or not text. */
export function field(body: unknown, name: string): string {
  const v = Object.hasOwn(record(body), name) ? record(body)[name] : undefined;
  if (Array.isArray(v)) return typeof v[0] === 'string' ? v[0] : '';
  return typeof v === 'string' ? v : '';
}

/** Every value of a repeated field (checkboxes). */
export function fields(body: unknown, name: string): string[] {
  const v = Object.hasOwn(record(body), name) ? record(body)[name] : undefined;
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' ? [v] : [];
}

/** A list typed into a text box, split on commas, spaces and new lines. */
export function listField(body: unknown, name: string): string[] {
  return field(body, name)
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
