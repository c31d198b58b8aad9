/**
 * The layers point one way: server/ imports nothing from web/, client/ or site/ (site/ puts them together);
 * db/ is the ground and imports only from db/, generated/ and common/; cache/ (every data cache and the change
 * notifications that keep them current) stands on db/ alone; domain code (platform, storefront,
 * content, seo) does not import the HTTP layer or the client; common/ imports only itself; records/ imports
 * neither lists/ nor duplicates/, and lists/ not related-lists/ (they stand on it); and no module imports
 * itself through others. In the record API (server/platform/), core/ holds what every folder shares and imports
 * no other folder of it; the folders never import the modules at platform/'s root (the features built on them);
 * and no two folders import each other, through others or directly.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const sources = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file && existsSync(join(root, file)));

const IMPORT = /(?:import|export)[^'"]*?from\s+['"](\.[^'"]+)['"]/g;

function importsOf(file: string): string[] {
  const found: string[] = [];
  for (const [, specifier] of readFileSync(join(root, file), 'utf8').matchAll(IMPORT)) {
    const base = normalize(join(dirname(file), specifier));
    const target = ['', '.ts', '.tsx', '/index.ts']
      .map((suffix) => base + suffix)
      .find((candidate) => existsSync(join(root, candidate)) && candidate.match(/\.tsx?$/));
    if (target) found.push(target);
  }
  return found;
}

const graph = new Map(sources.map((file) => [file, importsOf(file)]));

const RULES: { from: RegExp; to: RegExp; why: string }[] = [
  { from: /^server\//, to: /^(web|client|site)\//, why: 'server/ is below web/, client/ and site/' },
  { from: /^server\/db\//, to: /^(?!server\/db\/|generated\/|common\/)/, why: 'db/ is the ground' },
  {
    from: /^server\/cache\//,
    to: /^(?!server\/(db|cache)\/|generated\/|common\/)/,
    why: 'cache/ stands on db/ alone, so that every layer above may keep data',
  },
  {
    from: /^server\/(platform|storefront|content|seo)\//,
    to: /^(server\/(routes|http)|client)\//,
    why: 'domain code knows no HTTP and no client',
  },
  { from: /^common\//, to: /^(?!common\/)/, why: 'common/ is shared by all and depends on nothing' },
  // The record API's folders that once pointed at each other, one way now.
  {
    from: /^server\/platform\/records\//,
    to: /^server\/platform\/(lists|duplicates)\//,
    why: 'lists and duplicate rules stand on records',
  },
  { from: /^server\/platform\/lists\//, to: /^server\/platform\/related-lists\//, why: 'related lists stand on lists' },
  {
    from: /^server\/platform\/records\//,
    to: /^server\/platform\/query\//,
    why: 'queries are built on records (field paths, access), not records on queries',
  },
];

const PLATFORM = 'server/platform/';
/** A record-API module's folder under server/platform/, or '' for a module at its root. */
const platformFolder = (file: string) => file.slice(PLATFORM.length).split('/').slice(0, -1)[0] ?? '';

/** The folders of server/platform/ and the folders each imports (its root as ''). */
function platformFolders(): Map<string, Set<string>> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    if (!file.startsWith(PLATFORM)) continue;
    const from = platformFolder(file);
    const to = folders.get(from) ?? new Set<string>();
    folders.set(from, to);
    for (const target of targets) {
      if (target.startsWith(PLATFORM) && platformFolder(target) !== from) to.add(platformFolder(target));
    }
  }
  return folders;
}

describe('the import graph', () => {
  it('reads the project', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('server/app.ts')).toContain('server/routes/records.ts');
  });

  it('has no arrow against the layers', () => {
    const wrong = [...graph].flatMap(([file, targets]) =>
      RULES.flatMap((rule) =>
        rule.from.test(file)
          ? targets.filter((target) => rule.to.test(target)).map((target) => `${file} -> ${target} (${rule.why})`)
          : [],
      ),
    );
    expect(wrong).toEqual([]);
  });

  it("keeps the record API's folders one way: core/ below all, the root above all", () => {
    const folders = platformFolders();
    expect([...(folders.get('core') ?? [])]).toEqual([]);
    const intoRoot = [...folders].filter(([folder, targets]) => folder !== '' && targets.has('')).map(([f]) => f);
    expect(intoRoot).toEqual([]);
    const cycles: string[] = [];
    const reach = (from: string, path: string[]) => {
      for (const to of folders.get(from) ?? []) {
        if (to === '') continue;
        if (to === path[0]) cycles.push([...path, to].join(' -> '));
        else if (!path.includes(to)) reach(to, [...path, to]);
      }
    };
    for (const folder of folders.keys()) if (folder !== '') reach(folder, [folder]);
    expect(cycles).toEqual([]);
  });

  it('has no cycle', () => {
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
