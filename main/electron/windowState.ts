import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { createSchemaCompiler } from '../../src/bridge';
import { writeFileAtomic } from '../../src/common/writeFileAtomic';

export const WINDOW_STATE_FILE = 'window-state.json';

const WindowStateSchema = Type.Object({
  x: Type.Optional(Type.Integer()),
  y: Type.Optional(Type.Integer()),
  width: Type.Integer({ minimum: 400, maximum: 20000 }),
  height: Type.Integer({ minimum: 300, maximum: 20000 }),
  maximized: Type.Boolean(),
});
export type WindowState = Static<typeof WindowStateSchema>;

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 820, maximized: false };

const checkWindowState = createSchemaCompiler()(WindowStateSchema);

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The saved state if it is well-formed, else the default (a corrupt file must never stop the app). */
export function parseWindowState(value: unknown): WindowState {
  if (checkWindowState(value) !== null) return { ...DEFAULT_WINDOW_STATE };
  return value as WindowState;
}

/** Drops the saved position when its top-left corner is on no display any more (monitor unplugged). */
export function fitToDisplays(state: WindowState, workAreas: readonly Rect[]): WindowState {
  if (state.x === undefined || state.y === undefined) return state;
  const { x, y } = state;
  const visible = workAreas.some(
    (area) => x >= area.x && y >= area.y && x < area.x + area.width && y < area.y + area.height,
  );
  if (visible) return state;
  const { x: _x, y: _y, ...rest } = state;
  return rest;
}

export function readWindowState(file: string): WindowState {
  try {
    return parseWindowState(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { ...DEFAULT_WINDOW_STATE };
  }
}

/** Written atomically, so a crash mid-write leaves the previous state intact. */
export function writeWindowState(file: string, state: WindowState): void {
  writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`);
}
