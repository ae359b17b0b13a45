// The MCP wire of /mcp: one JSON-RPC message per HTTP POST, in either protocol era, read into a
// request for the server (./server.ts) and its answer written back. Both eras are stateless here:
//   - 2025 (2025-03-26, 2025-06-18, 2025-11-25): basic/transports §Streamable HTTP, without
//     sessions; the client may `initialize` first, and names its version in MCP-Protocol-Version.
//   - 2026-07-28: every request carries its version and capabilities in `_meta` (the per-request
//     envelope), mirrored in the standard headers (SEP-2243); `server/discover` replaces
//     `initialize`, and every result says `resultType` and who answered.
// Which era a message belongs to, and whether its envelope is well formed, is the SDK's own
// classification (classifyInboundRequest, the body-primary rule); the checks it leaves to the
// serving entry (the header rungs, the 2025 version header, Accept) are made here.
import {
  classifyInboundRequest,
  type JSONRPCRequest,
  LATEST_PROTOCOL_VERSION,
  ProtocolError,
  ProtocolErrorCode,
  type RequestId,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  UnsupportedProtocolVersionError,
} from '@modelcontextprotocol/server';

/** The per-request revisions served (the SDK's modern list: 2026-07-28). */
export const MODERN_VERSIONS: readonly string[] = ['2026-07-28'];

export type Era = 'legacy' | 'modern';

/** One request for the server: its era and version, id, method and params. */
export interface McpRequest {
  era: Era;
  /** The revision the request is served under. */
  version: string;
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
}

