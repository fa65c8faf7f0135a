/**
 * The parts of a state dir's `openclaw.json` a replay uses: `agents.defaults.compaction`, the configured models'
 * context windows and `meta.lastTouchedVersion`. Read with json5 here (src/config sits above replay in the layer
 * map); `$include` files are not followed — a value that lives in an included file is reported as not set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSON5 from 'json5';
import { isRecord } from '../../common';
import { errorMessage } from '../../common/errorText';

export interface OpenClawJsonCompaction {
  mode?: string;
  provider?: unknown;
  enabled?: boolean;
  reserveTokens?: number;
  reserveTokensFloor?: number;
  keepRecentTokens?: number;
}

export interface OpenClawJsonFacts {
  path: string;
  compaction: OpenClawJsonCompaction;
  /** `meta.lastTouchedVersion`: the OpenClaw release that last wrote the file */
  lastTouchedVersion?: string;
  /** the whole parsed file (for model lookups) */
  raw: Record<string, unknown>;
  /** the file names `$include`, which this reader does not follow */
  hasIncludes: boolean;
}

/** The file's parse error with where it is, for a person. */
export class OpenClawJsonError extends Error {}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function compactionOf(raw: Record<string, unknown>): OpenClawJsonCompaction {
  const agents = isRecord(raw.agents) ? raw.agents : {};
  const defaults = isRecord(agents.defaults) ? agents.defaults : {};
  const c = isRecord(defaults.compaction) ? defaults.compaction : {};
  const out: OpenClawJsonCompaction = {};
  if (typeof c.mode === 'string') out.mode = c.mode;
  if (c.provider !== undefined) out.provider = c.provider;
  if (typeof c.enabled === 'boolean') out.enabled = c.enabled;
  const reserve = finiteNumber(c.reserveTokens);
  if (reserve !== undefined) out.reserveTokens = reserve;
  const floor = finiteNumber(c.reserveTokensFloor);
  if (floor !== undefined) out.reserveTokensFloor = floor;
  const keep = finiteNumber(c.keepRecentTokens);
  if (keep !== undefined) out.keepRecentTokens = keep;
  return out;
}

/** `<stateDir>/openclaw.json`, or null when the state dir has none. Throws OpenClawJsonError when it is not JSON5. */
export function readOpenClawJson(stateDir: string): OpenClawJsonFacts | null {
  const path = join(stateDir, 'openclaw.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new OpenClawJsonError(`Cannot read ${path}: ${errorMessage(error)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON5.parse(text);
  } catch (error) {
    throw new OpenClawJsonError(`${path} is not valid JSON5: ${errorMessage(error)}`);
  }
  if (!isRecord(parsed)) throw new OpenClawJsonError(`${path}: the top level is not an object.`);
  const meta = isRecord(parsed.meta) ? parsed.meta : {};
  const touched = typeof meta.lastTouchedVersion === 'string' ? meta.lastTouchedVersion.trim() : '';
  return {
    path,
    compaction: compactionOf(parsed),
    ...(touched ? { lastTouchedVersion: touched } : {}),
    raw: parsed,
    hasIncludes: text.includes('$include'),
  };
}

/**
 * The configured context window of `provider/modelId` (`models.providers.<provider>.models[{id}]`): its
 * `contextTokens` capped by its `contextWindow`, else its `contextWindow` — as OpenClaw's
 * `resolveConfiguredContextTokenLimits` (openclaw@2026.9.6 dist context-resolution-*.mjs).
 */
export function configuredContextWindow(
  raw: Record<string, unknown>,
  model: { provider: string; modelId: string },
): number | undefined {
  const models = isRecord(raw.models) ? raw.models : {};
  const providers = isRecord(models.providers) ? models.providers : {};
  const provider = providers[model.provider];
  if (!isRecord(provider) || !Array.isArray(provider.models)) return undefined;
  const entry = provider.models.find((m) => isRecord(m) && m.id === model.modelId);
  if (!isRecord(entry)) return undefined;
  const positive = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined);
  const window = positive(entry.contextWindow);
  const tokens = positive(entry.contextTokens);
  if (tokens !== undefined) return window === undefined ? tokens : Math.min(tokens, window);
  return window;
}
