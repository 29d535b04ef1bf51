import type { Plugin } from 'esbuild';

export declare const RENDERER_PATCHES: Plugin[];
