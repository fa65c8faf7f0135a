/**
 * Structured events a runtime instance emits (every quarantine and every log line), for the replay recorder
 * and the UI. Listeners never break the runtime: a throwing listener is ignored.
 */

/** Level of a runtime log line. */
export type RuntimeLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Emitted once per new quarantine record. */
export interface RuntimeQuarantineEvent {
  type: 'quarantine';
  engineId: string;
  owner?: string;
  operation: string;
  reason: string;
  /** epoch milliseconds */
  failedAt: number;
}

/** Emitted for every runtime log line. */
export interface RuntimeLogEvent {
  type: 'log';
  level: RuntimeLogLevel;
  message: string;
}

/** Any runtime event. */
export type RuntimeEvent = RuntimeQuarantineEvent | RuntimeLogEvent;
/** A runtime event listener. */
export type RuntimeEventListener = (event: RuntimeEvent) => void;

/** A minimal synchronous event fan-out. */
export class RuntimeEventHub {
  private readonly listeners = new Set<RuntimeEventListener>();

  constructor(primary?: RuntimeEventListener) {
    if (primary) this.listeners.add(primary);
  }

  subscribe(listener: RuntimeEventListener): () => void {
    // Wrap so the same function can subscribe twice and unsubscribe independently.
    const entry: RuntimeEventListener = (event) => listener(event);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  emit(event: RuntimeEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A broken observer must not change runtime behaviour.
      }
    }
  }
}
