/** The CLI's exit codes (the same for every command; README "CLI" and each command's --help list them). */
export const EXIT = {
  ok: 0,
  /** findings selected by --fail-on occurred (or a difference / refusal the command names) */
  findings: 1,
  /** bad usage or input: unknown option, lane spec, option value, unreadable session or recording */
  usage: 2,
  /** the command failed with an unexpected error (one line says what and where; --debug prints the stack) */
  failed: 3,
  /** a lane did not run its engine (plugin not approved, or it could not be loaded): it ran on legacy */
  laneNotRun: 4,
  /** stdout's reader went away (`… | head -1`): the work stopped, as a process SIGPIPE ended (128 + 13) */
  outputClosed: 141,
} as const;
