/** A three-turn session whose second turn reads a file (`fileText`, as a `read` tool returns it), written to a temp dir. */
import { join } from 'node:path';
import { SessionBuilder, tempDir } from './sessionBuilder';

export async function writeReadToolSession(fileText: string, path = 'gen.ts'): Promise<{ dir: string; file: string }> {
  const dir = tempDir();
  const b = new SessionBuilder();
  b.turn('hello');
  b.user(`read ${path}`);
  b.assistant('reading it', { toolCalls: [{ type: 'toolCall', id: 'call-1', name: 'read', arguments: { path } }] });
  b.toolResult('call-1', 'read', fileText);
  b.assistant(`${path} is read`);
  b.turn('thanks');
  await b.write(dir);
  return { dir, file: join(dir, 'sess-1.jsonl') };
}
