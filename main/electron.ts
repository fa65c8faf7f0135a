/** Electron main-process entry (built to out/main/electron.js, the package's "main"). */
import { startElectronShell } from './electron/shell';

startElectronShell({ mainDir: import.meta.dirname }).catch((error: unknown) => {
  console.error(`ContextScope could not start: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
  process.exit(1);
});
