/** The hashed files of the web app's client entry, read from the Vite manifest (build.manifest). */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface ClientAssets {
  /** The entry module, e.g. /assets/index-abc123.js. */
  script: string;
  /**
   * The text of the stylesheets of the entry and of the chunks it imports, in that order: the document holds
   * it inline, so that the page paints without waiting for another request.
   */
  css: string;
  /** Chunks the entry imports statically: preloaded so that they download alongside it. */
  preloads: string[];
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

type Manifest = Record<string, ManifestChunk>;

/** The entry's assets; readStyle gives the text of a stylesheet of the build (its manifest path). */
export function clientAssetsFrom(manifest: Manifest, readStyle: (file: string) => string, base = '/'): ClientAssets {
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('The Vite manifest has no entry chunk');
  const styles = new Set(entry.css ?? []);
  const preloads = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || preloads.has(chunk.file)) return;
    preloads.add(chunk.file);
    for (const file of chunk.css ?? []) styles.add(file);
    for (const file of chunk.imports ?? []) visit(file);
  };
  entry.imports?.forEach(visit);
  const url = (file: string) => `${base}${file}`;
  return { script: url(entry.file), css: [...styles].map(readStyle).join('\n'), preloads: [...preloads].map(url) };
}

/** How long the manifest's modification time is taken as read: a page render asks for the assets each time. */
const MANIFEST_CHECK_MS = 1_000;

/**
 * Reads dist/web/.vite/manifest.json and the stylesheets it names, again only when the manifest changes (a
 * rebuild while the server runs, seen within a second); null when the web app is not built.
 */
export function clientAssetsReader(webRoot: string, now: () => number = Date.now): () => ClientAssets | null {
  const path = join(webRoot, '.vite', 'manifest.json');
  let cached: { mtimeMs: number; assets: ClientAssets } | undefined;
  let checkedAt = -Infinity;
  return () => {
    if (cached && now() - checkedAt < MANIFEST_CHECK_MS) return cached.assets;
    checkedAt = now();
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      cached = undefined;
      return null;
    }
    if (cached?.mtimeMs !== mtimeMs) {
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
      cached = { mtimeMs, assets: clientAssetsFrom(manifest, (file) => readFileSync(join(webRoot, file), 'utf8')) };
    }
    return cached.assets;
  };
}
