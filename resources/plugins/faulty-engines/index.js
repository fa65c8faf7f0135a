'use strict';
// faulty-engines — a CommonJS OpenClaw plugin that registers one deliberately broken context engine per fault
// (see lib/faults.js). Each engine is a valid pass-through engine except for its one fault, so whatever an
// inspector reports for it can only come from that fault. Never select one of these for a real agent.

const { withCallLogging } = require('./lib/passThroughEngine.js');
const { FAULTS } = require('./lib/faults.js');

const PLUGIN_ID = 'faulty-engines';

/** plugins.entries.faulty-engines.config → which faults register, whether calls are logged. */
function resolveConfig(raw) {
  const input = raw && typeof raw === 'object' ? raw : {};
  const enabledInput = input.enabled && typeof input.enabled === 'object' ? input.enabled : {};
  const enabled = {};
  for (const fault of FAULTS) enabled[fault.id] = enabledInput[fault.id] !== false;
  return { enabled, logCalls: input.logCalls === true };
}

module.exports = {
  id: PLUGIN_ID,
  name: 'Faulty Engines',
  description: 'Deliberately broken context engines, one fault each, for testing context-engine hosts and inspectors.',
  register(api) {
    const config = resolveConfig(api.pluginConfig);
    // OpenClaw treats a missing registrationMode as a full load.
    const mode = api.registrationMode ?? 'full';
    const registered = [];

    for (const fault of FAULTS) {
      if (!config.enabled[fault.id]) continue;
      if (fault.onlyOutsideFullMode && mode === 'full') continue;
      api.registerContextEngine(fault.id, () => {
        const engine = fault.create();
        return config.logCalls ? withCallLogging(engine, api.logger) : engine;
      });
      registered.push(fault.id);
    }

    api.logger.info(
      `${PLUGIN_ID}: registered ${registered.length} deliberately faulty context engine(s) in registrationMode "${mode}".`,
    );
  },
};
