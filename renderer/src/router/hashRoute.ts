/**
 * Deep links: the URL hash names what is on screen — `#/<view>?recording=<id>&session=<id>&lane=<id>&turn=<n>&message=<id>`
 * (turn 1-based, as the app shows it; message is a TurnView row id such as `assembled:3`). Works the same over
 * http:// (browser mode) and app:// (Electron). Pure.
 */
import { SECTIONS, type SectionId } from '../store/appStore';

export interface Route {
  section: SectionId;
  /** the recording the link is about (the replay id, or a recent-recordings id) */
  recording?: string;
  session?: string;
  lane?: string;
  /** 0-based, as the selection store keeps it */
  turn?: number;
  message?: string;
}

function isSection(value: string): value is SectionId {
  return SECTIONS.some((entry) => entry.id === value);
}

/** The route a hash names, or null when it names none (empty, or an unknown view). */
export function parseHash(hash: string): Route | null {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  const match = /^\/([a-z]+)(?:\?(.*))?$/.exec(text);
  if (!match || !isSection(match[1]!)) return null;
  const route: Route = { section: match[1] };
  const query = new URLSearchParams(match[2] ?? '');
  const recording = query.get('recording');
  const session = query.get('session');
  const lane = query.get('lane');
  const turn = query.get('turn');
  const message = query.get('message');
  if (recording) route.recording = recording;
  if (session) route.session = session;
  if (lane) route.lane = lane;
  if (turn && /^[1-9]\d{0,8}$/.test(turn)) route.turn = Number(turn) - 1;
  if (message) route.message = message;
  return route;
}

export function formatHash(route: Route): string {
  const query = new URLSearchParams();
  if (route.recording) query.set('recording', route.recording);
  if (route.session) query.set('session', route.session);
  if (route.lane) query.set('lane', route.lane);
  if (route.turn !== undefined) query.set('turn', String(route.turn + 1));
  if (route.message) query.set('message', route.message);
  const text = query.toString();
  return `#/${route.section}${text ? `?${text}` : ''}`;
}

/** True when the two routes differ only in the message (a change that replaces the history entry). */
export function onlyMessageDiffers(a: Route | null, b: Route): boolean {
  if (!a) return false;
  return formatHash({ ...a, message: undefined }) === formatHash({ ...b, message: undefined });
}
