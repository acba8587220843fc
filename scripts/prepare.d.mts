// Types of scripts/prepare.mjs for the TypeScript that imports it (benches, test set-up).
export declare const root: string;
export declare const SOURCES: readonly string[];
export declare function run(command: string, args: string[], options?: object): void;
export declare function ensureInstalled(): void;
export declare function whyRebuild(options?: {
  dir?: string;
  distDir?: string;
  sources?: readonly string[];
}): string;
export declare function recordSources(options?: {
  dir?: string;
  distDir?: string;
  sources?: readonly string[];
  /** Each source file's modified time (ms), by path relative to `dir`. */
  files?: ReadonlyMap<string, number>;
}): void;
export declare function ensureBuilt(options?: {
  dir?: string;
  distDir?: string;
  sources?: readonly string[];
  force?: boolean;
}): {
  rebuilt: boolean;
  reason: string;
  seconds: number;
};
export declare function withBuildLock<T>(fn: () => T, lock?: string): T;
export declare function ensureSdk(options?: { force?: boolean }): boolean;
export declare const SERVING: string;
export declare function currentBuild(options?: { dir?: string; distDir?: string }): string | null;
export declare function servingProcesses(folder: string): number[];
export declare function freeSlot(dir: string, distDir: string): string;
export declare function linkBuild(options: { dir?: string; distDir?: string; folder: string }): void;
