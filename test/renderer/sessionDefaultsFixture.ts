import type { ResponseOf } from '../../src/bridge';

/** What the runtime says the demo session replays with (its state dir's openclaw.json, its inferred release). */
export const demoDefaults: ResponseOf<'replay.defaults'> = {
  settings: {
    openclawVersion: '2026.7.35',
    contextWindow: 48000,
    reserveTokens: 16384,
    reserveTokensFloor: null,
    keepRecentTokens: 8000,
    compactionMode: 'default',
    compactionEnabled: true,
    model: 'anthropic/claude-sonnet-4-5',
  },
  sources: {
    openclawVersion: 'inferred',
    contextWindow: 'openclaw.json',
    reserveTokens: 'version default',
    reserveTokensFloor: 'version default',
    keepRecentTokens: 'openclaw.json',
    compactionMode: 'version default',
    compactionEnabled: 'version default',
    model: 'session model',
  },
  openclawVersionFrom: 'the session header',
  effective: { reserveTokens: 20000, promptBudget: 28000 },
  configPath: '/app/resources/sessions/openclaw.json',
  notes: [],
  profile: { line: '2026.7', changes: [] },
};
