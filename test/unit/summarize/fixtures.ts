import type { AgentMessage } from '../../../src/contract';

export const UUID = '3f2a1c9e-7b4d-4e8f-9a10-2b3c4d5e6f70';
export const HASH = 'a1b2c3d4e5f60718';
export const URL_ID = 'https://ci.example.com/builds/4412?tab=logs';

/** A small coding session with identifiers, a decision, a failure and a pending call. */
export function codingSession(): AgentMessage[] {
  return [
    {
      role: 'user',
      content: `Please fix the login bug in src/auth/login.ts. The API runs on localhost:8080 and we must not change the public API. Session ${UUID}.`,
      timestamp: 1,
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me read the file first.' },
        { type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'src/auth/login.ts' } },
      ],
      timestamp: 2,
    },
    {
      role: 'toolResult',
      toolCallId: 'c1',
      toolName: 'read',
      content: [{ type: 'text', text: 'export function login() {}' }],
      isError: false,
      timestamp: 3,
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'I decided to use bcrypt instead of md5. Next, I will run the tests.' },
        { type: 'toolCall', id: 'c2', name: 'bash', arguments: { command: 'npm test' } },
      ],
      timestamp: 4,
    },
    {
      role: 'toolResult',
      toolCallId: 'c2',
      toolName: 'bash',
      content: [{ type: 'text', text: `Error: 2 tests failed at commit ${HASH}, see ${URL_ID}` }],
      isError: true,
      timestamp: 5,
    },
    {
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'c3', name: 'edit', arguments: { path: 'src/auth/hash.ts' } }],
      timestamp: 6,
    },
  ];
}
