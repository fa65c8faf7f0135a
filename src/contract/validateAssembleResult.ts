/**
 * What an engine's assemble() returned, checked before the host reads it. OpenClaw itself only checks that
 * `messages` is an array (`ensureAssembleResultShape`); the replay also reads every message (provenance, tokens),
 * so a message that is not a message object is a contract failure of that lane, named by its JSON path, instead of a
 * crash of the whole replay.
 */
import { isRecord } from '../common/guards';
import { jsonDepthProblem } from './jsonDepth';
import { AGENT_MESSAGE_ROLES } from './messages';

const ROLES: ReadonlySet<string> = new Set(AGENT_MESSAGE_ROLES);

/** A short description of a value for a contract message (strings cut at 40 characters, never the whole value). */
export function describeResultValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return `${typeof value} ${String(value)}`;
}

const describeValue = describeResultValue;

/** The text field the host reads from each block type (estimators, provenance, tool pairing). */
const STRING_FIELD_OF_BLOCK: ReadonlyMap<string, string> = new Map([
  ['text', 'text'],
  ['thinking', 'thinking'],
  ['toolCall', 'id'],
]);

/** The first problem of a content block list (`path` names the list), or undefined. */
function contentProblem(content: unknown, path: string, stringAllowed: boolean): string | undefined {
  if (typeof content === 'string')
    return stringAllowed ? undefined : `${path} is a string (expected an array of blocks)`;
  if (!Array.isArray(content)) return `${path} is ${describeValue(content)} (expected an array of content blocks)`;
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i];
    if (!isRecord(block) || typeof block.type !== 'string') {
      return `${path}[${i}] is ${describeValue(block)} (expected a content block with a type)`;
    }
    const field = STRING_FIELD_OF_BLOCK.get(block.type);
    if (field !== undefined && typeof block[field] !== 'string') {
      return `${path}[${i}].${field} is ${describeValue(block[field])} (expected a string)`;
    }
  }
  return undefined;
}

/** The first problem of one message (`path` names it), or undefined. */
function messageProblem(message: unknown, path: string): string | undefined {
  if (!isRecord(message)) return `${path} is ${describeValue(message)} (expected a message object with a role)`;
  const role = message.role;
  if (typeof role !== 'string' || !ROLES.has(role)) {
    return `${path}.role is ${describeValue(role)} (expected one of ${[...ROLES].join(', ')})`;
  }
  if (role === 'user' || role === 'custom') return contentProblem(message.content, `${path}.content`, true);
  if (role === 'assistant' || role === 'toolResult') return contentProblem(message.content, `${path}.content`, false);
  const field = role === 'bashExecution' ? 'command' : 'summary';
  if (typeof message[field] !== 'string') {
    return `${path}.${field} is ${describeValue(message[field])} (expected a string)`;
  }
  return undefined;
}

/** The first message of `messages` the host cannot read, named by its JSON path (`messages[i]…`), or undefined. */
export function describeAssembleMessagesProblem(messages: readonly unknown[]): string | undefined {
  for (let i = 0; i < messages.length; i++) {
    const problem = messageProblem(messages[i], `messages[${i}]`);
    if (problem) return problem;
    const depth = jsonDepthProblem(messages[i]);
    if (depth) return `messages[${i}] is ${depth} (expected a message the host can serialise)`;
  }
  return undefined;
}

/** Why `result` is not an AssembleResult the host can read (with the JSON path of the problem), or undefined. */
export function describeAssembleResultProblem(result: unknown): string | undefined {
  if (!isRecord(result)) return `the result is ${describeValue(result)} (expected an object with a "messages" array)`;
  if (!Array.isArray(result.messages)) {
    return `messages is ${describeValue(result.messages)} (expected an array)`;
  }
  return describeAssembleMessagesProblem(result.messages);
}
