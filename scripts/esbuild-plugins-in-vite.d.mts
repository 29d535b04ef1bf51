import type { Plugin as EsbuildPlugin } from 'esbuild';
import type { Plugin } from 'vite';

export declare function esbuildPluginsInVite(plugins: EsbuildPlugin[]): Plugin;
