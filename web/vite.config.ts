// The web client's Vite configuration: `npm run dev:web` (a dev server on :5173 that sends
// API calls to the service on :8000) and scripts/build-web.ts (the production build).
import { defineConfig } from 'vite';

// Every path the API owns; everything else is a page of this client.
const API = ['/app', '/account', '/auth', '/media', '/public', '/health', '/openapi.json', '/docs'];
const target = process.env.API_URL ?? 'http://localhost:8000';

export default defineConfig({
  root: import.meta.dirname,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { target: 'es2022', assetsDir: 'assets', sourcemap: true },
  server: { proxy: Object.fromEntries(API.map((path) => [path, { target, changeOrigin: false }])) },
});
