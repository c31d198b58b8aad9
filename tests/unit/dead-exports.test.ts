/**
 * No dead exports: every name that server/, web/ssr/ or common/ exports is imported by another file (the code,
 * the scripts or the tests). A name used only in its own file is not exported. The typed client (client/) is
 * left out: its exports are the SDK's surface for others.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const SCOPE = /^(server|web\/ssr|common)\//;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file && existsSync(join(root, file)));
const source = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));

function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = normalize(join(dirname(from), specifier));
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => source.has(candidate));
}

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|class|abstract class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
const IMPORT = /(?:import|export)\s+(?:type\s+)?([\s\S]*?)\s+from\s+'([^']+)'/g;
const DYNAMIC = /\{([^}]*)\}\s*=\s*await\s+import\(\s*'([^']+)'\s*\)/g;

/** Per file, the names other files import from it; '*' when one imports all of it. */
const imported = new Map<string, Set<string>>();
const importedFrom = (file: string) => imported.get(file) ?? imported.set(file, new Set()).get(file)!;
for (const [file, text] of source) {
  for (const [, clause, specifier] of text.matchAll(IMPORT)) {
    const target = resolveSpecifier(file, specifier);
    if (!target || target === file) continue;
    if (/\*/.test(clause)) importedFrom(target).add('*');
    const names = /\{([\s\S]*)\}/.exec(clause)?.[1] ?? '';
    for (const part of names.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0];
      if (name) importedFrom(target).add(name);
    }
  }
  for (const [, names, specifier] of text.matchAll(DYNAMIC)) {
    const target = resolveSpecifier(file, specifier);
    if (target) for (const part of names.split(',')) importedFrom(target).add(part.trim().split(':')[0].trim());
  }
}

describe('exports', () => {
  it('reads the project', () => {
    expect(imported.get('server/http/operations/operation.ts')).toContain('implement');
  });

  it('are each imported by another file', () => {
    const dead = [...source]
      .filter(([file]) => SCOPE.test(file) && !file.includes('.test.'))
      .flatMap(([file, text]) => {
        const names = imported.get(file);
        if (names?.has('*')) return [];
        return [...text.matchAll(DECLARATION)]
          .map(([, name]) => name)
          .filter((name) => !names?.has(name))
          .map((name) => `${file}: ${name}`);
      });
    expect(dead).toEqual([]);
  });
});
