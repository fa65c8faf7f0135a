/**
 * The LLM-facing message list (OpenClaw harness `messages.ts` `convertToLlm`):
 * - `user`, `assistant`, `toolResult` pass through unchanged;
 * - `compactionSummary` and `branchSummary` become synthetic user messages wrapping the summary in `<summary>`;
 * - `bashExecution` becomes a synthetic user message rendered by {@link bashExecutionToText};
 * - `custom` becomes a synthetic user message with its content (a string content becomes one text block);
 *   one with `details.runtimeContextCarrier: true` (OpenClaw 2026.7.35 and 2026.9.6 `convertToLlm` test only
 *   that flag) becomes a user message marked `runtimeContextCarrier: true` instead of `synthetic`;
 * - `bashExecution` / `custom` with `excludeFromContext: true` are dropped, and so are unknown roles.
 * Not reproduced: OpenClaw's operator-message projection and its legacy runtime-context text envelope.
 */
import { asRecord } from '../common/guards';
import type {
  AgentMessage,
  BashExecutionMessage,
  CustomMessage,
  ImageContent,
  TextContent,
  UserMessage,
} from '../contract';
import { RUNTIME_CONTEXT_CUSTOM_TYPE } from '../contract';
import { sessionTimestampMsOrZero } from './timestamps';

export const COMPACTION_SUMMARY_PREFIX =
  'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
export const COMPACTION_SUMMARY_SUFFIX = '\n</summary>';
export const BRANCH_SUMMARY_PREFIX =
  'The following is a summary of a branch that this conversation came back from:\n\n<summary>\n';
export const BRANCH_SUMMARY_SUFFIX = '</summary>';

/**
 * `Ran \`<command>\`` then the output in a fenced block (or `(no output)`), then, separated by a blank line,
 * `(command cancelled)` or `Command exited with code <n>` for a non-zero exit, and
 * `[Output truncated. Full output: <path>]` when truncated output was saved to a file.
 */
export function bashExecutionToText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : '(no output)';
  if (message.cancelled) text += '\n\n(command cancelled)';
  else if (message.exitCode !== null && message.exitCode !== undefined && message.exitCode !== 0) {
    text += `\n\nCommand exited with code ${message.exitCode}`;
  }
  if (message.truncated && message.fullOutputPath)
    text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  return text;
}

/**
 * A runtime-context message: model-visible only for the prompt it was made for, so OpenClaw leaves it out of
 * token estimates and compaction (`stripRuntimeContextCustomMessages`: a `custom` message whose customType is
 * `openclaw.runtime-context`), and one `convertToLlm` marks as a carrier (`details.runtimeContextCarrier: true`).
 */
export function isRuntimeContextCarrier(message: AgentMessage): message is CustomMessage {
  if (message.role !== 'custom') return false;
  return message.customType === RUNTIME_CONTEXT_CUSTOM_TYPE || isMarkedCarrier(message);
}

function isMarkedCarrier(message: CustomMessage): boolean {
  return asRecord(message.details)?.runtimeContextCarrier === true;
}

export function convertToLlm(messages: readonly AgentMessage[]): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (const message of messages) {
    if (!message) continue;
    let content: (TextContent | ImageContent)[];
    switch (message.role) {
      case 'user':
      case 'assistant':
      case 'toolResult':
        out.push(message);
        continue;
      case 'bashExecution':
        if (message.excludeFromContext) continue;
        content = [{ type: 'text', text: bashExecutionToText(message) }];
        break;
      case 'custom':
        if (message.excludeFromContext) continue;
        content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
        break;
      case 'branchSummary':
        content = [{ type: 'text', text: BRANCH_SUMMARY_PREFIX + message.summary + BRANCH_SUMMARY_SUFFIX }];
        break;
      case 'compactionSummary':
        content = [{ type: 'text', text: COMPACTION_SUMMARY_PREFIX + message.summary + COMPACTION_SUMMARY_SUFFIX }];
        break;
      default:
        continue;
    }
    const timestamp =
      message.role === 'compactionSummary'
        ? normalizeSummaryTimestamp(message.timestamp)
        : (message.timestamp as number);
    const user: UserMessage =
      message.role === 'custom' && isMarkedCarrier(message)
        ? { role: 'user', content, timestamp, runtimeContextCarrier: true }
        : { role: 'user', content, timestamp, synthetic: true };
    out.push(user);
  }
  return out;
}

function normalizeSummaryTimestamp(timestamp: number | string): number {
  // A corrupt persisted timestamp must not abort conversion (OpenClaw uses 0 too).
  return typeof timestamp === 'number' ? timestamp : sessionTimestampMsOrZero(timestamp);
}
