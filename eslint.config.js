// Lint rules, including the layer rules of docs/architecture.md: which folder may import what.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const electronBan = {
  name: 'electron',
  message: 'Only src-main/electron/** and src-main/index.ts may import electron (docs/architecture.md).',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'coverage/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
  },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Layer rules. Later blocks override earlier ones for the same rule, so the most specific comes last.
  {
    files: ['src-main/**/*.ts', 'src-renderer/**'],
    ignores: ['src-main/electron/**', 'src-main/index.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [electronBan] }] },
  },
  {
    files: ['src-main/core/**', 'src-main/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronBan],
          patterns: [
            {
              group: ['**/sandbox/**', '**/web/**', '**/electron/**', '**/adapters/**', '**/cli'],
              message:
                'core and db depend on common and ports only; hosts and adapters depend on them, not the other way round.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/common/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            electronBan,
            ...nodeBuiltins.map((name) => ({
              name,
              message: 'src-main/common is shared with the renderer: no Node modules.',
            })),
          ],
          patterns: [{ group: ['../*', '!./*'], message: 'src-main/common imports nothing else of ours.' }],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            electronBan,
            ...nodeBuiltins.map((name) => ({ name, message: 'The renderer runs in a browser: no Node modules.' })),
          ],
          patterns: [
            {
              group: ['**/src-main/*', '!**/src-main/common', '**/src-main/*/**', '!**/src-main/common/**'],
              message: 'The renderer imports only src-main/common from the main side.',
            },
          ],
        },
      ],
    },
  },
);
