/**
 * One scenario through real OpenClaw: a fresh state dir (HOME and OPENCLAW_STATE_DIR both point into it), an
 * `openclaw.json` naming the scripted model as the only provider, then one `openclaw agent --local` per turn.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { stagesBundledPluginDeps, type OpenClawInstall } from './openclawInstall';
import { PLUGIN_DIR, type Scenario } from './scenario';
import { startScriptedModel, type LoggedRequest } from './scriptedModel';

export const SESSION_ID = 'differential-session';
export const MODEL_ID = 'm1';

export interface OpenClawRun {
  stateDir: string;
  workspace: string;
  requests: LoggedRequest[];
  /** `--json` output (parsed, or the raw text) and exit code of each turn */
  turns: { exitCode: number | null; output: unknown; stderrTail: string; ms: number }[];
  /** the plugin's own log of engine calls (plugin scenarios), one JSON object per line */
  engineCalls: Record<string, unknown>[];
}

function writeWorkspace(workspace: string, scenario: Scenario): void {
  fs.mkdirSync(workspace, { recursive: true });
  for (const [name, spec] of Object.entries(scenario.workspaceFiles ?? {})) {
    const text =
      typeof spec === 'string'
        ? spec
        : Array.from({ length: spec.times }, (_, i) => `${i + 1} ${spec.line}`).join('\n');
    fs.writeFileSync(path.join(workspace, name), text);
  }
}

/**
 * Releases before 2026.7 stage their enabled bundled plugins' runtime dependencies (npm installs) when they start:
 * into the state dir unless `OPENCLAW_PLUGIN_STAGE_DIR` names a folder (2026.4.25 bundled-runtime-deps-*.js
 * `resolveBundledRuntimeDependencyInstallRoot`). Run from a fresh state dir each turn they fail here after minutes
 * (acpx ~70 s, the Bedrock providers ~210 s). So the install has those dependencies already (openclawInstall.ts
 * `installBundledPluginDeps`), and the stage root OpenClaw will use (`openclaw-<version>-<sha256(package
 * root)[:12]>`, in one folder per installed release) gets links to the install's packages: nothing is missing and
 * nothing is staged. memory-core fails offline all the same (`Cannot find module 'chokidar'`, docs/toolchain.md): the
 * memory slot is off.
 */

export function openclawConfig(
  scenario: Scenario,
  modelUrl: string,
  dirs: { workspace: string; log: string; engineLog: string },
  version: string,
) {
  const config: Record<string, unknown> = {
    models: {
      mode: 'merge',
      providers: {
        scripted: {
          baseUrl: modelUrl,
          apiKey: 'differential-placeholder',
          api: 'openai-completions',
          models: [
            {
              id: MODEL_ID,
              name: 'Scripted',
              reasoning: false,
              input: ['text'],
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
              contextWindow: scenario.window,
              maxTokens: scenario.maxTokens ?? 4000,
            },
          ],
        },
      },
    },
    agents: {
      defaults: {
        model: { primary: `scripted/${MODEL_ID}` },
        workspace: dirs.workspace,
        ...(scenario.compaction ? { compaction: scenario.compaction } : {}),
      },
    },
    logging: { file: dirs.log },
  };
  if (stagesBundledPluginDeps(version)) config.plugins = { slots: { memory: 'none' } };
  if (scenario.plugin) {
    const pluginPath = path.join(PLUGIN_DIR, scenario.plugin.name);
    const manifest = JSON.parse(fs.readFileSync(path.join(pluginPath, 'openclaw.plugin.json'), 'utf8')) as {
      id: string;
    };
    config.plugins = {
      load: { paths: [pluginPath] },
      slots: { ...(stagesBundledPluginDeps(version) ? { memory: 'none' } : {}), contextEngine: manifest.id },
      entries: { [manifest.id]: { enabled: true, config: { ...scenario.plugin.config, logFile: dirs.engineLog } } },
    };
  }
  return config;
}

function prepareStageRoot(install: OpenClawInstall): string {
  const stage = path.join(install.dir, 'plugin-stage');
  const packageRoot = path.resolve(path.dirname(install.entry));
  const key = createHash('sha256').update(packageRoot).digest('hex').slice(0, 12);
  const root = path.join(stage, `openclaw-${install.version}-${key}`);
  // a folder of links, one per package: OpenClaw replaces this node_modules when it does stage something
  const modules = path.join(root, 'node_modules');
  const installed = path.join(install.dir, 'node_modules');
  for (const name of fs.readdirSync(installed)) {
    const scoped = name.startsWith('@')
      ? fs.readdirSync(path.join(installed, name)).map((n) => `${name}/${n}`)
      : [name];
    for (const entry of name.startsWith('.') ? [] : scoped) {
      const link = path.join(modules, entry);
      if (fs.existsSync(link)) continue;
      fs.mkdirSync(path.dirname(link), { recursive: true });
      fs.symlinkSync(path.join(installed, entry), link, 'dir');
    }
  }
  return stage;
}

function runTurn(install: OpenClawInstall, stateDir: string, message: string, timeoutMs: number) {
  return new Promise<OpenClawRun['turns'][number]>((resolve) => {
    const started = Date.now();
    const child = spawn(
      install.node,
      [install.entry, 'agent', '--local', '--session-id', SESSION_ID, '--message', message, '--json'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: stateDir,
          OPENCLAW_STATE_DIR: stateDir,
          TZ: 'UTC',
          LANG: 'C.UTF-8',
          ...(stagesBundledPluginDeps(install.version) ? { OPENCLAW_PLUGIN_STAGE_DIR: prepareStageRoot(install) } : {}),
        },
        cwd: stateDir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      let output: unknown = stdout;
      try {
        output = JSON.parse(stdout);
      } catch {
        // not JSON: kept as text
      }
      resolve({ exitCode, output, stderrTail: stderr.slice(-4000), ms: Date.now() - started });
    });
  });
}

function readJsonLines(file: string): Record<string, unknown>[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export async function runScenarioOnOpenClaw(
  install: OpenClawInstall,
  scenario: Scenario,
  stateDir: string,
  options: { timeoutMs?: number } = {},
): Promise<OpenClawRun> {
  fs.mkdirSync(stateDir, { recursive: true });
  const workspace = path.join(stateDir, 'workspace');
  writeWorkspace(workspace, scenario);
  const model = await startScriptedModel(scenario, path.join(stateDir, 'requests.jsonl'));
  const engineLog = path.join(stateDir, 'engine-calls.jsonl');
  const dirs = { workspace, log: path.join(stateDir, 'openclaw.log'), engineLog };
  fs.writeFileSync(
    path.join(stateDir, 'openclaw.json'),
    JSON.stringify(openclawConfig(scenario, model.url, dirs, install.version), null, 2),
  );
  const turns: OpenClawRun['turns'] = [];
  try {
    for (const [i, turn] of scenario.turns.entries()) {
      model.setTurn(i);
      fs.appendFileSync(engineLog, `${JSON.stringify({ turnStart: i })}\n`);
      turns.push(await runTurn(install, stateDir, turn.message, options.timeoutMs ?? 300_000));
    }
  } finally {
    await model.close();
    fs.writeFileSync(path.join(stateDir, 'turns.json'), JSON.stringify(turns, null, 1));
  }
  return { stateDir, workspace, requests: model.requests, turns, engineCalls: readJsonLines(engineLog) };
}
