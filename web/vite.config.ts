import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import {
  appChunk,
  backOfficeDevPages,
  faviconIco,
  initialJsBudget,
  mockExamples,
  mockMedia,
  precompressAssets,
} from './build-plugins.ts';

const apiTarget = process.env.API_TARGET || 'http://127.0.0.1:3000';

/**
 * The dev server hands the API's paths to API_TARGET as one site with it: the Host and, on a write, the Origin
 * become the target's, so that the server's CSRF check (an Origin other than its own is refused) lets the pages
 * of the dev server sign in and write, as the pages it serves itself do (npm run dev:sandbox).
 */
const toApi: ProxyOptions = {
  target: apiTarget,
  changeOrigin: true,
  configure(proxy) {
    proxy.on('proxyReq', (request) => {
      if (request.getHeader('origin') !== undefined) request.setHeader('origin', new URL(apiTarget).origin);
    });
  },
};

const inWeb = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/**
 * The storefront and the back office (under /lightning/) are two pages built one after the other, each on its
 * own: built together, the modules both use (React, TanStack Query, the client) would go into a chunk they
 * share, and the storefront's initial JS would grow by what splitting its code costs. Each build has its entry,
 * its manifest (web/ssr/assets.ts reads them) and its initial-JS budget (build-plugins.ts).
 */
export default defineConfig({
  root: inWeb('.'),
  plugins: [
    react(),
    initialJsBudget('storefront'),
    initialJsBudget('backOffice'),
    precompressAssets(),
    faviconIco(),
    mockMedia(),
    mockExamples(),
    backOfficeDevPages(),
  ],
  build: {
    outDir: '../dist/web',
    // The server renders the page and reads the hashed entry and its CSS from the manifest.
    manifest: true,
    // Every browser the page supports preloads modules itself: the polyfill would only add to the initial JS.
    modulePreload: { polyfill: false },
  },
  environments: {
    client: {
      build: {
        emptyOutDir: true,
        rollupOptions: {
          input: inWeb('index.html'),
          output: { codeSplitting: appChunk({ entry: inWeb('src/boot.ts'), app: inWeb('src/main.tsx') }) },
        },
      },
    },
    backOffice: {
      consumer: 'client',
      build: {
        // Beside the storefront's build, which comes first and empties the folder.
        emptyOutDir: false,
        manifest: '.vite/back-office-manifest.json',
        rollupOptions: { input: inWeb('lightning.html') },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      await builder.build(builder.environments.client);
      await builder.build(builder.environments.backOffice);
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/lwr': toApi,
      '/services': toApi,
      // The banner picture: media behind the site prefix, and the resizing service in front of it.
      '/sfsites': toApi,
      '/cdn-cgi': toApi,
    },
  },
});
