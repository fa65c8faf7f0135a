/**
 * A transcript target as OpenClaw's transcript functions take it (`{agentId?, sessionKey?, sessionId, storePath?,
 * env?}`), checked and normalized the way OpenClaw does: the agent id is `agentId` or the one in an
 * `agent:<id>:…` session key, normalized to OpenClaw's canonical form; without either it is an error.
 */
import { isRecord } from '../../../common/guards';
import type { TranscriptTarget } from './transcriptLocator';

const DEFAULT_AGENT_ID = 'main';
const VALID_AGENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/** OpenClaw's `normalizeAgentId`: lower case, other characters as dashes, at most 64; "main" when nothing is left. */
export function normalizeAgentId(value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  const lower = trimmed.toLowerCase();
  if (VALID_AGENT_ID.test(trimmed)) return lower;
  const id = lower
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+/, '')
    .replace(/-+$/, '')
    .slice(0, 64);
  return id || DEFAULT_AGENT_ID;
}

/** The agent id of an `agent:<agentId>:<rest>` session key. */
export function agentIdOfSessionKey(sessionKey: string): string | undefined {
  const parts = sessionKey.trim().split(':');
  if (parts.length < 3 || parts[0]?.toLowerCase() !== 'agent') return undefined;
  const agentId = parts[1]?.trim();
  const rest = parts.slice(2).join(':').trim();
  return agentId && rest ? agentId : undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A TypeError/Error naming the module and function, for a target an engine passed. */
export function targetError(where: string, detail: string): Error {
  return new Error(`${where}: ${detail}`);
}

function resolveAgentId(where: string, agentId: unknown, sessionKey: string | undefined): string {
  if (typeof agentId === 'string' && agentId.trim()) return normalizeAgentId(agentId);
  if (agentId !== undefined && typeof agentId !== 'string')
    throw new TypeError(`${where}: agentId must be a string (got ${describe(agentId)})`);
  const fromKey = sessionKey ? agentIdOfSessionKey(sessionKey) : undefined;
  if (fromKey) return normalizeAgentId(fromKey);
  if (sessionKey?.trim().toLowerCase().startsWith('agent:'))
    throw targetError(where, `malformed agent session key ${describe(sessionKey)}; refusing default-agent resolution`);
  throw targetError(
    where,
    `session key ${describe(sessionKey)} does not contain an agent id; pass agentId (OpenClaw resolves it with the configured default agent)`,
  );
}

function optionalString(where: string, params: Record<string, unknown>, key: string): string | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new TypeError(`${where}: ${key} must be a string (got ${describe(value)})`);
  return value.trim() ? value : undefined;
}

/** The checked target of a call `where` (e.g. `openclaw/plugin-sdk/session-transcript-runtime readX`). */
export function parseTranscriptTarget(where: string, params: unknown): TranscriptTarget {
  if (!isRecord(params))
    throw new TypeError(
      `${where}: expected a target object {agentId?, sessionKey?, sessionId} (got ${describe(params)})`,
    );
  const sessionId = params.sessionId;
  if (typeof sessionId !== 'string' || !sessionId.trim())
    throw new TypeError(`${where}: sessionId must be a non-empty string (got ${describe(sessionId)})`);
  const sessionKey = optionalString(where, params, 'sessionKey');
  const storePath = optionalString(where, params, 'storePath');
  const sessionFile = optionalString(where, params, 'sessionFile');
  const env = isRecord(params.env) ? (params.env as Record<string, string | undefined>) : undefined;
  return {
    agentId: resolveAgentId(where, params.agentId, sessionKey),
    sessionId,
    ...(sessionKey ? { sessionKey } : {}),
    ...(storePath ? { storePath } : {}),
    ...(sessionFile ? { sessionFile } : {}),
    ...(env ? { env } : {}),
  };
}
