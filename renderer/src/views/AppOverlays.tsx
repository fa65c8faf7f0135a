import { CommandPalette } from '../components/CommandPalette';
import { Notice } from '../components/Notice';
import { ShortcutSheet } from '../components/ShortcutSheet';
import { shortcutsByScope } from '../shortcuts';
import { useOverlayStore } from '../store/overlayStore';
import { useAppCommands } from './useAppCommands';
import './AppOverlays.css';

function Palette({ onClose }: { onClose(): void }) {
  return <CommandPalette commands={useAppCommands()} onClose={onClose} />;
}

/** The command palette or the shortcut sheet when open, and the drop hint while a file is dragged over. */
export function AppOverlays({ dragging }: { dragging: boolean }) {
  const open = useOverlayStore((s) => s.open);
  const close = useOverlayStore((s) => s.close);
  return (
    <>
      {open === 'palette' && <Palette onClose={close} />}
      {open === 'shortcuts' && <ShortcutSheet groups={shortcutsByScope()} onClose={close} />}
      {dragging && (
        <div className="drop-hint" data-testid="drop-hint">
          Drop a recording (.json) to open it
        </div>
      )}
    </>
  );
}

/** What a link, a dropped file or the native menu could not do, with a way to dismiss it. */
export function ShellProblem() {
  const problem = useOverlayStore((s) => s.problem);
  const setProblem = useOverlayStore((s) => s.setProblem);
  if (!problem) return null;
  return (
    <div className="shell-problem" data-testid="shell-problem">
      <Notice tone="error">
        {problem}{' '}
        <button type="button" className="button button--link" onClick={() => setProblem(null)}>
          Dismiss
        </button>
      </Notice>
    </div>
  );
}
