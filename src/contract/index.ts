export * from './messages';
export * from './transcript';
export * from './engine';
export * from './validateEngine';
export * from './recording';
export * from './validateAssembleResult';
export * from './validateEngineResult';
export * from './jsonDepth';
