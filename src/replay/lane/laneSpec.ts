/**
 * Lane spec strings, as the CLI and the bridge accept them:
 *
 *   legacy[?<options>]
 *   plugin:<path-or-id>[?<options>]
 *
 * where <options> are `&`-separated `name=value` pairs:
 *   config=<file.json>   the plugin's config (plugins.entries.<id>.config), a JSON/JSON5 file
 *   engine=<engineId>    which of the plugin's registered engines the lane selects (default: the first)
 *   window=<N>           this lane's context window in tokens (default: --window)
 *   reserve=<N>          this lane's configured compaction reserveTokens (default: --reserve)
 *   host=<host>          embedded | codex | cli:<backendId> | agent-harness:<id> (default: --host)
 *   label=<text>         the lane's display label
 *   timeoutMs=<ms>       plugin lanes: the deadline for each engine call (default: --call-timeout, else 30000)
 *   maxResultMb=<MB>     plugin lanes: the largest engine result taken from the engine host (default: --max-result-mb,
 *                        else 64); a larger one quarantines the lane
 *   allow=<grants>       plugin lanes: `child-process` and/or `worker` (comma-separated) for the engine host, which
 *                        Node's permission model refuses otherwise; granted with --allow-execute or when the plugin
 *                        was approved with them
 *   hostCodec=<codec>    plugin lanes: how values cross the engine-host channel, `refs` (message references, the
 *                        default unless CONTEXTSCOPE_HOST_CODEC says otherwise) or `json` (every value whole;
 *                        src/plugins/host/PROTOCOL.md)
 * Values are percent-decoded, so a path with `&` or `?` can be written with %26 / %3F.
 *
 * This file is the one place of that syntax: `parseLaneSpec` reads it, `printLaneSpec` writes a lane given as data
 * (the bridge's LaneSchema: what the app sends, what `config.tryLanes` builds) as the string a person could type.
 */
import type { LaneRequest } from '../../bridge';
import { HOST_GRANT_NAMES, parseHostGrants, type HostGrants } from '../../plugins/host/hostPermissions';
import { HOST_CODEC_NAMES, isHostCodecName, type HostCodecName } from '../../plugins/host/channelCodec';

export type HostSpec = 'embedded' | 'codex' | `cli:${string}` | `agent-harness:${string}`;

interface LaneSpecCommon {
  /** the spec string as written */
  spec: string;
  window?: number;
  reserve?: number;
  host?: HostSpec;
  label?: string;
}

export type ParsedLaneSpec =
  | (LaneSpecCommon & { kind: 'legacy' })
  | (LaneSpecCommon & {
      kind: 'plugin';
      plugin: string;
      configFile?: string;
      /** the plugin config itself, as JSON5 text (`configJson5=`) */
      configText?: string;
      engineId?: string;
      /** the deadline for each engine call, in ms (`timeoutMs=`) */
      timeoutMs?: number;
      /** the largest message taken from the engine host, in bytes (`maxResultMb=`, in MiB) */
      maxResultBytes?: number;
      /** child processes / worker threads asked for the engine host (`allow=child-process,worker`) */
      allow?: HostGrants;
      /** how values cross the engine-host channel (`hostCodec=refs|json`) */
      hostCodec?: HostCodecName;
    });

export class LaneSpecError extends Error {
  readonly code = 'lane_spec_invalid';
  constructor(message: string) {
    super(message);
    this.name = 'LaneSpecError';
  }
}

const LEGACY_OPTIONS = ['window', 'reserve', 'host', 'label'] as const;
const PLUGIN_OPTIONS = [
  'config',
  'configJson5',
  'engine',
  'timeoutMs',
  'maxResultMb',
  'allow',
  'hostCodec',
  ...LEGACY_OPTIONS,
] as const;
const SYNTAX =
  'legacy[?window=N&reserve=N&host=H&label=L] or plugin:<path-or-id>[?config=<file.json>|configJson5=<percent-encoded JSON5>][&engine=<engineId>]';

