/** The Electron shell's `shell.command` events (native menu, dropped or OS-opened files) applied to the app. */
import type { BridgeEvent, InspectorApi } from '../../../src/bridge';
import { useOverlayStore } from '../store/overlayStore';
import { useThemeStore } from '../theme';
import { fileOpeners } from './fileOpeners';

/** Handles the event when it is a shell command; false for every other event. */
export function handleShellEvent(event: BridgeEvent, api: InspectorApi): boolean {
  if (event.topic !== 'shell.command') return false;
  const command = event.payload;
  const overlay = useOverlayStore.getState();
  switch (command.command) {
    case 'openFile':
      if (command.kind === 'recording') void fileOpeners().openRecordingText(api, command.path, command.content ?? '');
      else void fileOpeners().openSessionFile(api, command.path);
      break;
    case 'openStateDir':
      void fileOpeners().openStateDir(api, command.path);
      break;
    case 'setTheme':
      useThemeStore.getState().setChoice(command.theme);
      break;
    case 'showShortcuts':
      overlay.show('shortcuts');
      break;
    case 'showPalette':
      overlay.show('palette');
      break;
    case 'problem':
      overlay.setProblem(command.message);
      break;
  }
  return true;
}
