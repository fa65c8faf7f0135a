/**
 * Whether a value encodes to a wire tree sent before, checked without encoding it: the engine host uses it to send a
 * fresh engine message that equals one it sent at the same place of its previous result (summary-tree renders its
 * summaries anew on every `assemble`) as a reference to that one. Only plain JSON data matches (strings, booleans,
 * finite numbers, null, plain arrays, plain objects with the same keys in the same order and no message slots);
 * anything the codec tags (undefined, -0, Maps, functions, …) does not, and then the value is sent as usual.
 */
import { isPlainRecord, MAX_DEPTH, WIRE_TAG, type Json } from './wireFormat';

export function encodesTo(v: unknown, node: Json, depthLeft = MAX_DEPTH): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v === node;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0) && v === node;
    case 'object':
      break;
    default:
      return false;
  }
  if (v === null) return node === null;
  if (depthLeft <= 0 || typeof node !== 'object' || node === null) return false;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype || !Array.isArray(node) || node.length !== v.length) return false;
    for (let i = 0; i < v.length; i++) if (!encodesTo(v[i], node[i]!, depthLeft - 1)) return false;
    return true;
  }
  if (Array.isArray(node) || !isPlainRecord(v)) return false;
  const keys = Object.keys(v);
  const nodeKeys = Object.keys(node);
  if (keys.length !== nodeKeys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== nodeKeys[i] || key === WIRE_TAG || key === 'message' || key === 'messages') return false;
    if (!encodesTo((v as Record<string, unknown>)[key], node[key]!, depthLeft - 1)) return false;
  }
  return true;
}

/** how many of its messages the engine host compares a new one with (those of the same role and timestamp) */
const TWINS_PER_SLOT = 4;

function slotOf(value: object): string {
  const { role, timestamp } = value as { role?: unknown; timestamp?: unknown };
  return `${String(role)}\u0000${String(timestamp)}`;
}

/** The engine host's named messages as they were sent, found by role and timestamp (a few per slot). */
export class TwinIndex {
  private readonly sentAs = new Map<number, Json>();
  private readonly slots = new Map<string, number[]>();

  remember(value: object, id: number, node: Json): void {
    this.sentAs.set(id, node);
    const slot = slotOf(value);
    const ids = [id, ...(this.slots.get(slot) ?? []).filter((known) => this.sentAs.has(known))];
    this.slots.set(slot, ids.slice(0, TWINS_PER_SLOT));
  }

  /** the id of a remembered message that `value` encodes exactly as */
  find(value: object): number | undefined {
    for (const id of this.slots.get(slotOf(value)) ?? []) {
      const node = this.sentAs.get(id);
      if (node !== undefined && encodesTo(value, node)) return id;
    }
    return undefined;
  }

  forget(id: number): void {
    this.sentAs.delete(id);
  }
}
