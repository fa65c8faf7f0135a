/** The report `runDoctor` returns and `contextscope doctor --json` prints (documented in README.md). */
import type { PluginKind, PluginOrigin } from '../types';

export type FindingSeverity = 'error' | 'warn' | 'info';

export interface DoctorFinding {
  severity: FindingSeverity;
  /** stable identifier, e.g. `engine-quarantined`, `orphaned-tool-calls`, `stale-config-entry` */
  code: string;
  where: {
    pluginId?: string;
    engineId?: string;
    /** a file path, or a config key such as `plugins.entries.x` */
    file?: string;
    /** the engine operation involved (`assemble`, `factory`, `compact`, ...) */
    operation?: string;
  };
  message: string;
  /** what to do about it */
  fix: string;
}

export type DoctorPluginStatus = 'executed' | 'not-executed' | 'invalid' | 'load-failed';

export interface DoctorPluginReport {
  id: string;
  name?: string;
  path: string;
  kind: PluginKind[];
  origin: PluginOrigin;
  enabled: boolean;
  status: DoctorPluginStatus;
  statusMessage: string;
  /** engines registered in a "full" load (empty when not executed) */
  engines: string[];
  /** engines registered in a "discovery" load; null when not executed */
  discoveryEngines: string[] | null;
  tools: string[];
  commands: string[];
  /** event names passed to api.on */
  hooks: string[];
  /** every problem with this plugin, one line each (manifest, schema, config, load errors with module and message) */
  errors: string[];
}

export interface DoctorQuarantine {
  engineId: string;
  owner?: string;
  operation: string;
  reason: string;
  /** ms since epoch */
  failedAt: number;
}

export interface DoctorReport {
  version: 1;
  /** false when there is at least one error finding */
  ok: boolean;
  /** whether plugin code was executed (consent / --allow-execute) */
  executed: boolean;
  summary: { plugins: number; errors: number; warnings: number; infos: number };
  config: { path: string | null; contextEngineSlot: string | null };
  plugins: DoctorPluginReport[];
  findings: DoctorFinding[];
  quarantines: DoctorQuarantine[];
}
