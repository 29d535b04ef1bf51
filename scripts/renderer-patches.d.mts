import type { Plugin } from 'esbuild';

export declare const RENDERER_PATCHES: Plugin[];
export declare const OPTIONAL_PATCHES: string[];