/** Parse `embedded | codex | cli:<id> | agent-harness:<id>`; throws a LaneSpecError naming the valid forms. */
export function parseHostSpec(value: string, where = 'host'): HostSpec {
  const v = value.trim();
  if (v === 'embedded' || v === 'codex') return v;
  const m = /^(cli|agent-harness):(.+)$/.exec(v);
  if (m && m[2].trim()) return `${m[1]}:${m[2].trim()}` as HostSpec;
  throw new LaneSpecError(`Invalid ${where} "${value}": use embedded, codex, cli:<backendId> or agent-harness:<id>.`);
}

function parseTokenCount(value: string, name: string, spec: string, allowZero: boolean): number {
  if (!/^\d+$/.test(value.trim()) || (!allowZero && Number(value) === 0)) {
    throw new LaneSpecError(
      `Invalid lane spec "${spec}": ${name}=${value} must be a ${allowZero ? 'non-negative' : 'positive'} whole number of tokens.`,
    );
  }
  return Number(value);
}

/** A positive size in MiB (`64`, `0.5`) as bytes; throws a LaneSpecError naming `where`. */
export function parseMegabytes(value: string, where: string): number {
  const mb = Number(value.trim());
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(mb > 0))
    throw new LaneSpecError(`Invalid ${where} "${value}": give a positive number of megabytes, e.g. 64 or 0.5.`);
  return Math.round(mb * (1 << 20));
}

function parseLaneHostCodec(value: string, spec: string): HostCodecName {
  if (isHostCodecName(value)) return value;
  throw new LaneSpecError(`Invalid lane spec "${spec}": hostCodec=${value} must be ${HOST_CODEC_NAMES.join(' or ')}.`);
}

function decode(value: string, spec: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new LaneSpecError(`Invalid lane spec "${spec}": "${value}" is not valid percent-encoding.`);
  }
}

export function parseLaneSpec(spec: string): ParsedLaneSpec {
  const text = spec.trim();
  if (!text) throw new LaneSpecError(`Empty lane spec. Expected ${SYNTAX}.`);
  const q = text.indexOf('?');
  const head = q === -1 ? text : text.slice(0, q);
  const query = q === -1 ? '' : text.slice(q + 1);

  let base: { kind: 'legacy' } | { kind: 'plugin'; plugin: string };
  if (head === 'legacy') base = { kind: 'legacy' };
  else if (head.startsWith('plugin:')) {
    const plugin = decode(head.slice('plugin:'.length).trim(), text);
    if (!plugin) throw new LaneSpecError(`Invalid lane spec "${spec}": plugin: needs a path or a plugin id.`);
    base = { kind: 'plugin', plugin };
  } else {
    throw new LaneSpecError(
      `Invalid lane spec "${spec}": it must start with "legacy" or "plugin:". Expected ${SYNTAX}.`,
    );
  }

  const allowed: readonly string[] = base.kind === 'legacy' ? LEGACY_OPTIONS : PLUGIN_OPTIONS;
  const out: Record<string, unknown> = { ...base, spec: text };
  const seen = new Set<string>();
  for (const pair of query ? query.split('&') : []) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1), text);
    if (!allowed.includes(name)) {
      throw new LaneSpecError(
        `Invalid lane spec "${spec}": unknown option "${name}". ${base.kind === 'legacy' ? 'legacy' : 'plugin'} lanes accept ${allowed.join(', ')}.`,
      );
    }
    if (seen.has(name)) throw new LaneSpecError(`Invalid lane spec "${spec}": option "${name}" is given twice.`);
    seen.add(name);
    if (!value) throw new LaneSpecError(`Invalid lane spec "${spec}": option "${name}" needs a value (${name}=...).`);
    switch (name) {
      case 'config':
        out.configFile = value;
        break;
      case 'configJson5':
        out.configText = value;
        break;
      case 'engine':
        out.engineId = value;
        break;
      case 'timeoutMs':
        if (!/^\d+$/.test(value.trim()) || Number(value) === 0) {
          throw new LaneSpecError(
            `Invalid lane spec "${spec}": timeoutMs=${value} must be a positive whole number of milliseconds.`,
          );
        }
        out.timeoutMs = Number(value);
        break;
      case 'maxResultMb':
        out.maxResultBytes = parseMegabytes(value, `maxResultMb in lane spec "${spec}"`);
        break;
      case 'allow':
        try {
          out.allow = parseHostGrants(value);
        } catch (error) {
          throw new LaneSpecError(`Invalid lane spec "${spec}": allow=${value}: ${(error as Error).message}.`);
        }
        break;
      case 'hostCodec':
        out.hostCodec = parseLaneHostCodec(value, spec);
        break;
      case 'window':
        out.window = parseTokenCount(value, name, text, false);
        break;
      case 'reserve':
        out.reserve = parseTokenCount(value, name, text, true);
        break;
      case 'host':
        out.host = parseHostSpec(value, `host in lane spec "${spec}"`);
        break;
      case 'label':
        out.label = value;
        break;
    }
  }
  return out as unknown as ParsedLaneSpec;
}

