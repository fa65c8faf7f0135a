/** A subagent child session: optionally a fork of the parent branch, then a few short tool-using turns. */
import type { NewSessionEntry, SessionHeader, SessionStoreEntry, ToolCall } from '../../contract';
import { assistantFinal, commandRun, fileContent, PROJECT_FILES } from './corpus';
import type { GeneratedSession, PendingChild } from './generatedTypes';
import type { Prng } from './prng';
import { SessionSimulator, type ModelChoice } from './sessionSimulator';

export type { PendingChild } from './generatedTypes';

export function generateChildSession(
  child: PendingChild,
  parent: GeneratedSession,
  cwd: string,
  model: ModelChoice,
  rng: Prng,
  textRng: Prng,
  parentKey: string,
): GeneratedSession {
  const header: SessionHeader = {
    type: 'session',
    version: 3,
    id: child.sessionId,
    timestamp: new Date(child.startMs).toISOString(),
    cwd,
    ...(child.forkPath ? { parentSession: parent.fileName } : {}),
  };
  // A fork starts with the parent's branch entries copied verbatim (ids included); the child continues from it.
  const s = new SessionSimulator(header, rng, child.startMs, child.forkPath ?? []);
  s.model = model;
  s.append({ type: 'model_change', provider: model.provider, modelId: model.model } as NewSessionEntry);
  s.advance(1, 2);
  s.appendMessage({ role: 'user', content: `[Subagent task from ${parentKey}]\n${child.task}`, timestamp: s.ms });
  const turns = rng.int(2, 4);
  for (let t = 0; t < turns; t++) {
    if (t > 0) {
      s.advance(5, 30);
      s.appendMessage({
        role: 'user',
        content: rng.pick(['Continue.', 'Keep going with the next file.', '继续。']),
        timestamp: s.ms,
      });
    }
    const path = rng.pick(PROJECT_FILES);
    const call: ToolCall = {
      type: 'toolCall',
      id: `toolu_01${rng.base62(22)}`,
      name: rng.chance(0.5) ? 'read' : 'exec',
      arguments: {},
    };
    if (call.name === 'read') call.arguments = { path };
    const run = call.name === 'exec' ? commandRun(textRng, path) : undefined;
    if (run) call.arguments = { command: run.command, workdir: cwd };
    s.assistant([{ type: 'text', text: `Working on it: ${path}` }, call], 'toolUse');
    if (run)
      s.toolResult(call, [{ type: 'text', text: run.output || '(no output)' }], false, {
        status: 'completed',
        exitCode: run.exitCode,
      });
    else s.toolResult(call, [{ type: 'text', text: fileContent(textRng, path, rng.int(30, 90)) }], false);
    s.assistant([{ type: 'text', text: assistantFinal(textRng, path, [path]) }], 'stop');
  }
  const fileName = `${child.sessionId}.jsonl`;
  const storeEntry: SessionStoreEntry = {
    sessionId: child.sessionId,
    updatedAt: s.ms,
    sessionFile: fileName,
    spawnedBy: parentKey,
    ...(child.forkPath ? { forkedFromParent: true } : {}),
    label: child.label,
    spawnDepth: 1,
  };
  return {
    sessionKey: child.key,
    sessionId: child.sessionId,
    fileName,
    header,
    entries: [...s.transcript.entries()],
    storeEntry,
  };
}
