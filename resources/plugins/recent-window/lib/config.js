// Plugin config with defaults. OpenClaw validates plugins.entries.recent-window.config against the manifest's
// configSchema before loading, but register() can still be handed nothing (no entry) or, in older hosts, an
// unvalidated object — so every field is re-checked and clamped here rather than trusted.

export const DEFAULTS = Object.freeze({
  budgetShare: 0.8,
  minRecentTurns: 1,
  fallbackTokenBudget: 100000,
  includeMemoryPrompt: true,
  memoryNote: '',
});

function numberIn(value, min, max, fallback, integer = false) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  const clamped = Math.min(max, Math.max(min, value));
  return integer ? Math.floor(clamped) : clamped;
}

export function resolveConfig(raw) {
  const input = raw && typeof raw === 'object' ? raw : {};
  return Object.freeze({
    budgetShare: numberIn(input.budgetShare, 0.1, 1, DEFAULTS.budgetShare),
    minRecentTurns: numberIn(input.minRecentTurns, 0, 50, DEFAULTS.minRecentTurns, true),
    fallbackTokenBudget: numberIn(input.fallbackTokenBudget, 1000, 2000000, DEFAULTS.fallbackTokenBudget, true),
    includeMemoryPrompt:
      typeof input.includeMemoryPrompt === 'boolean' ? input.includeMemoryPrompt : DEFAULTS.includeMemoryPrompt,
    memoryNote: typeof input.memoryNote === 'string' ? input.memoryNote.trim().slice(0, 2000) : DEFAULTS.memoryNote,
  });
}
