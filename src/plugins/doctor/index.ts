/** The doctor: runDoctor, its report types and text form, and the checks it runs on engine results. */
export { runDoctor, type DoctorProgress, type RunDoctorOptions } from './runDoctor';
export { formatDoctorReport } from './formatDoctorReport';
export {
  checkAssembleResult,
  checkCompactProbe,
  checkLifecycleResult,
  describeAssembleResultShape,
  findUnpairedToolMessages,
  isEstimateFar,
} from './resultChecks';
export type * from './reportTypes';
