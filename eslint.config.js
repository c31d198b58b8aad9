// Linting of the whole tree (npm run lint; CI runs it): ESLint's and typescript-eslint's recommended rules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['generated/', '**/dist/', 'docs/', 'node_modules/', 'web/public/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Arguments and bindings named with a leading _ are unused on purpose (a callback's shape).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // A variable given a starting value that every path then replaces reads more plainly than one that
      // TypeScript must prove definitely assigned.
      'no-useless-assignment': 'off',
    },
  },
);
