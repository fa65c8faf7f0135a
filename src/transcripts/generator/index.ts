export { generateSession } from './generateSession';
export type {
  GenerateSessionOptions,
  GeneratedSession,
  GeneratedSessionSet,
  GeneratedSessionStats,
} from './generatedTypes';
export { writeGeneratedSessions, type WrittenSessionSet, type WriteGeneratedOptions } from './writeGeneratedSessions';
export { Prng } from './prng';
export { effectiveReserveTokens } from './sessionSimulator';
