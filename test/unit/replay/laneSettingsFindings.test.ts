import { describe, expect, it } from 'vitest';
import { importRecording, laneSettingsFindings, replaySession } from '../../../src/replay';
import { SessionBuilder } from './sessionBuilder';

const MESSAGE_32K =
  'keepRecentTokens 20000 ≥ prompt budget 12000 (context window 32000 − reserve 20000): a compaction keeps at least 20000 recent tokens, ' +
  'so once the history outgrows 12000 tokens it cannot make the prompt fit and those turns end in prompt_error. This is how OpenClaw behaves ' +
  'with these settings; lower agents.defaults.compaction.keepRecentTokens (below 12000) or use a larger window.';

describe('laneSettingsFindings', () => {
  it('warns when keepRecentTokens is not below window − reserve, with the numbers and what to change', () => {
    expect(
      laneSettingsFindings({
        lane: 'legacy',
        contextWindow: 32000,
        reserveTokens: 20000,
        keepRecentTokens: 20000,
        compactionEnabled: true,
      }),
    ).toEqual([
      { code: 'keep-recent-exceeds-budget', severity: 'warning', lane: 'legacy', turn: null, message: MESSAGE_32K },
    ]);
  });

  it('says which plugin hooks the replay does not run (info), and nothing without hooks', () => {
    const base = {
      lane: 'p',
      contextWindow: 200000,
      reserveTokens: 20000,
      keepRecentTokens: 20000,
      compactionEnabled: true,
    };
    const notRun = [
      { name: 'gateway_start', why: 'belongs to the gateway' },
      { name: 'message_sent', why: 'needs a live channel' },
    ];
    expect(laneSettingsFindings({ ...base, pluginHooks: notRun })).toEqual([
      {
        code: 'plugin-hooks-not-run',
        severity: 'info',
        lane: 'p',
        turn: null,
        message:
          'Plugin hooks not run in this lane: gateway_start (belongs to the gateway); message_sent (needs a live channel). ' +
          "Whatever they do in OpenClaw is not part of this lane; the plugin's other hooks run as OpenClaw runs them.",
      },
    ]);
    expect(laneSettingsFindings({ ...base, pluginHooks: [] })).toEqual([]);
    expect(laneSettingsFindings(base)).toEqual([]);
  });

  it('is silent below the budget, at budget − 1, and when compaction is disabled', () => {
    const base = { lane: 'l', contextWindow: 32000, reserveTokens: 20000, compactionEnabled: true };
    expect(laneSettingsFindings({ ...base, keepRecentTokens: 11999 })).toEqual([]);
    expect(laneSettingsFindings({ ...base, keepRecentTokens: 12000 }).map((f) => f.code)).toEqual([
      'keep-recent-exceeds-budget',
    ]);
    expect(laneSettingsFindings({ ...base, keepRecentTokens: 20000, compactionEnabled: false })).toEqual([]);
  });
});

describe('replaySession lane-level settings findings', () => {
  const session = () => new SessionBuilder().turn('one').turn('two').loaded();

  it("records the finding once per root lane with OpenClaw's defaults at a 32k window, and none at 200k or with keepRecentTokens lowered", async () => {
    const rec = await replaySession({
      session: session(),
      transcriptFiles: 'none',
      lanes: [
        { label: 'small', engine: { kind: 'legacy' }, contextWindow: 32000 },
        { label: 'large', engine: { kind: 'legacy' }, contextWindow: 200000 },
        { label: 'tuned', engine: { kind: 'legacy' }, contextWindow: 32000, keepRecentTokens: 6000 },
      ],
    });
    importRecording(JSON.parse(JSON.stringify(rec)));
    const laneLevel = rec.findings.filter((f) => f.code === 'keep-recent-exceeds-budget');
    expect(laneLevel).toEqual([
      { code: 'keep-recent-exceeds-budget', severity: 'warning', lane: 'small', turn: null, message: MESSAGE_32K },
    ]);
    expect(rec.lanes.map((l) => [l.id, l.reserveTokens, l.keepRecentTokens])).toEqual([
      ['small', 20000, 20000],
      ['large', 20000, 20000],
      ['tuned', 20000, 6000],
    ]);
  });

  it('runs the hooks a real plugin lane subscribed to (recent-window listens to before_compaction): no notice', async () => {
    const rec = await replaySession({
      session: session(),
      transcriptFiles: 'none',
      lanes: [
        { label: 'legacy', engine: { kind: 'legacy' }, contextWindow: 200000 },
        { label: 'window', engine: { kind: 'plugin', plugin: 'recent-window' }, contextWindow: 200000 },
      ],
      plugins: { allowExecute: true },
    });
    expect(rec.lanes.find((l) => l.id === 'window')?.error).toBeUndefined();
    expect(rec.findings.filter((f) => f.code === 'plugin-hooks-not-run')).toEqual([]);
  }, 30_000);
});
