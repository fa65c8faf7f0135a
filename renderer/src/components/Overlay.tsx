import { useEffect, useRef, type ReactNode } from 'react';
import './Overlay.css';

export interface OverlayProps {
  label: string;
  onClose(): void;
  /** `top` for the command palette (near the top, like an editor's), `center` for sheets */
  placement?: 'top' | 'center';
  testId?: string;
  children: ReactNode;
}

/** A modal panel over the app: Escape or a click on the backdrop closes it; focus returns where it was. */
export function Overlay({ label, onClose, placement = 'center', testId, children }: OverlayProps) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    if (!panel.current?.contains(document.activeElement)) panel.current?.focus();
    return () => before?.focus?.();
  }, []);
  return (
    <div
      className={`overlay overlay--${placement}`}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        className="overlay__panel"
        role="dialog"
        aria-modal="true"
        aria-label={label}
        tabIndex={-1}
        data-testid={testId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onClose();
          }
        }}
      >
        {children}
      </div>
    </div>
  );
}
