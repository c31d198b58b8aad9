/**
 * The hashed files of the web app's client entries, read from the Vite manifests (build.manifest): the
 * storefront's (index.html) and the back office's (lightning.html), each built on its own with its own manifest
 * (web/vite.config.ts), each entry found by the HTML file it was built from.
 */
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

/** The source of the storefront's entry in the manifest (web/index.html). */
const STOREFRONT_ENTRY = 'index.html';

/** The source of the back office's entry in its manifest (web/lightning.html). */
export const BACK_OFFICE_ENTRY = 'lightning.html';

/** The manifests of the two builds, in dist/web/.vite/. */
export const STOREFRONT_MANIFEST = 'manifest.json';
export const BACK_OFFICE_MANIFEST = 'back-office-manifest.json';

interface ManifestChunk {
  file: string;
  /** The source the chunk was built from, relative to the web app's root; the manifest's key for an entry. */
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

type Manifest = Record<string, ManifestChunk>;

/**
 * The assets of the entry built from `source` (the storefront's by default); readStyle gives the text of a
 * stylesheet of the build (its manifest path). By its source, not by its place: the manifest lists both
 * entries, in no order to rely on.
 */
export function clientAssetsFrom(
  manifest: Manifest,
  readStyle: (file: string) => string,
  base = '/',
  source = STOREFRONT_ENTRY,
): ClientAssets {
  const entry = Object.entries(manifest).find(([key, chunk]) => chunk.isEntry && (chunk.src ?? key) === source)?.[1];
  if (!entry) throw new Error(`The Vite manifest has no entry chunk built from ${source}`);
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
 * Reads the assets of the entry built from `source` (the storefront's by default) from its build's manifest
 * (dist/web/.vite/manifest.json by default) and the stylesheets it names, again only when the manifest changes
 * (a rebuild while the server runs, seen within a second); null when the web app is not built.
 */
export function clientAssetsReader(
  webRoot: string,
  now: () => number = Date.now,
  { source = STOREFRONT_ENTRY, manifestFile = STOREFRONT_MANIFEST } = {},
): () => ClientAssets | null {
  const path = join(webRoot, '.vite', manifestFile);
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
      cached = {
        mtimeMs,
        assets: clientAssetsFrom(manifest, (file) => readFileSync(join(webRoot, file), 'utf8'), '/', source),
      };
    }
    return cached.assets;
  };
}

/** The back office's assets (its entry, web/lightning.html), read as clientAssetsReader reads the storefront's. */
export function backOfficeAssetsReader(webRoot: string, now: () => number = Date.now): () => ClientAssets | null {
  return clientAssetsReader(webRoot, now, { source: BACK_OFFICE_ENTRY, manifestFile: BACK_OFFICE_MANIFEST });
}
