import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { setupFiles: ['./setup.mjs'], include: ['*.test.mjs'] } });
