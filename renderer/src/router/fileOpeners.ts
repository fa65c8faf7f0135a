/**
 * Opening what the user hands the app: a recording file (Export JSON, `contextscope replay --json`), a session
 * transcript, a state dir — from the native menu, a file dropped on the window, or the OS. The defaults below
 * work on their own; the recent-recordings and sessions code may register better ones (`registerFileOpeners`).
 */
import type { InspectorApi } from '../../../src/bridge';
import { parseRecordingFile } from '../model/recordingFile';
import { useAppStore } from '../store/appStore';
import { useOverlayStore } from '../store/overlayStore';
import { useSessionsStore } from '../store/sessionsStore';
import { installRecording } from '../flows/installRecording';

export interface FileOpeners {
  /** a recording's JSON text and the name (or path) it came from */
  openRecordingText(api: InspectorApi, name: string, text: string): Promise<void>;
  /** a session transcript on disk: list its folder in Sessions with it selected */
  openSessionFile(api: InspectorApi, path: string): Promise<void>;
  openStateDir(api: InspectorApi, path: string): Promise<void>;
}

function folderOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut > 0 ? path.slice(0, cut) : path;
}

const defaults: FileOpeners = {
  async openRecordingText(_api, name, text) {
    const parsed = parseRecordingFile(text, name);
    if (!parsed.ok) {
      useOverlayStore.getState().setProblem(parsed.problem);
      return;
    }
    useOverlayStore.getState().setProblem(null);
    installRecording(parsed.recording, null, name.split(/[\\/]/).at(-1) ?? name);
    useAppStore.getState().selectSection('replay');
  },
  async openSessionFile(api, path) {
    await useSessionsStore.getState().load(api, folderOf(path));
    useSessionsStore.getState().select(path);
    useAppStore.getState().selectSection('sessions');
  },
  async openStateDir(api, path) {
    await useSessionsStore.getState().load(api, path);
    useAppStore.getState().selectSection('sessions');
  },
};

let registered: Partial<FileOpeners> = {};

/** Puts `openers` in front of the defaults; the function returned takes them back (the registrant went away). */
export function registerFileOpeners(openers: Partial<FileOpeners>): () => void {
  registered = { ...registered, ...openers };
  return () => {
    registered = Object.fromEntries(
      Object.entries(registered).filter(([name, opener]) => openers[name as keyof FileOpeners] !== opener),
    );
  };
}

export function fileOpeners(): FileOpeners {
  return { ...defaults, ...registered };
}

/** What a file is by its name: `.jsonl` a session transcript, `.json` a recording; null for anything else. */
export function fileKind(name: string): 'recording' | 'session' | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.jsonl')) return 'session';
  if (lower.endsWith('.json')) return 'recording';
  return null;
}
