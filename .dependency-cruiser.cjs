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
 *
 * Files at the root of a project's `src/lib/` (or `src/app/`) count as one
 * more folder: the module there imports the folders, so a folder importing
 * a root file closes a circle that folder scope alone does not see (it
 * counts root files as part of the folder holding every other).
 *
 * A library may also declare layers (LAYERED_LIBRARIES): every folder of its
 * `src/lib/` belongs to one, imports only run down, and areas (the edges a
 * request or a job comes in by) import each other only where listed.
 */

/**
 * Projects whose cycles are reported as warnings, not errors, while a
 * restructuring removes them. Empty: every project is held to both rules.
 */
/** @type {string[]} */
const KNOWN_CYCLES = [];

/**
 * Projects whose folders still import files at the library root (errors,
 * constants, options): reported as warnings until those move into a folder,
 * as error tracking's did into `common/`.
 */
/** @type {string[]} */
const KNOWN_ROOT_IMPORTS = [];

/**
 * Layered libraries: layers top to bottom, the layer of areas, and the
 * imports between areas that are allowed, each with its reason. The README
 * of the library draws the same picture (error tracking: "Layout").
 */
const LAYERED_LIBRARIES = [
  {
    root: 'libs/error-tracking/src/lib',
    layers: [
      { name: 'composition', folders: ['composition'] },
      {
        name: 'area',
        folders: [
          'api',
          'web-ui',
          'ingestion',
          'sourcemaps',
          'sentry-issues',
          'alerts',
          'retention',
          'retitle',
          'cli',
        ],
      },
      { name: 'core', folders: ['core'] },
      {
        name: 'domain',
        folders: [
          'accounts',
          'sessions',
          'projects',
          'settings',
          'issues',
          'errors',
          'artifacts',
          'attachments',
          'alerting',
        ],
      },
      {
        name: 'toolkit',
        folders: ['common', 'persistence', 'http', 'html', 'sentry-event'],
      },
    ],
    areas: 'area',
    areaImports: [
      {
        from: 'api',
        to: 'alerts',
        because:
          'hooks and alert rules go through AlertsService, whose test send and token sealing are delivery',
      },
      {
        from: 'web-ui',
        to: 'alerts',
        because: 'the Alerts forms of Settings > Monitor, as the API',
      },
      {
        from: 'retitle',
        to: 'ingestion',
        because: "titles are derived again by the collector's normalisation",
      },
      {
        from: 'cli',
        to: 'retention',
        because: 'retention:run runs retention now',
      },
      { from: 'cli', to: 'retitle', because: 'retitle runs it now' },
      {
        from: 'sentry-issues',
        to: 'sourcemaps',
        because:
          "one Sentry web API under /api/0: its token guard, errors and org/project paths are the sourcemaps area's",
      },
    ],
  },
];

/** Folders of production code: each project's `src/`, bench and tools. */
const SOURCE_FOLDERS = '^((apps|libs)/.+/src|bench|tools)/';

/**
 * The rule as an error outside the `known` projects and as a warning inside
 * them (`listName` names the list in the warning).
 */
function enforcedAndKnown(
  rule,
  known = KNOWN_CYCLES,
  listName = 'KNOWN_CYCLES',
) {
  if (known.length === 0) return [rule];
  const projects = `(?:${known.join('|')})/`;
  // Without a capturing group, so `$1` in `to` still means the rule's own.
  const within = (path = '') => `^(?=${projects})${path.replace(/^\^/, '')}`;
  return [
    { ...rule, from: { ...rule.from, pathNot: `^${projects}` } },
    {
      ...rule,
      name: `${rule.name}-known`,
      severity: 'warn',
      comment: `${rule.comment} (report-only: ${listName} in .dependency-cruiser.cjs)`,
      from: { ...rule.from, path: within(rule.from.path) },
    },
  ];
}

const anyOf = (folders) => `(${folders.join('|')})`;

/** The rules of one layered library. */
function layerRules({ root, layers, areas, areaImports }) {
  const under = (folders) => `^${root}/${anyOf(folders)}/`;
  const all = layers.flatMap((layer) => layer.folders);
  const upward = layers.slice(1).map((layer, index) => ({
    name: 'layer-order',
    comment: `A ${layer.name} file imports a layer above it (${layers
      .slice(0, index + 1)
      .map((upper) => upper.name)
      .join(', ')}): imports run down only; move what both need down.`,
    severity: 'error',
    from: { path: under(layer.folders) },
    to: {
      path: under(layers.slice(0, index + 1).flatMap((upper) => upper.folders)),
    },
  }));
  const areaFolders = layers.find((layer) => layer.name === areas).folders;
  const sideways = areaFolders.map((area) => {
    const allowed = areaImports
      .filter((allowance) => allowance.from === area)
      .map((allowance) => allowance.to);
    const others = areaFolders.filter(
      (other) => other !== area && !allowed.includes(other),
    );
    return {
      name: 'area-to-area',
      comment: `${area}/ imports another area: areas share through the core module and the domain below them (or add a reasoned entry to areaImports in .dependency-cruiser.cjs).`,
      severity: 'error',
      from: { path: under([area]) },
      to: { path: under(others) },
    };
  });
  const outside = {
    name: 'outside-layers',
    comment: `A file of ${root}/ outside the folders of its layers (at the root, or in a folder no layer lists): put it in a layer's folder.`,
    severity: 'error',
    from: { path: `^${root}/`, pathNot: under(all) },
    to: {},
  };
  const toOutside = {
    ...outside,
    from: {},
    to: { path: `^${root}/`, pathNot: under(all) },
  };
  return [...upward, ...sideways, outside, toOutside];
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
    ...enforcedAndKnown(
      {
        name: 'no-root-file-import',
        comment:
          'A folder imports a file at the root of its library, whose module imports the folders: a folder cycle. Move what folders share (errors, constants, options) into a folder.',
        severity: 'error',
        from: { path: '^((?:apps|libs)/.+?/src/(?:lib|app))/[^/]+/' },
        to: { path: '^$1/[^/]+$' },
      },
      KNOWN_ROOT_IMPORTS,
      'KNOWN_ROOT_IMPORTS',
    ),
    ...LAYERED_LIBRARIES.flatMap(layerRules),
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
