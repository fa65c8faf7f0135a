/**
 * What an engine's assemble() returned, checked before the host reads it. OpenClaw itself only checks that
 * `messages` is an array (`ensureAssembleResultShape`); the replay also reads every message (provenance, tokens),
 * so a message that is not a message object is a contract failure of that lane, named by its JSON path, instead of a
 * crash of the whole replay.
 */
import { isRecord } from '../common/guards';
import { AGENT_MESSAGE_ROLES } from './messages';

const ROLES: ReadonlySet<string> = new Set(AGENT_MESSAGE_ROLES);

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

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
    if (block.type === 'text' && typeof block.text !== 'string') {
      return `${path}[${i}].text is ${describeValue(block.text)} (expected a string)`;
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
  if (role === 'user') return contentProblem(message.content, `${path}.content`, true);
  if (role === 'assistant' || role === 'toolResult') return contentProblem(message.content, `${path}.content`, false);
  return undefined;
}

/** Why `result` is not an AssembleResult the host can read (with the JSON path of the problem), or undefined. */
export function describeAssembleResultProblem(result: unknown): string | undefined {
  if (!isRecord(result)) return `the result is ${describeValue(result)} (expected an object with a "messages" array)`;
  if (!Array.isArray(result.messages)) {
    return `messages is ${describeValue(result.messages)} (expected an array)`;
  }
  for (let i = 0; i < result.messages.length; i++) {
    const problem = messageProblem(result.messages[i], `messages[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}
