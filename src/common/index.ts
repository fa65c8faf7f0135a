export { errorMessage, errorStack, toError } from './errorText';
export { isRecord } from './guards';
export { writeFileAtomic, type WriteFileAtomicOptions } from './writeFileAtomic';
