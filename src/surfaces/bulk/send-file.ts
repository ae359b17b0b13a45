// Sends one bulk file with the validators and range handling of RFC 9110: a strong ETag (the
// file's SHA-256, as the manifest lists it) and Last-Modified, the conditional requests of §13 in
// the order of §13.2.2, and single byte ranges (§14). The files never change once written (a new
// export is a new directory), so the SHA-256 is a strong validator of the bytes served.
import { open } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BulkFile } from '../../modules/bulk/index.ts';
import { PUBLIC_CACHE } from '../pages/public-answer.ts';

interface EntityTag {
  weak: boolean;
  opaque: string;
}

/** `*` or a list of entity-tags (§8.8.3, §13.1.1); null when the field cannot be read. */
function entityTags(field: string): '*' | EntityTag[] | null {
  if (field.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  const re = /\s*(W\/)?"([^"]*)"\s*(?:,|$)/gy;
  let end = 0;
  for (let m = re.exec(field); m !== null && m[0].length > 0; m = re.exec(field)) {
    tags.push({ weak: m[1] !== undefined, opaque: m[2]! });
    end = re.lastIndex;
  }
  return end === field.length && tags.length > 0 ? tags : null;
}

/** §8.8.3.2: strong comparison needs both tags strong; weak comparison only equal opaque tags. */
function matches(field: string, opaque: string, strong: boolean): boolean {
  const tags = entityTags(field);
  if (tags === '*') return true;
  return (tags ?? []).some((t) => t.opaque === opaque && !(strong && t.weak));
}

/** An HTTP-date in seconds (§5.6.7), or null when it is not one. */
function httpDate(field: string | undefined): number | null {
  if (field === undefined) return null;
  const ms = Date.parse(field);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

type RangeAnswer = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * The one byte range a `Range` field asks for (§14.1.2): `bytes=first-last`, `bytes=first-` or
 * `bytes=-suffix`. null means "send the whole file": another unit, a malformed field or several
 * ranges, which a server may ignore (§14.2). A range starting past the end is unsatisfiable (§14.1.1).
 */
export function byteRange(field: string, size: number): RangeAnswer {
  const m = /^bytes=\s*(\d*)-(\d*)\s*$/i.exec(field);
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    // A suffix range: the last n bytes (§14.1.2); n = 0, or an empty file, selects nothing.
    const n = Number(m[2]);
    return n === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - n), end: size - 1 };
  }
  const first = Number(m[1]);
  // A last-pos below the first-pos makes the byte-range-spec invalid (§14.1.1): the field is ignored.
  if (m[2] !== '' && Number(m[2]) < first) return null;
  if (first >= size) return 'unsatisfiable';
  return { start: first, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

/** Whether `If-Range` (§13.1.5) lets the range apply: a strong match of the ETag, or exactly the Last-Modified date. */
function ifRangeHolds(field: string | undefined, opaque: string, lastModified: number): boolean {
  if (field === undefined) return true;
  if (/^\s*(W\/)?"/.test(field)) return matches(field, opaque, true);
  return httpDate(field) === lastModified;
}

export async function sendBulkFile(request: FastifyRequest, reply: FastifyReply, file: BulkFile): Promise<FastifyReply> {
  const lastModified = Math.floor(file.modifiedAt.getTime() / 1000);
  const h = request.headers;
  reply
    .header('ETag', `"${file.sha256}"`)
    .header('Last-Modified', file.modifiedAt.toUTCString())
    .header('Cache-Control', PUBLIC_CACHE)
    .header('Accept-Ranges', 'bytes')
    .header('X-Content-Type-Options', 'nosniff');

  // §13.2.2 steps 1–2: If-Match, else If-Unmodified-Since; a failed precondition is 412.
  if (typeof h['if-match'] === 'string') {
    if (!matches(h['if-match'], file.sha256, true)) return reply.status(412).send();
  } else {
    const since = httpDate(h['if-unmodified-since']);
    if (since !== null && lastModified > since) return reply.status(412).send();
  }
  // Steps 3–4: If-None-Match (weak comparison), else If-Modified-Since: 304 for GET and HEAD.
  if (typeof h['if-none-match'] === 'string') {
    if (matches(h['if-none-match'], file.sha256, false)) return reply.status(304).send();
  } else {
    const since = httpDate(h['if-modified-since']);
    if (since !== null && lastModified <= since) return reply.status(304).send();
  }

  reply.type('application/gzip').header('Content-Disposition', `attachment; filename="${file.name}"`);
  // Step 5: Range applies to GET only (§14.2), and only while If-Range holds.
  const ifRange = typeof h['if-range'] === 'string' ? h['if-range'] : undefined;
  const range =
    request.method === 'GET' && typeof h.range === 'string' && ifRangeHolds(ifRange, file.sha256, lastModified) ? byteRange(h.range, file.bytes) : null;
  if (range === 'unsatisfiable') {
    // §15.5.17: 416 with the current length in Content-Range.
    return reply.status(416).header('Content-Range', `bytes */${file.bytes}`).send();
  }
  const { start, end } = range ?? { start: 0, end: file.bytes - 1 };
  const length = end - start + 1;
  if (range) reply.status(206).header('Content-Range', `bytes ${start}-${end}/${file.bytes}`);
  else reply.status(200);
  reply.header('Content-Length', String(Math.max(length, 0)));
  if (request.method === 'HEAD' || length <= 0) return reply.send();
  // Opened before the answer starts, so a file that is gone is an error answer, not a cut-off body.
  const handle = await open(file.path, 'r');
  return reply.send(handle.createReadStream({ start, end }));
}
