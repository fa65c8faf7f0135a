/** The doctor: runDoctor, its report types and text form, and the checks it runs on engine results. */
export { doctorDeadlines, runDoctor, type RunDoctorOptions } from './runDoctor';
export { formatDoctorProgress, type DoctorPluginOutcome, type DoctorProgress } from './doctorProgress';
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