/** A JSON-RPC 2.0 error response (JSON-RPC §5.1). */
export interface ErrorMessage {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

/** What a POST holds: a request to answer, a message to accept (202), or a refusal with its status. */
export type Inbound = { kind: 'request'; request: McpRequest } | { kind: 'accepted' } | { kind: 'refused'; status: number; message: ErrorMessage };

export interface WireHeaders {
  accept?: string | undefined;
  protocolVersion?: string | undefined;
  method?: string | undefined;
  name?: string | undefined;
}

export function errorMessage(id: RequestId | null, code: number, message: string, data?: unknown): ErrorMessage {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

const refused = (status: number, id: RequestId | null, err: ProtocolError): Inbound => ({
  kind: 'refused',
  status,
  message: errorMessage(id, err.code, err.message, err.data),
});

/** The id of a body, when it carries a valid one (JSON-RPC §4: a string or a number). */
function idOf(body: unknown): RequestId | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** -32020, the SDK's code for headers that disagree with the body (SEP-2243 §Server Validation). */
const HEADER_MISMATCH = -32020;
const mismatch = (id: RequestId, header: string, body: string): Inbound =>
  refused(400, id, new ProtocolError(HEADER_MISMATCH, `Bad Request: the request headers and body disagree: ${body}`, { mismatch: { header, body } }));

/** SEP-2243: which field of the params the Mcp-Name header mirrors, per method. */
const NAME_SOURCE: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** A header value as sent, or decoded from the `=?base64?…?=` form SEP-2243 uses for non-ASCII; undefined when not canonical. */
function decodeHeader(value: string): string | undefined {
  if (!(value.startsWith('=?base64?') && value.endsWith('?='))) return value;
  const b64 = value.slice(9, -2);
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return undefined;
  const decoded = Buffer.from(b64, 'base64');
  return decoded.toString('base64') === b64 ? decoded.toString('utf8') : undefined;
}

/**
 * The standard headers of a 2026-07-28 request (SEP-2243 §Standard Request Headers): the
 * MCP-Protocol-Version and Mcp-Method headers are required on every request, and Mcp-Name on the
 * methods that name something, equal to the name in the body. (Whether the version and method
 * headers equal the body's the classification has checked.)
 */
function checkModernHeaders(headers: WireHeaders, request: JSONRPCRequest, revision: string): Inbound | null {
  const { id, method } = request;
  if (headers.protocolVersion === undefined) {
    return mismatch(id, '(missing)', `the body envelope names protocol version ${revision} but the required MCP-Protocol-Version header is absent`);
  }
  if (headers.method === undefined) return mismatch(id, '(missing)', `the body names method ${method} but the required Mcp-Method header is absent`);
  const field = NAME_SOURCE[method];
  if (field === undefined) return null;
  const value = (request.params as Record<string, unknown> | undefined)?.[field];
  const bodyValue = typeof value === 'string' ? value : undefined;
  if (headers.name === undefined) {
    return bodyValue === undefined
      ? null
      : mismatch(id, '(missing)', `the body carries params.${field}="${bodyValue}" but the required Mcp-Name header is absent`);
  }
  const named = headers.name.trim();
  const decoded = decodeHeader(named);
  if (decoded === undefined) return mismatch(id, named, 'the Mcp-Name header carries an invalid Base64 sentinel value');
  if (bodyValue !== undefined && decoded !== bodyValue) {
    return mismatch(id, named, `the body carries params.${field}="${bodyValue}" but the Mcp-Name header names "${decoded}"`);
  }
  return null;
}

/** 2025 basic/transports §Sending Messages to the Server: the client MUST accept both JSON and an SSE stream. */
function acceptsBoth(accept: string | undefined): boolean {
  return !!accept?.includes('application/json') && accept.includes('text/event-stream');
}

/** Reads the body of a POST (already parsed as JSON, one message) with the headers it came with. */
export function readInbound(body: unknown, headers: WireHeaders): Inbound {
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    body,
    ...(headers.protocolVersion === undefined ? {} : { protocolVersionHeader: headers.protocolVersion }),
    ...(headers.method === undefined ? {} : { mcpMethodHeader: headers.method }),
    ...(headers.name === undefined ? {} : { mcpNameHeader: headers.name }),
  });
  if (outcome.kind === 'reject') {
    return { kind: 'refused', status: outcome.httpStatus, message: errorMessage(idOf(body), outcome.code, outcome.message, outcome.data) };
  }
  if (outcome.kind === 'modern') {
    // A notification (or a response) needs no answer: 202 (2025 basic/transports §Sending Messages, item 4).
    if (outcome.messageKind === 'notification') return { kind: 'accepted' };
    const revision = outcome.classification.revision ?? MODERN_VERSIONS[0]!;
    const request = outcome.message;
    if (!MODERN_VERSIONS.includes(revision)) {
      return refused(400, request.id, new UnsupportedProtocolVersionError({ supported: [...MODERN_VERSIONS], requested: revision }));
    }
    const headerRefusal = checkModernHeaders(headers, request, revision);
    if (headerRefusal) return headerRefusal;
    return { kind: 'request', request: { era: 'modern', version: revision, id: request.id, method: request.method, params: request.params ?? {} } };
  }
  if (outcome.reason === 'response' || outcome.reason === 'notification') return { kind: 'accepted' };
  if (!acceptsBoth(headers.accept)) {
    return refused(406, null, new ProtocolError(-32000, 'Not Acceptable: Client must accept both application/json and text/event-stream'));
  }
  // 2025-06-18 basic/transports §Protocol Version Header: an unsupported version is 400; none
  // means 2025-03-26. `initialize` names its version in the body instead.
  const version = headers.protocolVersion ?? '2025-03-26';
  if (outcome.reason !== 'initialize' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return refused(
      400,
      null,
      new ProtocolError(-32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`),
    );
  }
  const message = body as JSONRPCRequest;
  return { kind: 'request', request: { era: 'legacy', version, id: message.id, method: message.method, params: message.params ?? {} } };
}

/** The server's name, title and version, as `initialize` gives it and 2026-07-28 results carry it. */
export interface ServerInfo {
  name: string;
  title: string;
  version: string;
}

/** 2026-07-28: results a client may keep, with how long and for whom (ttlMs, cacheScope). */
const CACHEABLE = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read', 'server/discover']);

/**
 * A result as the request's era writes it. 2026-07-28 results say they are complete
 * (`resultType`), those of the listing methods how long they may be kept (0 ms and `private`:
 * what a caller sees depends on its credential), and all name the server in `_meta`.
 */
export function encodeResult(request: McpRequest, result: Record<string, unknown>, serverInfo: ServerInfo): Record<string, unknown> {
  if (request.era === 'legacy') return result;
  const meta = result._meta as Record<string, unknown> | undefined;
  return {
    ...result,
    resultType: 'complete',
    ...(CACHEABLE.has(request.method) ? { ttlMs: 0, cacheScope: 'private' } : {}),
    _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo },
  };
}

/**
 * A tool result with structured content, written once as JSON and left open at its end (server/tools
 * §Structured Content: the JSON as structuredContent, and the same JSON in a TextContent block for
 * clients that read only text). A kept result is kept in this form, so answering it again writes
 * nothing but the envelope, as the REST routes send their kept answers as bytes.
 */
export function openToolResult(value: unknown): string {
  const text = JSON.stringify(value);
  return `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}`;
}

/** A result already written as JSON (openToolResult), to be closed in the request's era. */
export class WrittenResult {
  readonly open: string;
  constructor(open: string) {
    this.open = open;
  }
}

/** encodeResult for a written result: what 2026-07-28 adds to a tools/call result, then the brace. */
export function endWrittenResult(request: McpRequest, written: WrittenResult, serverInfo: ServerInfo): string {
  if (request.era === 'legacy') return `${written.open}}`;
  return `${written.open},"resultType":"complete","_meta":${JSON.stringify({ [SERVER_INFO_META_KEY]: serverInfo })}}`;
}

/**
 * The HTTP status of an error the server answers a request with: 200, the error travelling in the
 * JSON-RPC body (2025 basic/transports), except that a 2026-07-28 request for a method the
 * revision does not have is 404, as the SDK's serving entry answers it.
 */
export function errorStatus(request: McpRequest, code: number): number {
  return request.era === 'modern' && code === ProtocolErrorCode.MethodNotFound ? 404 : 200;
}

/** The version `initialize` agrees on (2025-11-25 basic/lifecycle §Version Negotiation). */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}
