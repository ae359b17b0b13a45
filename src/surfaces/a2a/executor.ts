// The agent's one executor: a message is a question; the answer is the `answers.create`
// operation, run through the admission the JSON-RPC route already made (access checked, AI answer
// counted; kernel/perform.ts), never a copy of it. Each question is a task: submitted, working,
// then completed with the answer as an artifact and a final message — a text part with the
// answer and a data part with its citations and model — or failed with the error's code.
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { Message, Part, type Task, TaskState } from '@a2a-js/sdk';
import { AppError, normalizeError } from '../../kernel/errors.ts';
import type { Admission, Performer } from '../../kernel/perform.ts';
import type { AnswerOut } from '../../modules/answers/index.ts';

/** Where the JSON-RPC route leaves the call's admission for the executor. */
export const ADMISSION = 'council.admission';

/** The question of a message: its text parts, else a data part's `question`. */
export function questionOf(message: RequestContext['userMessage']): string {
  const text = message.parts
    .flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : []))
    .join('\n')
    .trim();
  if (text) return text;
  for (const p of message.parts) {
    const value = p.content?.$case === 'data' ? (p.content.value as { question?: unknown } | null) : null;
    if (value && typeof value.question === 'string') return value.question;
  }
  return '';
}

const now = () => new Date().toISOString();

function agentMessage(taskId: string, contextId: string, parts: Part[]): Message {
  return Message.fromJSON({ messageId: crypto.randomUUID(), role: 'ROLE_AGENT', taskId, contextId, parts: parts.map((p) => Part.toJSON(p)) as never });
}

function status(taskId: string, contextId: string, state: TaskState, message?: Message) {
  return AgentEvent.statusUpdate({ taskId, contextId, status: { state, timestamp: now(), message }, metadata: undefined });
}

export function answerExecutor(performer: Pick<Performer, 'execute'>): AgentExecutor {
  // Tasks being answered here (id → context id), and those cancelled meanwhile: whatever their
  // answer turns out to be is not published.
  const running = new Map<string, string>();
  const cancelled = new Set<string>();

  async function execute(requestContext: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = requestContext;
    running.set(taskId, contextId);
    if (!requestContext.task) {
      const task: Task = {
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: now(), message: undefined },
        artifacts: [],
        history: [userMessage],
        metadata: undefined,
      };
      bus.publish(AgentEvent.task(task));
    }
    bus.publish(status(taskId, contextId, TaskState.TASK_STATE_WORKING));
    try {
      const admission = requestContext.context.state.get(ADMISSION) as Admission | undefined;
      if (!admission) throw new AppError('internal', 'The question was not admitted.');
      const answer = (await performer.execute(admission, { question: questionOf(userMessage) })) as AnswerOut;
      if (cancelled.has(taskId)) return;
      const parts = [
        Part.fromJSON({ text: answer.answer, mediaType: 'text/plain' }),
        Part.fromJSON({ data: { citations: answer.citations, model: answer.model }, mediaType: 'application/json' }),
      ];
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId: 'answer', name: 'answer', description: 'The answer and the records it cites.', parts, metadata: undefined, extensions: [] },
          append: false,
          lastChunk: true,
          metadata: undefined,
        }),
      );
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_COMPLETED, agentMessage(taskId, contextId, parts)));
    } catch (thrown) {
      if (cancelled.has(taskId)) return;
      const err = normalizeError(thrown);
      const parts = [
        Part.fromJSON({ text: `${err.code}: ${err.message}`, mediaType: 'text/plain' }),
        Part.fromJSON({ data: { error: { code: err.code, message: err.message } }, mediaType: 'application/json' }),
      ];
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_FAILED, agentMessage(taskId, contextId, parts)));
    } finally {
      running.delete(taskId);
      cancelled.delete(taskId);
    }
  }

  return {
    execute,
    async cancelTask(taskId, bus) {
      const contextId = running.get(taskId);
      // Not running here (finished, or on another instance): the handler reports what it can.
      if (contextId === undefined) return;
      cancelled.add(taskId);
      bus.publish(status(taskId, contextId, TaskState.TASK_STATE_CANCELED));
    },
  };
}
