/**
 * The modules `npm run mutation` mutates: the code that guards trust and data (issue 33). Each module names the
 * source files Stryker mutates and the test files that state their behaviour; a module runs as one Stryker run, so its
 * score is printed on its own and its dry run only loads its tests.
 */
export const MUTATION_MODULES = [
  {
    name: 'consent',
    what: 'consent records and plugin package hashing',
    mutate: ['src/plugins/consent.ts', 'src/plugins/consentGate.ts', 'src/plugins/hashPluginPackage.ts'],
    // consentStoreWriters is left out: its writers are child processes (no mutant is active in them) and it takes
    // ten seconds a run, which every mutant of the store would pay
    tests: [
      'test/unit/plugins/consent.test.ts',
      'test/unit/plugins/consentStore.test.ts',
      'test/unit/plugins/hostGrants.test.ts',
      'test/unit/plugins/hashPluginPackage.test.ts',
      'test/unit/plugins/consentGate.test.ts',
    ],
  },
  {
    name: 'engine-host',
    what: 'engine-host limits, module coverage and permissions',
    mutate: [
      'src/plugins/host/hostLimits.ts',
      'src/plugins/host/frameChannel.ts',
      'src/plugins/host/moduleCoverage.ts',
      'src/plugins/host/hostPermissions.ts',
    ],
    tests: [
      'test/unit/plugins/hostLimits.test.ts',
      'test/unit/plugins/hostGrants.test.ts',
      'test/unit/plugins/moduleCoverage.test.ts',
      'test/unit/plugins/hostSandbox.test.ts',
    ],
  },
  {
    name: 'quarantine',
    what: 'quarantine of failing engines',
    mutate: ['src/runtime/quarantineStore.ts', 'src/runtime/quarantineProxy.ts'],
    tests: [
      'test/unit/runtime/quarantineProxy.test.ts',
      'test/unit/runtime/quarantine.property.test.ts',
      'test/unit/runtime/contextRuntime.test.ts',
    ],
  },
  {
    name: 'config-save',
    what: 'config validation and the atomic save',
    mutate: ['src/config/validateConfig.ts', 'src/config/configSave.ts', 'src/common/writeFileAtomic.ts'],
    tests: [
      'test/unit/config/configSave.test.ts',
      'test/unit/config/configOperations.test.ts',
      'test/unit/config/validateConfig.test.ts',
      'test/unit/common/writeFileAtomic.test.ts',
      'test/unit/common/writeChunksAtomic.test.ts',
    ],
  },
  {
    name: 'transcripts',
    what: 'the JSONL and SQLite readers (zstd, cold archives, problems)',
    mutate: [
      'src/transcripts/sessionParser.ts',
      'src/transcripts/readLines.ts',
      'src/transcripts/sqlite/transcriptRows.ts',
      'src/transcripts/sqlite/zstdCodec.ts',
    ],
    tests: [
      'test/unit/transcripts/readSessionFile.test.ts',
      'test/unit/transcripts/malformedCorpus.test.ts',
      'test/unit/transcripts/loadSession.test.ts',
      'test/unit/transcripts/sessionTranscript.test.ts',
      'test/unit/transcripts/sessionVersion4.test.ts',
      'test/unit/transcripts/sqliteStorage.test.ts',
      'test/unit/transcripts/sqliteFixture.test.ts',
      'test/unit/transcripts/sqliteGenerations.test.ts',
      'test/unit/transcripts/readLines.test.ts',
      'test/unit/transcripts/transcriptRows.test.ts',
    ],
  },
  {
    name: 'legacy-compaction',
    what: "the legacy engine's cut point and compaction trigger",
    mutate: ['src/engines/legacy/findCutPoint.ts', 'src/engines/legacy/shouldCompact.ts'],
    tests: [
      'test/unit/legacy/findCutPoint.test.ts',
      'test/unit/legacy/prepareCompaction.test.ts',
      'test/unit/legacy/compactTranscript.test.ts',
      'test/unit/legacy/shouldCompact.test.ts',
    ],
  },
  {
    name: 'alignment',
    what: 'message alignment across lanes',
    mutate: ['src/view/alignTurn.ts'],
    tests: ['test/unit/view/alignTurn.test.ts', 'test/unit/view/alignTurn.property.test.ts'],
  },
];

export function mutationModule(name) {
  const found = MUTATION_MODULES.find((module) => module.name === name);
  if (!found) {
    throw new Error(
      `Unknown mutation module "${name}": one of ${MUTATION_MODULES.map((module) => module.name).join(', ')}.`,
    );
  }
  return found;
}
