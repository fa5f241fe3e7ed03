import type { Catalog, LoadCatalogOptions } from "./types.js";
export declare const BUILTIN_TOOLS_DIR: string;
/**
 * Reads the built-in tools, then each extra directory in order; later definitions replace
 * earlier ones. A bad extra file is told to `options.onError` and left out, so the rest of
 * the catalog always loads.
 */
export declare function loadCatalog(options?: LoadCatalogOptions): Catalog;
