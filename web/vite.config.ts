import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { faviconIco, initialJsBudget, mockExamples, mockMedia, precompressAssets } from './build-plugins.ts';

const apiTarget = process.env.API_TARGET || 'http://127.0.0.1:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), initialJsBudget(), precompressAssets(), faviconIco(), mockMedia(), mockExamples()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // The server renders the page and reads the hashed entry and its CSS from the manifest.
    manifest: true,
    // Every browser the page supports preloads modules itself: the polyfill would only add to the initial JS.
    modulePreload: { polyfill: false },
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/lwr': { target: apiTarget, changeOrigin: true },
      '/services': { target: apiTarget, changeOrigin: true },
      // The banner picture: media behind the site prefix, and the resizing service in front of it.
      '/sfsites': { target: apiTarget, changeOrigin: true },
      '/cdn-cgi': { target: apiTarget, changeOrigin: true },
    },
  },
});
