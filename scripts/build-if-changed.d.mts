/** One hash of every build input's path and contents (src-main, src-preload, src-renderer, resources, configs). */
export declare function inputsHash(root?: string): string;
/** What must exist in out/ for a build to be used: the app's entries, the command line's, the screens. */
export declare const OUTPUTS: readonly string[];
/** Whether out/ was built from the sources as they are now (and holds every output). */
export declare function isUpToDate(root?: string): boolean;
/** Builds out/ unless it was built from these very inputs; the build's exit code (0 when skipped). */
export declare function buildIfChanged(options?: {
  force?: boolean;
  quiet?: boolean;
  root?: string;
  build?: (root: string) => number;
}): number;
