import type { ConnectionState } from '../bridge/InspectorClient';
import './StatusIndicator.css';

const LABELS: Record<ConnectionState, string> = {
  connecting: 'connecting…',
  connected: 'connected',
  disconnected: 'disconnected',
};

export interface StatusIndicatorProps {
  state: ConnectionState;
  /** Shown as a tooltip, e.g. why the bridge is disconnected. */
  detail?: string | null;
}

export function StatusIndicator({ state, detail }: StatusIndicatorProps) {
  return (
    <span className={`status status--${state}`} data-testid="runtime-status" title={detail ?? undefined}>
      <span className="status__dot" aria-hidden="true" />
      <span className="status__label">{LABELS[state]}</span>
    </span>
  );
}
