// Lint rules, including the layer rules of docs/architecture.md: which folder may import what.
//
// The layer rules are allow-lists, the way VS Code's layer checker works: each layer (LAYERS below) names what it
// may import, and every other module of ours is refused. They are checked by a small local rule, loket/layers,
// rather than by no-restricted-imports patterns, because patterns match the spelling of a specifier, not the file
// it names: '../core/x' means src-main/core from src-main/sandbox but src-main/core/core from src-main/core/gateway,
// so a pattern list has to enumerate every relative spelling from every folder depth and still misses some ('..' is
// src-main/index.ts). loket/layers resolves each specifier the way Node and TypeScript do for a path —
// path.resolve(dirname(importing file), specifier), relative to this repository — and looks the result up in the
// table, so a verdict does not depend on how the import is spelled. Bare specifiers are electron, Node built-ins
// ('fs', 'node:fs') or npm packages. Every import form is checked: import/export ... from, import type,
// import(), import x = require(), require() and type-level import('...'). No plugin is needed for this.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(fileURLToPath(import.meta.url));

// Modules of ours, by where a specifier resolves (a repository-relative path without its extension).
// `what` completes the sentence "'<specifier>' is ...".
const under = (rel, folder) => rel === folder || rel.startsWith(`${folder}/`);
function targetOf(rel) {
  if (rel === '..' || rel.startsWith('../')) return { id: 'outside', what: 'outside the repository' };
  if (rel === 'src-main' || rel === 'src-main/index') return { id: 'index', what: 'src-main/index.ts' };
  if (rel === 'src-main/runtime') return { id: 'runtime', what: 'src-main/runtime.ts' };
  if (rel === 'src-main/app-host') return { id: 'app-host', what: 'src-main/app-host.ts' };
  // The host's parts (src-main/host/) are app-host.ts split by job: the same layer.
  if (under(rel, 'src-main/host')) return { id: 'app-host', what: 'in src-main/host' };
  // TypeScript resolves 'src-main/cli' to cli.ts before cli/index.ts; both are the cli layer anyway.
  if (rel === 'src-main/cli') return { id: 'cli', what: 'src-main/cli.ts' };
  for (const id of ['common', 'db', 'core', 'store-book', 'adapters', 'sandbox', 'web', 'cli', 'electron']) {
    if (under(rel, `src-main/${id}`)) return { id, what: `in src-main/${id}` };
  }
  if (under(rel, 'src-main')) return { id: 'src-main-unlisted', what: `${rel}, which is in no layer` };
  if (under(rel, 'src-preload')) return { id: 'preload', what: 'in src-preload' };
  if (under(rel, 'src-renderer')) return { id: 'renderer', what: 'in src-renderer' };
  return { id: 'repo-other', what: `${rel || '.'}, outside the layered folders` };
}

const allOfSrcMain = ['common', 'db', 'core', 'store-book', 'adapters', 'sandbox', 'runtime', 'app-host', 'web', 'cli'];
const ELECTRON_WHO = 'only src-main/electron, src-main/index.ts and src-preload may import it';

// The layers. `ours`: the target ids above it may import; `node`: Node built-ins; `electron`: the electron module;
// `npm`: true for any package, or the list of the only packages allowed. Files in none of these folders (test/,
// scripts/, configs) are unrestricted; a file in src-main that is in no layer is itself an error.
const LAYERS = [
  {
    in: (rel) => under(rel, 'src-main/common'),
    rule: 'src-main/common is shared with the renderer and may import only other files in src-main/common and zod',
    ours: ['common'],
    npm: ['zod'],
  },
  {
    in: (rel) => under(rel, 'src-main/db'),
    rule: 'src-main/db may import only common and db, Node built-ins and npm packages',
    ours: ['common', 'db'],
    node: true,
    npm: true,
  },
  {
    in: (rel) => under(rel, 'src-main/core'),
    rule: 'src-main/core may import only common, db and core, Node built-ins and npm packages',
    ours: ['common', 'db', 'core'],
    node: true,
    npm: true,
  },
  {
    in: (rel) => under(rel, 'src-main/store-book'),
    rule:
      'src-main/store-book may import only common, db, core and store-book, Node built-ins and npm packages ' +
      '(a host gives it its keychain adapter)',
    ours: ['common', 'db', 'core', 'store-book'],
    node: true,
    npm: true,
  },
  {
    in: (rel) => under(rel, 'src-main/adapters'),
    rule: 'src-main/adapters may import only common, core (its ports) and adapters, Node built-ins and npm packages',
    ours: ['common', 'core', 'adapters'],
    node: true,
    npm: true,
  },
  {
    in: (rel) => under(rel, 'src-main/sandbox'),
    rule: 'src-main/sandbox may import only common, core and sandbox, Node built-ins and npm packages',
    ours: ['common', 'core', 'sandbox'],
    node: true,
    npm: true,
  },
  {
    in: (rel) => rel === 'src-main/runtime.ts' || rel === 'src-main/app-host.ts' || under(rel, 'src-main/host'),
    rule:
      'src-main/runtime.ts, app-host.ts and host/ are composition roots and may import all of src-main except electron/, ' +
      'web/, cli/, index.ts and cli.ts, plus Node built-ins and npm packages',
    ours: ['common', 'db', 'core', 'store-book', 'adapters', 'sandbox', 'runtime', 'app-host'],
    node: true,
    npm: true,
  },
  {
    in: (rel) => under(rel, 'src-main/web'),
    rule: 'src-main/web may import all of src-main except electron/ and index.ts, plus Node built-ins and npm packages',
    ours: allOfSrcMain,
    node: true,
    npm: true,
  },
  {
    in: (rel) => under(rel, 'src-main/cli') || rel === 'src-main/cli.ts',
    rule:
      'src-main/cli and cli.ts may import all of src-main except electron/ and index.ts, plus Node built-ins and ' +
      'npm packages',
    ours: allOfSrcMain,
    node: true,
    npm: true,
  },
  {
    in: (rel) => under(rel, 'src-main/electron') || rel === 'src-main/index.ts',
    rule: 'src-main/electron and index.ts may import all of src-main, electron, Node built-ins and npm packages',
    ours: [...allOfSrcMain, 'electron', 'index', 'src-main-unlisted'],
    node: true,
    electron: true,
    npm: true,
  },
  {
    in: (rel) => under(rel, 'src-preload'),
    rule:
      'src-preload is a sandboxed preload and may import only src-preload, src-main/common, electron and npm ' +
      'packages, no Node built-ins',
    ours: ['preload', 'common'],
    electron: true,
    npm: true,
  },
  {
    in: (rel) => under(rel, 'src-renderer'),
    rule:
      'src-renderer runs in a browser and may import only src-renderer, src-main/common and npm packages, ' +
      'no Node built-ins and no electron',
    ours: ['renderer', 'common'],
    npm: true,
  },
];

