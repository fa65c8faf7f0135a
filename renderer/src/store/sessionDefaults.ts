/**
 * The replay form's defaults come from the session (`replay.defaults`): the OpenClaw release it was recorded
 * with, the state dir's openclaw.json, the session model's window — each with where it came from. Choosing
 * another session fills the form afresh (nothing stale carries over from the previous one but the lanes).
 */
import { create } from 'zustand';
import type { InspectorApi, ResponseOf } from '../../../src/bridge';
import { errorText } from './errorText';
import { DEFAULT_WINDOW, useReplayStore } from './replayStore';
import type { ReplayFormState } from './replayTypes';

export type SessionDefaults = ResponseOf<'replay.defaults'>;

/** What the form shows beside each field: where its value came from. */
export interface FieldSources {
  window: string;
  reserve: string;
  keepRecentTokens: string;
  openclawVersion: string;
}

export interface SessionDefaultsState {
  /** the session the defaults are for */
  sessionFile: string | null;
  defaults: SessionDefaults | null;
  loading: boolean;
  error: string | null;
  /** Asks the runtime for `sessionFile`'s defaults and fills the form with them. */
  apply(api: InspectorApi, sessionFile: string, stateDir?: string): Promise<void>;
}

const SOURCE_TEXT: Record<SessionDefaults['sources']['contextWindow'], string> = {
  flag: 'as asked',
  'openclaw.json': 'from openclaw.json',
  'session model': "the session model's window",
  'version default': 'OpenClaw default',
};

/** The words beside each field, from the defaults' sources. */
export function fieldSources(defaults: SessionDefaults): FieldSources {
  const { sources, settings, effective } = defaults;
  const version =
    sources.openclawVersion === 'inferred'
      ? `inferred from ${defaults.openclawVersionFrom ?? 'the session'}`
      : sources.openclawVersion === 'newest'
        ? 'the newest release ContextScope models'
        : 'as asked';
  return {
    window: `${SOURCE_TEXT[sources.contextWindow]}${settings.model ? ` (${settings.model})` : ''}`,
    reserve: `${SOURCE_TEXT[sources.reserveTokens]}: ${effective.reserveTokens} effective, prompt budget ${effective.promptBudget}`,
    keepRecentTokens: SOURCE_TEXT[sources.keepRecentTokens],
    openclawVersion: version,
  };
}

let asked = 0;

/**
 * Fills the form with `values`, except the fields the user changed while the defaults were on their way (the form
 * then differs from `before`, its state when they were asked for): what was typed is kept.
 */
function fillUnlessEdited(values: Partial<ReplayFormState>, before: ReplayFormState): void {
  const now = useReplayStore.getState().form;
  const untouched = Object.entries(values).filter(([field]) => {
    const key = field as keyof ReplayFormState;
    return JSON.stringify(now[key]) === JSON.stringify(before[key]);
  });
  useReplayStore.getState().setForm(Object.fromEntries(untouched) as Partial<ReplayFormState>);
}

export const useSessionDefaultsStore = create<SessionDefaultsState>()((set) => ({
  sessionFile: null,
  defaults: null,
  loading: false,
  error: null,
  async apply(api, sessionFile, stateDir) {
    const ticket = ++asked;
    const before = useReplayStore.getState().form;
    set({ sessionFile, loading: true, error: null });
    try {
      const defaults = await api.call('replay.defaults', {
        sessionPath: sessionFile,
        ...(stateDir ? { stateDir } : {}),
      });
      if (ticket !== asked) return; // another session was chosen meanwhile
      const { settings, sources } = defaults;
      fillUnlessEdited(
        {
          window: String(settings.contextWindow),
          // a configured reserve is shown; OpenClaw's default is left to OpenClaw (its floor and cap apply)
          reserve: sources.reserveTokens === 'openclaw.json' ? String(settings.reserveTokens) : '',
          keepRecentTokens: String(settings.keepRecentTokens),
          openclawVersion: settings.openclawVersion,
          follow: false,
          extraSpecs: '',
          laneConfigs: {},
        },
        before,
      );
      set({ defaults, loading: false });
    } catch (error) {
      if (ticket !== asked) return;
      // no defaults (an older runtime, an unreadable session): ContextScope's own, nothing of the previous session
      fillUnlessEdited(
        {
          window: String(DEFAULT_WINDOW),
          reserve: '',
          keepRecentTokens: '',
          openclawVersion: '',
          follow: false,
          extraSpecs: '',
          laneConfigs: {},
        },
        before,
      );
      set({ defaults: null, loading: false, error: errorText(error) });
    }
  },
}));

export function resetSessionDefaultsStore(): void {
  asked++;
  useSessionDefaultsStore.setState({ sessionFile: null, defaults: null, loading: false, error: null });
}
