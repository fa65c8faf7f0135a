'use strict';
// The catalogue of deliberately broken engines. Each entry is the valid pass-through baseline with exactly one
// fault, plus what an inspector is expected to report for it (`expect`), so tests and the README stay in step.
//
// expect.kind:
//   "quarantine"  — OpenClaw quarantines the engine: expect.operation and expect.reason are the record's fields.
//   "deadline"    — the call never returns; only a host-side deadline or watchdog can end it.
//   "crash"       — the engine's process dies.
//   "finding"     — nothing throws; the result breaks the contract or a safety rule and should be flagged.
//   "compat-retry"— a strict validator rejects host keys; the E2 retry drops them and the engine keeps working.
//   "host-unsupported" — fails closed before the run starts (not a quarantine).
//   "registration"— the plugin registers the engine only in some registration modes.

const { QUARANTINE_FAULTS } = require('./faults/quarantineFaults.js');
const { RUNAWAY_FAULTS } = require('./faults/runawayFaults.js');
const { CONTRACT_FAULTS } = require('./faults/contractFaults.js');
const { ASSEMBLE_FAULTS } = require('./faults/assembleFaults.js');
const { LIFECYCLE_FAULTS } = require('./faults/lifecycleFaults.js');

// Registration order: the README's table follows it.
const FAULTS = [...QUARANTINE_FAULTS, ...RUNAWAY_FAULTS, ...CONTRACT_FAULTS, ...ASSEMBLE_FAULTS, ...LIFECYCLE_FAULTS];

module.exports = { FAULTS };
