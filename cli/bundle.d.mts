/** Types of cli/bundle.mjs (plain JavaScript: the bin loads it before tsx). */
export declare const PROJECT_ROOT: string;
export declare const DEFAULT_BUNDLE_DIR: string;
export declare function freshBundle(dir?: string): string | undefined;
