// Types of lib/http/paint-first.mjs for the TypeScript that imports it (its tests).
import type { ServerResponse } from "node:http";

export declare const LOADER_TIMEOUT_MS: number;
export declare const LOADER_SOURCE: string;
export declare function loaderCalls(html: string): [string, string | null, string, number][];
export declare function createPaintFirstRewriter(): { push(chunk: Buffer): Buffer; end(): Buffer };
export declare function paintFirst(res: ServerResponse): void;
