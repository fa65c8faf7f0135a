import { useEffect, useState } from 'react';
import type { InspectorClient } from '../bridge/InspectorClient';
import { useOverlayStore } from '../store/overlayStore';
import { fileKind, fileOpeners } from './fileOpeners';

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * A recording dropped on the page opens in Replay. In Electron the page leaves drops alone: the main process sees
 * the file's path (will-navigate) and sends `shell.command`, which also opens session transcripts by path. Returns
 * whether a file is being dragged over the page (to show the drop hint).
 */
export function useFileDrop(client: InspectorClient | null): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    if (!client || client.transport === 'preload') return;
    const over = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      setDragging(true);
    };
    const leave = (event: DragEvent) => {
      if (event.relatedTarget === null) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      const file = event.dataTransfer?.files[0];
      if (!file) return;
      const kind = fileKind(file.name);
      if (kind === 'recording') {
        void file.text().then((text) => fileOpeners().openRecordingText(client, file.name, text));
      } else {
        useOverlayStore
          .getState()
          .setProblem(
            kind === 'session'
              ? `${file.name} is a session transcript: the browser does not tell the app where it is on disk, so load its folder in Sessions (the desktop app opens it directly).`
              : `${file.name} is neither a recording (.json) nor a session transcript (.jsonl).`,
          );
      }
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [client]);
  return dragging;
}
