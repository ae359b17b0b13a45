// The params of every JSON-RPC method of /a2a, checked before the SDK reads them: the SDK trusts
// their types (a number where a task id goes reaches `taskId.trim()` and answers -32603 with the
// runtime's words), so a value of the wrong type is refused here as -32602 Invalid params
// (JSON-RPC 2.0 §5.1) with a plain message naming the field. The shapes are those of A2A v1.0
// (§9, the JSON-RPC binding of the proto messages) and of A2A v0.3 (its JSON-RPC schema); only
// the types are checked (presence and meaning stay the SDK's), and unknown fields pass, as the
// SDK ignores them. Before that, what the SDK would pass to the database unchecked is refused
// with 400 (checkParams).
import { type TSchema, Type } from 'typebox';
import { AppError } from '../../kernel/errors.ts';
import { validate } from '../../kernel/schema.ts';

/** An optional field; null stands for its absence, as the SDK reads it. */
const opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const open = <P extends Record<string, TSchema>>(properties: P) => Type.Object(properties, { additionalProperties: true });
const str = Type.String();
const int = Type.Integer();
const strings = Type.Array(Type.String());
const object = Type.Object({}, { additionalProperties: true });

const v1Part = open({
  text: opt(str),
  raw: opt(str),
  url: opt(str),
  data: opt(Type.Unknown()),
  metadata: opt(object),
  filename: opt(str),
  mediaType: opt(str),
});
const v1Message = open({
  messageId: opt(str),
  contextId: opt(str),
  taskId: opt(str),
  role: opt(str),
  parts: opt(Type.Array(v1Part)),
  metadata: opt(object),
  extensions: opt(strings),
  referenceTaskIds: opt(strings),
});
const configuration = open({
  acceptedOutputModes: opt(strings),
  historyLength: opt(int),
  blocking: opt(Type.Boolean()),
  returnImmediately: opt(Type.Boolean()),
  pushNotificationConfig: opt(object),
});
const v1Send = open({ tenant: opt(str), message: opt(v1Message), configuration: opt(configuration), metadata: opt(object) });
const v1TaskId = open({ tenant: opt(str), id: str, historyLength: opt(int), metadata: opt(object) });
const v1PushConfig = open({ tenant: opt(str), taskId: str, id: opt(str), pageSize: opt(int), pageToken: opt(str) });

const v03Part = open({ kind: opt(str), text: opt(str), file: opt(object), data: opt(object), metadata: opt(object) });
const v03Message = open({
  kind: opt(str),
  messageId: opt(str),
  role: opt(str),
  parts: opt(Type.Array(v03Part)),
  contextId: opt(str),
  taskId: opt(str),
  metadata: opt(object),
  extensions: opt(strings),
  referenceTaskIds: opt(strings),
});
const v03Send = open({ message: opt(v03Message), configuration: opt(configuration), metadata: opt(object) });
const v03TaskId = open({ id: str, historyLength: opt(int), metadata: opt(object) });
const v03PushConfig = open({ id: str, pushNotificationConfigId: opt(str), metadata: opt(object) });

/** Each method's params. A method not named here is the SDK's to refuse (method not found). */
export const paramsOf: Readonly<Record<string, TSchema>> = {
  SendMessage: v1Send,
  SendStreamingMessage: v1Send,
  GetTask: v1TaskId,
  CancelTask: v1TaskId,
  SubscribeToTask: v1TaskId,
  ListTasks: open({
    tenant: opt(str),
    contextId: opt(str),
    status: opt(str),
    pageSize: opt(int),
    pageToken: opt(str),
    historyLength: opt(int),
    statusTimestampAfter: opt(str),
    includeArtifacts: opt(Type.Boolean()),
  }),
  CreateTaskPushNotificationConfig: open({ tenant: opt(str), taskId: str, id: opt(str), url: opt(str), token: opt(str), authentication: opt(object) }),
  GetTaskPushNotificationConfig: v1PushConfig,
  ListTaskPushNotificationConfigs: v1PushConfig,
  DeleteTaskPushNotificationConfig: v1PushConfig,
  GetExtendedAgentCard: open({ tenant: opt(str) }),
  'message/send': v03Send,
  'message/stream': v03Send,
  'tasks/get': v03TaskId,
  'tasks/cancel': v03TaskId,
  'tasks/resubscribe': v03TaskId,
  'tasks/pushNotificationConfig/set': open({ taskId: str, pushNotificationConfig: object }),
  'tasks/pushNotificationConfig/get': v03PushConfig,
  'tasks/pushNotificationConfig/list': v03PushConfig,
  'tasks/pushNotificationConfig/delete': v03PushConfig,
  'agent/getAuthenticatedExtendedCard': open({}),
};

/** Why the params of `method` cannot be used (a type the method does not take), or null. */
export function paramsProblem(method: string, params: unknown): string | null {
  const schema = Object.hasOwn(paramsOf, method) ? paramsOf[method] : undefined;
  if (!schema) return null;
  try {
    validate(schema, params ?? {}, `params of ${method}`);
    return null;
  } catch (err) {
    if (err instanceof AppError) return err.message;
    throw err;
  }
}

export interface RpcBody {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** Ids a client may choose (a new task's context, a follow-up's task) fit the task store's columns. */
const MAX_ID = 36;

/**
 * What the SDK would pass on to the database unchecked: a NUL (PostgreSQL text refuses it), an id
 * longer than the store's columns, a tenant (the agent serves one council: a tenant would only
 * split the caller's own tasks). Refused here with 400, before anything is counted as an answer.
 */
export function checkParams(body: RpcBody | null): void {
  if (JSON.stringify(body)?.includes('\\u0000')) throw new AppError('invalid_request', 'The request contains a NUL character.');
  const params = body && typeof body === 'object' && body.params && typeof body.params === 'object' ? (body.params as Record<string, any>) : null;
  if (!params) return;
  if (params.tenant !== undefined && params.tenant !== '') throw new AppError('invalid_request', 'This agent has no tenants: leave params.tenant out.');
  const m = params.message && typeof params.message === 'object' ? params.message : null;
  const ids = [m?.contextId, m?.taskId, ...(Array.isArray(m?.referenceTaskIds) ? m.referenceTaskIds : [])];
  if (ids.some((id) => typeof id === 'string' && id.length > MAX_ID)) {
    throw new AppError('invalid_request', `A task or context id is at most ${MAX_ID} characters (the ids this agent issues are UUIDs).`);
  }
}
