/**
 * Opening an exported recording over 10 MiB (the bridge's request cap) from a file, against the real bridge tables
 * (main/handlers.ts): the app sends the file in bridge.upload pieces — no request over 1 MB — and the Replay view's
 * recording holds the session's 11 MB tool result whole. Before, the import was refused (payload_too_large).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_MAX_REQUEST_BYTES } from '../../src/bridge';
import { BRIDGE_MESSAGE_BYTES } from '../../src/replay';
import { resetRecentRecordingsStore, useRecentRecordingsStore } from '../../renderer/src/store/recentRecordingsStore';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { writeReadToolSession } from '../unit/replay/readToolSession';
import { exportedJson, measuringClient, replayToEnd } from './measuringClient';

/** an 11 MB log file, as a `read` tool returns it */
const FILE = Array.from(
  { length: 120_000 },
  (_, i) => `2026-11-30T10:00:00Z worker ${i % 7} ok ${'·'.repeat(40)} #${i}\n`,
).join('');

const savedConfigDir = process.env.CONTEXTSCOPE_CONFIG_DIR;
let configDir = '';

beforeAll(() => {
  configDir = mkdtempSync(join(tmpdir(), 'cs-large-import-'));
  process.env.CONTEXTSCOPE_CONFIG_DIR = configDir;
  resetReplayStore();
  resetRecentRecordingsStore();
});
afterAll(() => {
  if (savedConfigDir === undefined) delete process.env.CONTEXTSCOPE_CONFIG_DIR;
  else process.env.CONTEXTSCOPE_CONFIG_DIR = savedConfigDir;
  rmSync(configDir, { recursive: true, force: true });
});

it('imports an exported recording over 10 MiB in upload pieces, its big message whole', async () => {
  const { client, requests } = measuringClient();
  const { file } = await writeReadToolSession(FILE, 'a.log');
  const replayId = await replayToEnd(client, file);
  const exported = await exportedJson(client, replayId);
  expect(Buffer.byteLength(exported)).toBeGreaterThan(DEFAULT_MAX_REQUEST_BYTES);
  requests.length = 0;

  expect(await useRecentRecordingsStore.getState().importFile(client, 'big.recording.json', exported)).toBe(true);

  expect(useRecentRecordingsStore.getState().error).toBeNull();
  const uploads = requests.filter((r) => r.method === 'bridge.upload');
  expect(uploads.length).toBeGreaterThan(10);
  expect(Math.max(...requests.map((r) => r.bytes))).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
  const recording = useReplayStore.getState().recording!;
  const texts = Object.values(recording.messages).map((record) => {
    const message = record.message as { role: string; content?: { text?: string }[] };
    return message.role === 'toolResult' ? (message.content ?? []).map((part) => part.text ?? '').join('') : '';
  });
  expect(texts).toContain(FILE);
  console.log(
    `import of a ${Buffer.byteLength(exported)}-byte recording: ${uploads.length} uploads, largest request ${Math.max(...requests.map((r) => r.bytes))} bytes`,
  );
}, 120_000);
