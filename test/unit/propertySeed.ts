/**
 * Property tests (fast-check) draw their cases from one fixed seed here, so every run of `npm test` checks the same
 * cases and CI cannot fail on a case first drawn there. `npm run fuzz` draws new seeds (FC_RANDOM=1) to look for
 * new counterexamples; one it finds is printed with its seed and becomes a fixed `examples` entry of its property.
 */
import fc from 'fast-check';

if (!process.env.FC_RANDOM) fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261202) });
