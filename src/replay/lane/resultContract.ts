/**
 * A result the host cannot use is a contract failure of its lane: the lane's runtime quarantines the engine with
 * the operation and the reason (the JSON path of what is wrong), so the lane's later calls run on legacy and the
 * other lanes are untouched. The built-in legacy engine and an engine already quarantined are left alone.
 */
import type { ContextEngine } from '../../contract';
import type { ContractFailureHandler } from '../recording/recordEngineCalls';
import type { ContextRuntime } from '../../runtime';

export function quarantineOnContractFailure(runtime: ContextRuntime, engine: ContextEngine): ContractFailureHandler {
  return (method, reason) => {
    const described = runtime.describeResolvedEngine(engine);
    if (!described || described.quarantined || described.engineId === 'legacy') return;
    runtime.quarantineContextEngine({ engineId: described.engineId, operation: method, error: reason });
  };
}
