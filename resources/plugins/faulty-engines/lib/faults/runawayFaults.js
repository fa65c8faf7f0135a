'use strict';
// Faults that never return or end the process: only a host-side deadline, watchdog or exit handler catches them.

const { createPassThroughEngine } = require('../passThroughEngine.js');

const RUNAWAY_FAULTS = [
  {
    id: 'faulty-assemble-hangs',
    fault: 'assemble() returns a promise that never settles.',
    expect: { kind: 'deadline', operation: 'assemble', reason: 'timeout after <assemble deadline> ms' },
    create() {
      const engine = createPassThroughEngine('faulty-assemble-hangs', 'Faulty: assemble hangs');
      engine.assemble = function hangs() {
        return new Promise(() => {});
      };
      return engine;
    },
  },
  {
    id: 'faulty-sync-loop',
    fault: "assemble() spins forever synchronously, blocking the engine process's event loop.",
    expect: {
      kind: 'deadline',
      operation: 'assemble',
      // No timer inside the blocked process can fire: only the host's deadline plus killing the process ends it.
      reason: 'timeout after <assemble deadline> ms; the engine process is killed',
    },
    create() {
      const engine = createPassThroughEngine('faulty-sync-loop', 'Faulty: synchronous infinite loop');
      engine.assemble = function spins() {
        // eslint-disable-next-line no-empty
        while (true) {}
      };
      return engine;
    },
  },
  {
    id: 'faulty-process-exit',
    fault: 'assemble() calls process.exit(3).',
    expect: { kind: 'crash', operation: 'assemble', reason: 'engine host exited with code 3' },
    create() {
      const engine = createPassThroughEngine('faulty-process-exit', 'Faulty: exits the process');
      engine.assemble = function exits() {
        process.exit(3);
      };
      return engine;
    },
  },
];

module.exports = { RUNAWAY_FAULTS };
