/** Types of cli/node-flags.mjs (plain JavaScript: the bin loads it before tsx). */
export declare const GENERATE_NODE_FLAGS: string[];
export declare function missingNodeFlags(args: string[], execArgv?: string[]): string[];
export declare function relaunchWithNodeFlags(script: string, args?: string[]): Promise<boolean>;
