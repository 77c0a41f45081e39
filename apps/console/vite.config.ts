/**
 * The console's build: served by the API process under /app (apps/api/src/console), so every
 * asset is bundled (no CDN) and addressed under /app/. `npm run console:dev` serves it with hot
 * reload and sends /api (and the export downloads) to a running `leadstream start`.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const service = process.env['LEADSTREAM_URL'] ?? 'http://localhost:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One chart library and React: a few hundred kB, fine for an app behind a sign-in.
    chunkSizeWarningLimit: 1500,
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      '/api': { target: service, changeOrigin: true },
      '/exports': { target: service, changeOrigin: true },
    },
  },
});
