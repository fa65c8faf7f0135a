/**
 * The Electron shell's consent: a native dialog in the main process names each plugin, its folder and the content
 * it covers, before plugins.requestConsent hands out a nonce. A compromised renderer cannot click it.
 */
import type { BrowserWindow, MessageBoxOptions, MessageBoxReturnValue } from 'electron';
import { describeHostGrants } from '../../src/plugins';
import type { ConsentPrompt } from '../../src/app';

/** The dialog's text and buttons (the first button agrees; Cancel is the default and the Escape answer). */
export function consentDialogOptions(prompt: ConsentPrompt): MessageBoxOptions {
  const approve = prompt.purpose === 'approve';
  const count = prompt.plugins.length;
  const lines = prompt.plugins.map(
    (p) =>
      `• ${p.pluginId} — ${p.realPath}\n   ${p.files} files, ${p.bytes} bytes, content hash ${p.hash.slice(0, 12)}${p.truncated ? `\n   ${p.truncated}` : ''}${p.grants ? `\n   may start ${describeHostGrants(p.grants)}, which run outside any confinement` : ''}`,
  );
  return {
    type: 'warning',
    title: 'Run plugin code?',
    message: approve
      ? `Approve ${count === 1 ? 'this plugin' : `these ${count} plugins`}? Their code will run whenever a replay or the doctor uses them, until their files change.`
      : `Run ${count === 1 ? 'this plugin' : `these ${count} plugins`} for this run only?`,
    detail: `${lines.join('\n')}\n\nPlugin code runs in a separate process with your user's rights. Only continue for plugins you trust.`,
    buttons: [approve ? 'Approve' : 'Run once', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  };
}

type ShowMessageBox = (window: BrowserWindow | undefined, options: MessageBoxOptions) => Promise<MessageBoxReturnValue>;

/** Asks in a native dialog (modal to the window when there is one); true when the person agreed. */
export function confirmInDialog(
  showMessageBox: ShowMessageBox,
  window: () => BrowserWindow | null,
): (prompt: ConsentPrompt) => Promise<boolean> {
  return async (prompt) => (await showMessageBox(window() ?? undefined, consentDialogOptions(prompt))).response === 0;
}
