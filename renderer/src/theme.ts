/**
 * The colour theme: `system` (the default) follows prefers-color-scheme; `light` / `dark` are the user's choice,
 * kept in localStorage and applied as data-theme on <html> (tokens.css pins color-scheme to it).
 */
import { create } from 'zustand';

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export const THEME_STORAGE_KEY = 'contextscope.theme';

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === 'string' && (THEME_CHOICES as readonly string[]).includes(value);
}

function readStoredChoice(): ThemeChoice {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isThemeChoice(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

function applyChoice(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}

/** The scheme actually shown: the choice, or the system's when the choice is `system`. */
export function effectiveTheme(choice: ThemeChoice): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches
    ? 'dark'
    : 'light';
}

interface ThemeState {
  choice: ThemeChoice;
  setChoice(choice: ThemeChoice): void;
  /** system → light → dark → system */
  cycle(): void;
}

export const useThemeStore = create<ThemeState>()((set, get) => ({
  choice: 'system',
  setChoice(choice) {
    applyChoice(choice);
    try {
      if (choice === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
      else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
    } catch {
      // storage can be unavailable (private mode); the choice still applies to this window
    }
    set({ choice });
  },
  cycle() {
    const at = THEME_CHOICES.indexOf(get().choice);
    get().setChoice(THEME_CHOICES[(at + 1) % THEME_CHOICES.length]!);
  },
}));

/** Applies the stored choice before the first render (main.tsx), so the page never flashes the other scheme. */
export function initTheme(): void {
  const choice = readStoredChoice();
  applyChoice(choice);
  useThemeStore.setState({ choice });
}
