// The A2A agent's bindings for the generated security tests and the inventory: each JSON-RPC
// method (v1.0 and v0.3 names) with the catalogue operation it performs or is gated by, and a
// well-formed call of it.
import type { OperationId } from '../../src/catalogue.ts';

export interface A2aBinding {
  method: string;
  operationId: OperationId;
  params: Record<string, unknown>;
}

const v1Message = { message: { messageId: 'security-matrix', role: 'ROLE_USER', parts: [{ text: 'Who represents the 2nd ward?' }] } };
const v03Message = {
  message: { kind: 'message', messageId: 'security-matrix', role: 'user', parts: [{ kind: 'text', text: 'Who represents the 2nd ward?' }] },
};

// Every method needs public.ai: sending a message performs answers.create; reading or cancelling a
// task is gated by the same operation's access (a task holds an answer).
export const a2aBindings: A2aBinding[] = [
  { method: 'SendMessage', operationId: 'answers.create', params: v1Message },
  { method: 'SendStreamingMessage', operationId: 'answers.create', params: v1Message },
  { method: 'GetTask', operationId: 'answers.create', params: { id: 'no-such-task' } },
  { method: 'CancelTask', operationId: 'answers.create', params: { id: 'no-such-task' } },
  { method: 'message/send', operationId: 'answers.create', params: v03Message },
  { method: 'message/stream', operationId: 'answers.create', params: v03Message },
  { method: 'tasks/get', operationId: 'answers.create', params: { id: 'no-such-task' } },
  { method: 'tasks/cancel', operationId: 'answers.create', params: { id: 'no-such-task' } },
];
