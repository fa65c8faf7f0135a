import { useEffect } from 'react';
import { isTypingTarget, matchShortcut } from '../shortcuts';
import { useOverlayStore } from '../store/overlayStore';

/** `?` opens the shortcut sheet (not while typing), Ctrl/Cmd+K the command palette (anywhere). */
export function useGlobalKeys(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const id = matchShortcut(event, ['palette', 'shortcuts']);
      if (id === 'palette') {
        event.preventDefault();
        useOverlayStore.getState().toggle('palette');
      } else if (id === 'shortcuts' && !isTypingTarget(event.target)) {
        event.preventDefault();
        useOverlayStore.getState().toggle('shortcuts');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
