/**
 * Every keyboard shortcut of the app, in one table: the key handlers look their keys up here and the shortcut
 * sheet (`?`) lists this table, so the two cannot drift apart. A key is a KeyboardEvent.key value; `Mod+` means
 * Ctrl (Cmd on macOS).
 */

export type ShortcutScope = 'Everywhere' | 'Replay and Compare' | 'Replay' | 'Compare' | 'Config';

export interface Shortcut {
  id: string;
  scope: ShortcutScope;
  keys: readonly string[];
  description: string;
}

export const SHORTCUTS = [
  { id: 'palette', scope: 'Everywhere', keys: ['Mod+k'], description: 'Open the command palette' },
  { id: 'shortcuts', scope: 'Everywhere', keys: ['?'], description: 'Show this list of keyboard shortcuts' },
  { id: 'close', scope: 'Everywhere', keys: ['Escape'], description: 'Close the palette, this list or a dialog' },
  { id: 'turn.next', scope: 'Replay and Compare', keys: ['j', 'ArrowDown'], description: 'Next turn' },
  { id: 'turn.previous', scope: 'Replay and Compare', keys: ['k', 'ArrowUp'], description: 'Previous turn' },
  { id: 'turn.first', scope: 'Replay and Compare', keys: ['Home'], description: 'First turn' },
  { id: 'turn.last', scope: 'Replay and Compare', keys: ['End'], description: 'Last turn' },
  { id: 'lane.next', scope: 'Replay', keys: ['l', ']', 'ArrowRight'], description: 'Next lane' },
  { id: 'lane.previous', scope: 'Replay', keys: ['h', '[', 'ArrowLeft'], description: 'Previous lane' },
  { id: 'column.next', scope: 'Compare', keys: [']', 'ArrowRight'], description: 'Next lane column' },
  { id: 'column.previous', scope: 'Compare', keys: ['[', 'ArrowLeft'], description: 'Previous lane column' },
  { id: 'config.save', scope: 'Config', keys: ['Mod+s'], description: 'Save the pending changes' },
  { id: 'config.search', scope: 'Config', keys: ['/'], description: 'Go to the settings search' },
  { id: 'config.clearSearch', scope: 'Config', keys: ['Escape'], description: 'Clear the search (in the search)' },
] as const satisfies readonly Shortcut[];

export type ShortcutId = (typeof SHORTCUTS)[number]['id'];

const TYPING_TARGETS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** True when the key goes to a text field (where plain keys type, not navigate). */
export function isTypingTarget(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return Boolean(element && (TYPING_TARGETS.has(element.tagName) || element.isContentEditable));
}

/** True when plain keys must not navigate the view: they type into a field, or a modal dialog is on top. */
export function navigationKeysBlocked(event: Pick<KeyboardEvent, 'target' | 'defaultPrevented'>): boolean {
  if (event.defaultPrevented || isTypingTarget(event.target)) return true;
  return typeof document !== 'undefined' && document.querySelector('[aria-modal="true"]') !== null;
}

interface KeyEventLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

function matchesKey(spec: string, event: KeyEventLike): boolean {
  if (spec.startsWith('Mod+')) {
    return (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === spec.slice(4);
  }
  // Shift is part of the character for keys such as `?`, so only Ctrl, Cmd and Alt rule a plain key out.
  return !event.ctrlKey && !event.metaKey && !event.altKey && event.key === spec;
}

/** The first of `ids` whose keys include the event's key (with its modifiers), or null. */
export function matchShortcut<T extends ShortcutId>(event: KeyEventLike, ids: readonly T[]): T | null {
  for (const id of ids) {
    const shortcut = SHORTCUTS.find((entry) => entry.id === id);
    if (shortcut?.keys.some((spec) => matchesKey(spec, event))) return id;
  }
  return null;
}

export function shortcutById(id: ShortcutId): Shortcut {
  return SHORTCUTS.find((entry) => entry.id === id)!;
}

const KEY_NAMES: Record<string, string> = {
  ArrowDown: '↓',
  ArrowUp: '↑',
  ArrowLeft: '←',
  ArrowRight: '→',
  Escape: 'Esc',
};

/** How a key is written for people: `Mod+k` → `Ctrl K` (`⌘ K` on macOS), `ArrowDown` → `↓`. */
export function keyLabel(spec: string, mac = isMac()): string {
  if (spec.startsWith('Mod+')) return `${mac ? '⌘' : 'Ctrl'} ${spec.slice(4).toUpperCase()}`;
  return KEY_NAMES[spec] ?? spec;
}

function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** The table grouped by scope, in table order (what the shortcut sheet shows). */
export function shortcutsByScope(): { scope: ShortcutScope; shortcuts: Shortcut[] }[] {
  const groups: { scope: ShortcutScope; shortcuts: Shortcut[] }[] = [];
  for (const shortcut of SHORTCUTS as readonly Shortcut[]) {
    let group = groups.find((g) => g.scope === shortcut.scope);
    if (!group) groups.push((group = { scope: shortcut.scope, shortcuts: [] }));
    group.shortcuts.push(shortcut);
  }
  return groups;
}
