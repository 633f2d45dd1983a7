/**
 * Import cycles, checked by every project's `lint` (after ESLint, on the
 * project's own files: see `targetDefaults.lint` in nx.json).
 * ESLint's boundaries rule already keeps projects acyclic; inside a project
 * two things can still go round in circles:
 * - files: a.ts imports b.ts imports a.ts (load order decides what is
 *   `undefined` at import time);
 * - folders: some file of `users/` imports `auth/` while some file of `auth/`
 *   imports `users/`, so neither folder can be read, moved or tested alone.
 * Type-only imports count: a reader follows them just the same.
 */

/**
 * Projects whose cycles are reported as warnings, not errors, while a
 * restructuring removes them. Empty: every project is held to both rules.
 */
/** @type {string[]} */
const KNOWN_CYCLES = [];

/** Folders of production code: each project's `src/`, bench and tools. */
const SOURCE_FOLDERS = '^((apps|libs)/.+/src|bench|tools)/';

const allowance = `^(${KNOWN_CYCLES.join('|')})/`;

/** The rule as an error outside KNOWN_CYCLES and as a warning inside. */
function enforcedAndKnown(rule) {
  const known = {
    ...rule,
    name: `${rule.name}-known`,
    severity: 'warn',
    comment: `${rule.comment} (report-only: KNOWN_CYCLES in .dependency-cruiser.cjs)`,
    from: { ...rule.from, path: allowance },
  };
  const enforced = {
    ...rule,
    from: { ...rule.from, pathNot: allowance },
  };
  return KNOWN_CYCLES.length > 0 ? [enforced, known] : [rule];
}

module.exports = {
  forbidden: [
    ...enforcedAndKnown({
      name: 'no-file-cycle',
      comment:
        'This file is part of an import cycle: move what both sides need into a third file.',
      severity: 'error',
      from: {},
      to: { circular: true },
    }),
    ...enforcedAndKnown({
      name: 'no-folder-cycle',
      comment:
        'This folder is part of a folder-level import cycle: dependencies between feature folders go one way.',
      severity: 'error',
      scope: 'folder',
      from: { path: SOURCE_FOLDERS },
      to: { circular: true },
    }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // A spec imports what it tests and its helpers; that is not a dependency
    // of the folder it sits in.
    exclude: { path: '\\.(spec|int-spec|e2e-spec)\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
