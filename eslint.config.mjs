// Lint catches what prose cannot: the module boundaries of docs/architecture.md ("Layers") and the
// habits below (no floating promises, type-only imports, no `any`, no @ts-ignore).
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier/flat';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.nx/**', 'infra/.run/**'] },
  ...nx.configs['flat/base'],
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-ignore': true, 'ts-nocheck': true, 'ts-expect-error': 'allow-with-description' },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // The CLI (apps/leadstream) composes the role apps into processes.
          allow: ['@leadstream/api', '@leadstream/worker', '@leadstream/projector'],
          banTransitiveDependencies: false,
          depConstraints: [
            // docs/architecture.md, "Layers": domain imports nothing of ours but domain; ports
            // import domain; engines import ports; only apps wire engines to the domain.
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'] },
            { sourceTag: 'type:port', onlyDependOnLibsWithTags: ['type:domain', 'type:port'] },
            { sourceTag: 'type:engine', onlyDependOnLibsWithTags: ['type:port', 'type:domain'] },
            { sourceTag: 'type:dal', onlyDependOnLibsWithTags: ['type:port', 'type:domain'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:port', 'type:domain'] },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                'type:app',
                'type:util',
                'type:dal',
                'type:port',
                'type:domain',
                'type:engine',
              ],
            },
          ],
        },
      ],
    },
  },
  {
    // Plain JavaScript entry points (the pipeline thread's tsx bootstrap) have no type information.
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests may poke at internals with loose types, but never float promises.
    files: ['**/*.spec.ts'],
    rules: { '@typescript-eslint/unbound-method': 'off' },
  },
  // Layout is Prettier's (.prettierrc.json, `npm run format`); no lint rule argues with it.
  prettier,
);
