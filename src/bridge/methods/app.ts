import { Type, type Static } from '@sinclair/typebox';
import { defineMethods, NoParams } from '../methodSpec';

export const ShellKindSchema = Type.Union([Type.Literal('electron'), Type.Literal('browser')]);
export type ShellKind = Static<typeof ShellKindSchema>;

/** The process the handlers run in: plain Node (browser mode, CLI) or Electron's main process. */
export const RuntimeHostSchema = Type.Union([Type.Literal('node'), Type.Literal('electron-main')]);
export type RuntimeHost = Static<typeof RuntimeHostSchema>;

export const AppInfoSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    version: Type.String({ minLength: 1 }),
    shell: ShellKindSchema,
    runtimeHost: RuntimeHostSchema,
    nodeVersion: Type.String({ pattern: '^v\\d+\\.\\d+\\.\\d+' }),
    electronVersion: Type.Optional(Type.String()),
    platform: Type.String(),
    arch: Type.String(),
    pid: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type AppInfo = Static<typeof AppInfoSchema>;

export const AppHealthSchema = Type.Object(
  {
    ok: Type.Boolean(),
    uptimeMs: Type.Integer({ minimum: 0 }),
    rssBytes: Type.Integer({ minimum: 0 }),
    heapUsedBytes: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type AppHealth = Static<typeof AppHealthSchema>;

export const appMethods = defineMethods({
  'app.info': {
    summary: 'Name, version, shell, runtime host, Node version and platform of the running app.',
    request: NoParams,
    response: AppInfoSchema,
  },
  'app.health': {
    summary: 'Liveness of the runtime behind the bridge: uptime and memory.',
    request: NoParams,
    response: AppHealthSchema,
  },
});