const toRepoPath = (file) => path.relative(repoRoot, file).split(path.sep).join('/');
const withoutExtension = (rel) => rel.replace(/(\.d)?\.(ts|mts|cts|js|mjs|cjs)$/, '');
const isRelative = (spec) => spec === '.' || spec === '..' || /^\.\.?\//.test(spec) || path.isAbsolute(spec);
const isNodeBuiltin = (spec) => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]);
const packageName = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/** Why `layer` may not import `spec` from a file in `dir`, or null when it may. */
function refusal(layer, dir, rawSpec) {
  const spec = rawSpec.replace(/\?.*$/, ''); // a bundler query ('./x.css?inline') does not change the module
  let target;
  if (isRelative(spec)) {
    target = targetOf(withoutExtension(toRepoPath(path.resolve(dir, spec))));
    if (layer.ours.includes(target.id)) return null;
  } else if (spec === 'electron' || spec.startsWith('electron/')) {
    if (layer.electron) return null;
    target = { what: `electron, and ${ELECTRON_WHO}` };
  } else if (isNodeBuiltin(spec)) {
    if (layer.node) return null;
    target = { what: 'a Node built-in module' };
  } else {
    if (layer.npm === true || (layer.npm ?? []).includes(packageName(spec))) return null;
    target = { what: 'an npm package' };
  }
  return `${layer.rule} (docs/architecture.md): '${rawSpec}' is ${target.what}.`;
}

const stringValue = (node) =>
  node?.type === 'Literal' && typeof node.value === 'string'
    ? node.value
    : node?.type === 'TemplateLiteral' && node.expressions.length === 0
      ? node.quasis[0].value.cooked
      : null;

const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each layer of docs/architecture.md imports only what its allow-list names.' },
    schema: [],
  },
  create(context) {
    const file = context.physicalFilename;
    const rel = toRepoPath(file);
    const layer = LAYERS.find((l) => l.in(rel));
    if (!layer) {
      if (!under(rel, 'src-main')) return {};
      return {
        Program(node) {
          context.report({
            node,
            message: `${rel} is in no layer of docs/architecture.md; add its folder to LAYERS in eslint.config.js.`,
          });
        },
      };
    }
    const dir = path.dirname(file);
    const check = (node) => {
      const spec = stringValue(node);
      if (spec === null) return; // a computed import() cannot be checked statically
      const message = refusal(layer, dir, spec);
      if (message) context.report({ node, message });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => node.source && check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.source ?? node.argument?.literal),
      TSExternalModuleReference: (node) => check(node.expression),
      'CallExpression[callee.type="Identifier"][callee.name="require"]': (node) => check(node.arguments[0]),
    };
  },
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
      // Prettier wraps code at 120 columns but not long strings; this keeps them from growing without bound.
      'max-len': ['error', { code: 160, ignoreUrls: true, ignoreRegExpLiterals: true }],
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
  // Layer rules: the allow-lists of LAYERS above, checked by loket/layers.
  {
    files: ['src-main/**', 'src-preload/**', 'src-renderer/**'],
    plugins: { loket: { rules: { layers: layersRule } } },
    rules: { 'loket/layers': 'error' },
  },
);
