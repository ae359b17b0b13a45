// The inputs of agent registration and the claim refusals. A refusal is an AppError (400) that
// also names its RFC 8628 §3.5 / RFC 6749 §5.2 error code, which the agent surface renders as
// `{ error, error_description }`.
import { AppError } from '../../../kernel/errors.ts';
import { parseMailbox } from '../../../kernel/mailbox.ts';

export type ClaimErrorCode = 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_grant';

export class ClaimRefusal extends AppError {
  readonly error: ClaimErrorCode;
  /** The polling interval the client must keep (authorization_pending, slow_down). */
  readonly interval: number | null;
  constructor(error: ClaimErrorCode, message: string, interval: number | null = null) {
    super('invalid_request', message);
    this.error = error;
    this.interval = interval;
  }
}

const invalid = (message: string) => new AppError('invalid_request', message);

export function parseRegistration(input: unknown): { email: string; agentName: string; agentUri: string | null } {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw invalid('Send a JSON object: { "email", "agent_name", "agent_uri" (optional) }.');
  const body = input as Record<string, unknown>;
  const unknown = Object.keys(body).filter((k) => !['email', 'agent_name', 'agent_uri'].includes(k));
  if (unknown.length) throw invalid(`Unknown field ${unknown.map((k) => `"${k.slice(0, 50)}"`).join(', ')}; send email, agent_name and optionally agent_uri.`);
  const email = parseMailbox(body.email);
  const name = typeof body.agent_name === 'string' ? body.agent_name.trim() : '';
  if (name === '') throw invalid('agent_name is required: the name the person will see.');
  if (name.length > 100) throw invalid('agent_name must be at most 100 characters.');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) throw invalid('agent_name must not contain control characters.');
  let agentUri: string | null = null;
  if (body.agent_uri !== undefined && body.agent_uri !== null) {
    const raw = typeof body.agent_uri === 'string' ? body.agent_uri.trim() : '';
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      url = null;
    }
    if (url?.protocol !== 'https:' || url.username || url.password || raw.length > 2048)
      throw invalid('agent_uri must be an https URL (at most 2048 characters).');
    agentUri = url.toString();
  }
  return { email, agentName: name, agentUri };
}