/** A short default label: "legacy", or the plugin id/folder name plus the engine id when one is named. */
export function defaultLaneLabel(parsed: ParsedLaneSpec): string {
  if (parsed.label) return parsed.label;
  if (parsed.kind === 'legacy') return parsed.window ? `legacy@${parsed.window}` : 'legacy';
  const base =
    parsed.plugin
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() || parsed.plugin;
  const name = parsed.engineId ? `${base}:${parsed.engineId}` : base;
  return parsed.window ? `${name}@${parsed.window}` : name;
}

/**
 * Characters that would end a spec's plugin part or an option value (`?`, `&`, `#`), the escape itself (`%`) and
 * white space (a spec travels as one word: the app's typed-lanes field, a shell) are percent-encoded; the parser
 * decodes them, so any path or text prints and parses back to itself.
 */
function escapeSpecText(text: string): string {
  return text.replace(/[%?&#\s]/g, (c) => encodeURIComponent(c));
}

/**
 * A lane given as data (a parsed spec is one too) as the spec string `parseLaneSpec` reads back to the same fields
 * (`legacy`, `plugin:<path>?…`).
 */
export function printLaneSpec(lane: LaneRequest): string {
  const options: [string, string | number | undefined][] =
    lane.kind === 'plugin'
      ? [
          ['config', lane.configFile],
          ['configJson5', lane.configText],
          ['engine', lane.engineId],
          ['timeoutMs', lane.timeoutMs],
          ['maxResultMb', lane.maxResultBytes !== undefined ? lane.maxResultBytes / (1 << 20) : undefined],
          ['allow', lane.allow ? printHostGrants(lane.allow) : undefined],
          ['hostCodec', lane.hostCodec],
        ]
      : [];
  options.push(['window', lane.window], ['reserve', lane.reserve], ['host', lane.host], ['label', lane.label]);
  const query = options
    .filter((o): o is [string, string | number] => o[1] !== undefined && o[1] !== '')
    .map(([name, value]) => `${name}=${escapeSpecText(String(value))}`)
    .join('&');
  const head = lane.kind === 'legacy' ? 'legacy' : `plugin:${escapeSpecText(lane.plugin)}`;
  return query ? `${head}?${query}` : head;
}

function printHostGrants(grants: HostGrants): string | undefined {
  const names = (Object.keys(HOST_GRANT_NAMES) as (keyof typeof HOST_GRANT_NAMES)[]).filter(
    (name) => grants[HOST_GRANT_NAMES[name]] === true,
  );
  return names.length > 0 ? names.join(',') : undefined;
}

/**
 * A lane of a replay request, typed (CLI syntax) or as data, checked by the same rules: a lane given as data is
 * printed and parsed back, so its `spec` is the string a person could type and every rule lives in the parser.
 */
export function laneOfRequest(lane: string | LaneRequest): ParsedLaneSpec {
  return parseLaneSpec(typeof lane === 'string' ? lane : printLaneSpec(lane));
}
