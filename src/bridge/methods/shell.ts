import { Type, type Static } from '@sinclair/typebox';

/**
 * What the Electron shell asks of the page (native menu, a file dropped on the window or opened from the OS):
 * sent as the `shell.command` event. Browser mode never sends it.
 */
export const ShellCommandSchema = Type.Union([
  /** a file to open: a recording (`.json`, its text in `content`) or a session transcript (`.jsonl`, by path) */
  Type.Object(
    {
      command: Type.Literal('openFile'),
      path: Type.String({ minLength: 1 }),
      kind: Type.Union([Type.Literal('recording'), Type.Literal('session')]),
      content: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { command: Type.Literal('openStateDir'), path: Type.String({ minLength: 1 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      command: Type.Literal('setTheme'),
      theme: Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')]),
    },
    { additionalProperties: false },
  ),
  Type.Object({ command: Type.Literal('showShortcuts') }, { additionalProperties: false }),
  Type.Object({ command: Type.Literal('showPalette') }, { additionalProperties: false }),
  /** something the shell could not do (a file that is neither a recording nor a session), said to the user */
  Type.Object({ command: Type.Literal('problem'), message: Type.String() }, { additionalProperties: false }),
]);
export type ShellCommand = Static<typeof ShellCommandSchema>;

export const shellTopics = {
  'shell.command': ShellCommandSchema,
};
