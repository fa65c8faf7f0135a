/**
 * `hook-blocked`: the doctor says which of a plugin's hooks OpenClaw drops at registration (the hook-context fixture
 * on a real engine host): agent_end in every release without allowConversationAccess, before_prompt_build from
 * 2026.8 on, before_agent_start from 2026.8 on (unknown there); with allowConversationAccess only the last remains.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenClawConfig } from '../../../src/contract';
import { runDoctor } from '../../../src/plugins';

const FIXTURE = join(import.meta.dirname, '../../fixtures/plugins/hook-context');

async function blocked(config: OpenClawConfig = {}): Promise<string[]> {
  const report = await runDoctor({
    allowExecute: true,
    pluginPaths: [FIXTURE],
    bundledDir: false,
    stateDir: mkdtempSync(join(tmpdir(), 'cs-doctor-hooks-')),
    deadlines: { defaultMs: 10_000 },
    config,
  });
  return report.findings.filter((f) => f.code === 'hook-blocked').map((f) => f.message);
}

describe('doctor: hooks OpenClaw does not run', () => {
  it('names each blocked hook with the release and the reason, and none once access is allowed', async () => {
    const access = 'non-bundled plugins must set plugins.entries.hook-context.hooks.allowConversationAccess=true';
    expect(await blocked()).toEqual([
      `OpenClaw does not run the plugin's agent_end hook: blocked, as OpenClaw blocks it: ${access}`,
      "OpenClaw 2026.8 and later do not run the plugin's before_agent_start hook: OpenClaw 2026.8+ has no " +
        'before_agent_start hook: it ignores the registration ("unknown typed hook"); use before_prompt_build',
      `OpenClaw 2026.8 and later do not run the plugin's before_prompt_build hook: blocked, as OpenClaw blocks it: ${access}`,
    ]);
    const allowed = await blocked({
      plugins: { entries: { 'hook-context': { hooks: { allowConversationAccess: true } } } },
    } as OpenClawConfig);
    expect(allowed.map((m) => m.split(':')[0])).toEqual([
      "OpenClaw 2026.8 and later do not run the plugin's before_agent_start hook",
    ]);
  }, 60_000);
});
