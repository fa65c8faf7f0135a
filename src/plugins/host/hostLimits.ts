/**
 * The resource caps of an engine host: the largest message the app takes from it (checked before the message is
 * parsed; an over-cap message stops the host and fails the call in flight with `assemble result of 52.4 MB is over
 * the 64 MB cap`), and its V8 heap (`--max-old-space-size`; a host that reaches it aborts, and is reported as out
 * of memory rather than by its exit signal or the deadline it missed).
 */
import { formatMegabytes } from './frameChannel';

/** Default cap of one message from an engine host: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * (1 << 20);
/** Default heap cap of an engine host, in MiB. */
export const DEFAULT_MAX_HEAP_MB = 2048;

export function heapCapArg(maxHeapMb: number): string {
  return `--max-old-space-size=${maxHeapMb}`;
}

/** The quarantine reason for a message of `bytes` from the host while `operation` was in flight. */
export function oversizedReason(operation: string | undefined, bytes: number, maxBytes: number): string {
  const what = operation ? `${operation} result` : 'a message from the engine host';
  return `${what} of ${formatMegabytes(bytes)} is over the ${formatMegabytes(maxBytes)} cap`;
}

// V8's fatal heap report (Node 20–24): "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of
// memory", "FATAL ERROR: ... Allocation failed - JavaScript heap out of memory", "Fatal JavaScript out of memory".
const OUT_OF_MEMORY = /JavaScript heap out of memory|Reached heap limit|Fatal JavaScript out of memory/;

/** Whether the host's last stderr says V8 ran out of heap. */
export function diedOutOfMemory(stderrTail: string): boolean {
  return OUT_OF_MEMORY.test(stderrTail);
}

export function outOfMemoryReason(maxHeapMb: number | undefined): string {
  return `ran out of memory${maxHeapMb !== undefined ? ` (its heap cap is ${maxHeapMb} MB)` : ''}`;
}
