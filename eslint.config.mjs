import nx from '@nx/eslint-plugin';

const specFiles = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'];

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    ignores: [
      '**/dist',
      '**/node_modules',
      '**/coverage',
      'tmp',
      '.nx',
      'bench/results',
      // Captured SDK requests and a minified bundle, replayed byte for byte.
      'libs/shared/testing/fixtures',
    ],
  },
  {
    files: ['**/*.ts'],
    rules: {
      // Bounded contexts never import each other; only the gateway composes
      // them; shared code never depends on a context. Violations are errors
      // from the first commit (see ghostfolio PR #5925 for the alternative).
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // The e2e suite boots the real gateway in-process.
          allow: ['@quitanda/gateway'],
          depConstraints: [
            {
              // The benchmark and the migration tools drive the whole product.
              sourceTag: 'type:tooling',
              onlyDependOnLibsWithTags: ['*'],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                'type:context',
                'type:shared',
                'type:database',
              ],
            },
            {
              sourceTag: 'type:e2e',
              onlyDependOnLibsWithTags: [
                'type:app',
                'type:testing',
                'type:shared',
                'type:database',
              ],
            },
            {
              sourceTag: 'type:context',
              onlyDependOnLibsWithTags: [
                'type:shared',
                'type:database',
                'type:testing',
              ],
            },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:shared', 'type:database'],
            },
            {
              sourceTag: 'type:database',
              onlyDependOnLibsWithTags: ['type:shared'],
            },
            {
              sourceTag: 'type:shared',
              onlyDependOnLibsWithTags: ['type:shared'],
              bannedExternalImports: ['typeorm', '@nestjs/typeorm', 'pg'],
            },
            {
              sourceTag: 'scope:events',
              onlyDependOnLibsWithTags: ['scope:events', 'scope:shared'],
            },
            {
              sourceTag: 'scope:marketplace',
              onlyDependOnLibsWithTags: ['scope:marketplace', 'scope:shared'],
            },
            {
              sourceTag: 'scope:error-tracking',
              onlyDependOnLibsWithTags: [
                'scope:error-tracking',
                'scope:shared',
              ],
            },
            {
              sourceTag: 'scope:tooling',
              onlyDependOnLibsWithTags: ['*'],
            },
            {
              sourceTag: 'scope:shared',
              onlyDependOnLibsWithTags: ['scope:shared'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Node 20 ends the process on a rejection nobody handles: every promise
    // is awaited, returned, or handed to inBackground()/within() from
    // @quitanda/kernel, which keep a handler on it.
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { ignoreVoid: false },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Only the gateway reads the environment; contexts get plain values.
    files: ['libs/**/*.ts'],
    ignores: [...specFiles, 'libs/shared/testing/**', 'libs/*/src/testing/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'Only apps/gateway reads the environment; take the value as an option.',
        },
      ],
    },
  },
  {
    // Test helpers stay out of production code.
    files: ['**/*.ts'],
    ignores: [
      ...specFiles,
      '**/src/testing/**',
      'apps/gateway-e2e/**',
      'libs/shared/testing/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@quitanda/testing', '@quitanda/*/testing'],
              message: 'Test helpers are for specs only.',
            },
          ],
        },
      ],
    },
  },
];
