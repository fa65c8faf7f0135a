import { useEffect, useRef } from 'react';
import type { ConsentRequest } from '../model/laneChoices';
import './ConsentDialog.css';

export interface ConsentDialogProps {
  requests: readonly ConsentRequest[];
  busy: boolean;
  onApprove(): void;
  onRunOnce(): void;
  onCancel(): void;
}

/** Asks before plugin code runs: which folders, what it means, and approve (remembered) / run once / cancel. */
export function ConsentDialog({ requests, busy, onApprove, onRunOnce, onCancel }: ConsentDialogProps) {
  const primary = useRef<HTMLButtonElement>(null);
  const approvable = requests.every((r) => r.approvable);
  useEffect(() => {
    primary.current?.focus();
  }, []);
  return (
    <div className="dialog-backdrop">
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="consent-title"
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !busy) onCancel();
        }}
      >
        <h2 id="consent-title" className="dialog__title">
          Run plugin code?
        </h2>
        <ul className="dialog__list">
          {requests.map((request) => (
            <li key={request.path} data-testid="consent-request">
              Run plugin code from <code className="path">{request.path}</code>?
              {request.stale && (
                <div className="dialog__note">It changed since you approved it: review the change first.</div>
              )}
            </li>
          ))}
        </ul>
        <p className="dialog__text">
          Each plugin runs in its own engine-host process with a temporary home folder and a filtered environment. Where
          the engine host runs under Node&apos;s permission model it reads only the plugin&apos;s folder and the
          replay&apos;s own folders, and starts no processes; elsewhere (the replay says so on the lane) it can read the
          files your user account can read. Only run code you trust.
        </p>
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button
            ref={approvable ? undefined : primary}
            type="button"
            className="button"
            onClick={onRunOnce}
            disabled={busy}
          >
            Run once
          </button>
          {approvable && (
            <button ref={primary} type="button" className="button button--primary" onClick={onApprove} disabled={busy}>
              {busy ? 'Approving…' : 'Approve and run'}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
