/**
 * The differential run: each scenario × OpenClaw version through real OpenClaw (collect.ts), then ContextScope's
 * replay of the session it wrote (replayRun.ts), compared per turn (compareTurns.ts). A scenario's
 * `knownMismatches` lists the differences that are explained (README, "Fidelity"); anything else, or a known one
 * that stopped happening, fails the run.
 */
import { collectRun, type CollectedRun } from './collect';
import { compareTurn, type FieldDifference } from './compareTurns';
import { openclawFacts } from './openclawFacts';
import { runPool } from './pool';
import { loadRunSession, replayCollected, replayedEngineCalls } from './replayRun';
import type { Scenario } from './scenario';

/**
 * The releases the differential runs: one of each line that wrote sessions in the wild (2026.3 … 2026.6 in JSONL,
 * the 2026.7 extended-stable line, 2026.8+ in SQLite). A scenario runs on the releases its `versions` names, else on
 * FULL_MATRIX: the older releases take several minutes a turn here (they start up slowly), so they run the
 * scenarios that name them.
 */
export const VERSIONS = ['2026.3.31', '2026.4.25', '2026.5.2', '2026.6.11', '2026.7.35', '2026.9.6'] as const;
export const FULL_MATRIX: readonly string[] = ['2026.7.35', '2026.9.6'];

export interface RunResult {
  scenario: string;
  version: string;
  turns: number;
  /** turns without any difference */
  matched: number;
  /** how many turns each field was compared in */
  checks: Record<string, number>;
  differences: FieldDifference[];
  /** differences not in the scenario's knownMismatches */
  unexpected: FieldDifference[];
  /** knownMismatches entries that did not happen (stale: remove them) */
  missingKnown: string[];
  openclawMs: number;
  replayMs: number;
  error?: string;
}

export interface DifferentialOptions {
  outDir: string;
  versions?: readonly string[];
  reuse?: boolean;
  parallel?: number;
  log?: (line: string) => void;
}

export const differenceKey = (d: FieldDifference): string => `${d.turn}:${d.field}`;

export async function compareCollected(run: CollectedRun): Promise<Omit<RunResult, 'openclawMs'>> {
  const started = Date.now();
  const session = await loadRunSession(run);
  const facts = await openclawFacts(run, session);
  const recording = await replayCollected(run, session);
  const lane = recording.lanes.find((l) => !l.parentLane);
  const records = lane ? (recording.turns[lane.id] ?? []) : [];
  const calls = run.scenario.plugin ? replayedEngineCalls(run, facts.length) : null;
  const addition = run.scenario.plugin?.config?.systemPromptAddition;
  const perTurn = facts.map((f, i) =>
    compareTurn(
      f,
      records[i],
      recording,
      calls ? (calls[i] ?? []) : null,
      typeof addition === 'string' ? addition || undefined : undefined,
    ),
  );
  const differences = perTurn.flatMap((t) => t.differences);
  const checks: Record<string, number> = {};
  for (const field of perTurn.flatMap((t) => t.checked)) checks[field] = (checks[field] ?? 0) + 1;
  const known = run.scenario.knownMismatches?.[run.version] ?? [];
  const seen = new Set(differences.map(differenceKey));
  return {
    scenario: run.scenario.id,
    version: run.version,
    turns: facts.length,
    matched: perTurn.filter((t) => t.differences.length === 0).length,
    checks,
    differences,
    unexpected: differences.filter((d) => !known.includes(differenceKey(d))),
    missingKnown: known.filter((k) => !seen.has(k)),
    replayMs: Date.now() - started,
    ...(lane?.error ? { error: `lane: ${lane.error}` } : {}),
  };
}

/** Each scenario on each release it applies to (its `versions`, else FULL_MATRIX), among `versions`. */
export function matrix(
  scenarios: readonly Scenario[],
  versions: readonly string[] = VERSIONS,
): { scenario: Scenario; version: string }[] {
  return scenarios.flatMap((scenario) =>
    versions.filter((v) => (scenario.versions ?? FULL_MATRIX).includes(v)).map((version) => ({ scenario, version })),
  );
}

export async function runDifferential(scenarios: Scenario[], options: DifferentialOptions): Promise<RunResult[]> {
  const jobs = matrix(scenarios, options.versions ?? VERSIONS);
  return runPool(jobs, options.parallel ?? 2, async ({ scenario, version }): Promise<RunResult> => {
    let run: CollectedRun | undefined;
    try {
      run = await collectRun(scenario, version, options.outDir, { reuse: options.reuse, log: options.log });
      const result = { ...(await compareCollected(run)), openclawMs: run.ms };
      options.log?.(`${scenario.id} on ${version}: ${result.matched}/${result.turns} turns matched`);
      return result;
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      return {
        scenario: scenario.id,
        version,
        turns: scenario.turns.length,
        matched: 0,
        checks: {},
        differences: [],
        unexpected: [{ turn: 0, field: 'run', openclaw: '', contextscope: message.split('\n')[0] ?? message }],
        missingKnown: [],
        openclawMs: run?.ms ?? 0,
        replayMs: 0,
        error: message,
      };
    }
  });
}

/** The run passes when every difference is a known one and every known one still happens. */
export function passed(results: readonly RunResult[]): boolean {
  return results.every((r) => r.unexpected.length === 0 && r.missingKnown.length === 0 && !r.error);
}

export function formatTable(results: readonly RunResult[]): string {
  const rows = results.map((r) => {
    const first = r.differences[0];
    const firstText = r.error
      ? `error: ${r.error.split('\n')[0]}`
      : first
        ? `turn ${first.turn} ${first.field}: OpenClaw ${first.openclaw} | ContextScope ${first.contextscope}`
        : '—';
    const flag =
      r.unexpected.length || r.missingKnown.length || r.error ? 'FAIL' : r.differences.length ? 'known' : 'ok';
    return [r.scenario, r.version, `${r.matched}/${r.turns}`, flag, firstText.slice(0, 200)];
  });
  const header = ['scenario', 'version', 'matched', 'verdict', 'first difference'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (i < 4 ? row[i]!.length : 0))));
  const line = (cells: string[]) => cells.map((c, i) => (i < 4 ? c.padEnd(widths[i]!) : c)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
