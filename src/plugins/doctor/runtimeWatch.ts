import type { ContextRuntime, RuntimeEvent } from '../../runtime';
import type { DoctorQuarantine } from './reportTypes';

/** The quarantines and warnings a runtime reports while the doctor drives it, in order. */
export class RuntimeWatch {
  readonly quarantines: DoctorQuarantine[] = [];
  readonly warnings: string[] = [];
  private readonly unsubscribe: () => void;

  constructor(runtime: ContextRuntime) {
    this.unsubscribe = runtime.subscribe((event: RuntimeEvent) => {
      if (event.type === 'quarantine') {
        this.quarantines.push({
          engineId: event.engineId,
          ...(event.owner !== undefined ? { owner: event.owner } : {}),
          operation: event.operation,
          reason: event.reason,
          failedAt: event.failedAt,
        });
      } else if (event.level === 'warn') this.warnings.push(event.message);
    });
  }

  stop(): void {
    this.unsubscribe();
  }
}
