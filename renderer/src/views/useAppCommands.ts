import { useMemo } from 'react';
import { useInspectorClient } from '../bridge/ClientContext';
import type { PaletteCommand } from '../model/paletteCommands';
import { lanesOfSession } from '../model/recordingLanes';
import { buildTimelineRows } from '../model/timelineRows';
import { keyLabel, shortcutById } from '../shortcuts';
import { SECTIONS, useAppStore } from '../store/appStore';
import { openDemoReplay } from '../store/openDemo';
import { useOverlayStore } from '../store/overlayStore';
import { useReplayStore } from '../store/replayStore';
import { useSelectionStore } from '../store/selectionStore';
import { THEME_CHOICES, useThemeStore } from '../theme';
import { exportCurrentRecording } from './exportRecording';

const THEME_NAMES = { system: 'follow the system', light: 'light', dark: 'dark' } as const;

function actions(client: ReturnType<typeof useInspectorClient>, hasRecording: boolean): PaletteCommand[] {
  const list: PaletteCommand[] = THEME_CHOICES.map((theme) => ({
    id: `theme:${theme}`,
    group: 'Action',
    label: `Theme: ${THEME_NAMES[theme]}`,
    run: () => useThemeStore.getState().setChoice(theme),
  }));
  list.push({
    id: 'shortcuts',
    group: 'Action',
    label: 'Keyboard shortcuts',
    hint: keyLabel(shortcutById('shortcuts').keys[0]!),
    run: () => useOverlayStore.getState().show('shortcuts'),
  });
  if (client) {
    list.push({
      id: 'demo',
      group: 'Action',
      label: 'Replay the demo session',
      run: () => void openDemoReplay(client),
    });
    if (hasRecording) {
      list.push(
        { id: 'export:json', group: 'Action', label: 'Export JSON', run: () => exportCurrentRecording(client, 'json') },
        {
          id: 'export:html',
          group: 'Action',
          label: 'Export HTML report',
          run: () => exportCurrentRecording(client, 'html'),
        },
      );
    }
  }
  list.push({
    id: 'copy-link',
    group: 'Action',
    label: 'Copy a link to what is shown',
    run: () => void navigator.clipboard?.writeText(window.location.href),
  });
  return list;
}

/** The command palette's commands: views, the current recording's lanes and turns, and actions. */
export function useAppCommands(): PaletteCommand[] {
  const client = useInspectorClient();
  const recording = useReplayStore((s) => s.recording);
  const sessionId = useSelectionStore((s) => s.sessionId);
  return useMemo(() => {
    const go = (section: (typeof SECTIONS)[number]['id']) => useAppStore.getState().selectSection(section);
    const views: PaletteCommand[] = SECTIONS.filter((s) => s.available).map((section) => ({
      id: `view:${section.id}`,
      group: 'View',
      label: section.label,
      run: () => go(section.id),
    }));
    if (!recording) return [...views, ...actions(client, false)];
    const session = sessionId ?? recording.session.sessionId;
    const lanes = lanesOfSession(recording, session);
    const laneCommands: PaletteCommand[] = lanes.map((lane) => ({
      id: `lane:${lane.id}`,
      group: 'Lane',
      label: lane.label,
      run: () => {
        useSelectionStore.getState().selectLane(lane.id);
        if (useAppStore.getState().activeSection !== 'compare') go('replay');
      },
    }));
    const turnCommands: PaletteCommand[] = buildTimelineRows(recording, lanes, 'estimate').map((row) => ({
      id: `turn:${row.turn}`,
      group: 'Turn',
      label: `Turn ${row.turn + 1}`,
      detail: row.prompt,
      run: () => {
        useSelectionStore.getState().selectTurn(row.turn);
        if (useAppStore.getState().activeSection !== 'compare') go('replay');
      },
    }));
    return [...views, ...laneCommands, ...actions(client, true), ...turnCommands];
  }, [client, recording, sessionId]);
}
